"""What bench/run.py prints: the measurements, the ratios, the issue's table and its targets.

Every verdict compares medians of wall time (what a user waits for), except memory (peak RSS,
median). A target whose numbers are missing is ``n/a``, never a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
from corpora import DJANGO, SYNTHETIC
from measure import (
    COLD,
    IMPORT_LINTER,
    ONE_FILE,
    OURS,
    REFERENCE,
    SCENARIOS,
    WARM,
    Result,
    Run,
    brief,
)
from trees import findings_count, total_findings

TREES = "trees"  # the corpus key of the 24 real trees; each tree's results are trees/<name>
TREE_PREFIX = f"{TREES}/"
MET, NOT_MET, NOT_APPLICABLE = "met", "NOT met", "n/a"

# The issue's targets (issue 12, "Proof").
WARM_OF_COLD = 0.5  # our warm run at most half our own cold run
COLD_OF_IMPORT_LINTER = 1.0
TREES_OF_REFERENCE = 0.3  # the 24 trees, in total
PEAK_MEMORY_MB = 100  # ours on the synthetic project, cold; MB = 10^6 bytes


def ms(seconds: float) -> str:
    milliseconds = seconds * 1000
    return f"{milliseconds:.1f}" if milliseconds < 100 else f"{milliseconds:,.0f}"


def megabytes(kib: float) -> float:
    return kib * 1024 / 1e6


def _wall(run: Run) -> float:
    return run.wall_s


def _cpu(run: Run) -> float:
    return run.cpu_s


def _rss(run: Run) -> float:
    return run.max_rss_kib


def table(results: Sequence[Result]) -> str:
    header = (
        f"{'corpus':<18} {'scenario':<9} {'tool':<14} {'wall ms median':>14} {'[min-max]':<17} "
        f"{'CPU ms':>7} {'RSS MiB':>8} {'exit':>4} {'busy':>4}"
    )
    rows = [header, "-" * len(header)]
    for result in results:
        head = f"{result.corpus:<18} {result.scenario:<9} {result.tool:<14}"
        if not result.ok:
            label = NOT_APPLICABLE if result.status == "n/a" else "FAILED"
            rows.append(f"{head} {label}: {brief(result.reason)}")
            continue
        walls = [run.wall_s for run in result.runs]
        spread = f"[{ms(min(walls))}-{ms(max(walls))}]"
        exits = sorted({run.exit_code for run in result.runs})
        rows.append(
            f"{head} {ms(result.median(_wall)):>14} {spread:<17} "
            f"{ms(result.median(_cpu)):>7} "
            f"{result.median(_rss) / 1024:>8.0f} "
            f"{','.join(map(str, exits)):>4} {result.noisy_runs:>4}"
        )
    return "\n".join(rows)


def find(results: Sequence[Result], corpus: str, scenario: str, tool: str) -> Result | None:
    for result in results:
        if (result.corpus, result.scenario, result.tool) == (corpus, scenario, tool):
            return result
    return None


def median_wall(results: Sequence[Result], corpus: str, scenario: str, tool: str) -> float | None:
    result = find(results, corpus, scenario, tool)
    return result.median(_wall) if result and result.ok else None


def ratios(results: Sequence[Result], corpora: Iterable[str]) -> list[str]:
    lines: list[str] = []
    if not any(result.ok for result in results if result.tool == OURS):
        return ["n/a: ours has no numbers yet"] if any(r.tool == OURS for r in results) else []
    for corpus in corpora:
        for scenario in SCENARIOS:
            ours = find(results, corpus, scenario, OURS)
            for other in (REFERENCE, IMPORT_LINTER):
                peer = find(results, corpus, scenario, other)
                if ours is None or peer is None:
                    continue
                label = f"{corpus:<18} {scenario:<9} ours / {other:<14}"
                if not (ours.ok and peer.ok):
                    missing = OURS if not ours.ok else other
                    lines.append(f"{label} n/a ({missing} has no numbers)")
                    continue
                wall = ours.median(_wall) / peer.median(_wall)
                cpu = ours.median(_cpu) / max(peer.median(_cpu), 1e-9)
                rss = ours.median(_rss) / peer.median(_rss)
                lines.append(f"{label} wall {wall:.2f}x  CPU {cpu:.2f}x  RSS {rss:.2f}x")
    return lines


# --------------------------------------------------------------------------- the 24 trees


@attrs.frozen
class TreeTotals:
    """The 24 trees' cold runs added up, per tool."""

    trees: int  # trees with numbers from both tools
    missing: tuple[str, ...]  # trees without numbers from one of them
    ours_s: float
    reference_s: float
    ours_findings: int | None
    reference_findings: int | None
    ours_cpu_s: float = 0.0
    reference_cpu_s: float = 0.0

    @property
    def ratio(self) -> float | None:
        return self.ours_s / self.reference_s if self.trees and self.reference_s > 0 else None


def tree_totals(results: Sequence[Result], names: Sequence[str]) -> TreeTotals:
    """Sums of the median cold wall times and of the findings each tool reported."""
    ours_s = reference_s = ours_cpu_s = reference_cpu_s = 0.0
    missing: list[str] = []
    counts: dict[str, list[int | None]] = {OURS: [], REFERENCE: []}
    for name in names:
        corpus = TREE_PREFIX + name
        ours = find(results, corpus, COLD, OURS)
        reference = find(results, corpus, COLD, REFERENCE)
        if not (ours and ours.ok and reference and reference.ok):
            missing.append(name)
            continue
        ours_s += ours.median(_wall)
        reference_s += reference.median(_wall)
        ours_cpu_s += ours.median(_cpu)
        reference_cpu_s += reference.median(_cpu)
        counts[OURS].append(findings_count(ours.reported))
        counts[REFERENCE].append(findings_count(reference.reported))
    return TreeTotals(
        len(names) - len(missing),
        tuple(missing),
        ours_s,
        reference_s,
        total_findings(counts[OURS]),
        total_findings(counts[REFERENCE]),
        ours_cpu_s,
        reference_cpu_s,
    )


def _count(value: int | None) -> str:
    return "?" if value is None else f"{value:,}"


def tree_table(results: Sequence[Result], names: Sequence[str]) -> str:
    """One line per tree: both tools' median cold wall, their ratio and findings."""
    header = (
        f"{'tree':<24} {'ours ms':>8} {'ref ms':>8} {'ours/ref':>8} "
        f"{'ours findings':>13} {'ref findings':>12}"
    )
    rows = [header, "-" * len(header)]
    for name in names:
        ours = find(results, TREE_PREFIX + name, COLD, OURS)
        reference = find(results, TREE_PREFIX + name, COLD, REFERENCE)
        cells = []
        for result in (ours, reference):
            if result is None or not result.ok:
                reason = NOT_APPLICABLE if result is None else brief(result.reason) or result.status
                cells.append(reason)
            else:
                cells.append(ms(result.median(_wall)))
        if ours and ours.ok and reference and reference.ok:
            ratio = f"{ours.median(_wall) / reference.median(_wall):.2f}x"
            found = (findings_count(ours.reported), findings_count(reference.reported))
            rows.append(
                f"{name:<24} {cells[0]:>8} {cells[1]:>8} {ratio:>8} "
                f"{_count(found[0]):>13} {_count(found[1]):>12}"
            )
        else:
            rows.append(f"{name:<24} ours: {cells[0]}; reference: {cells[1]}")
    totals = tree_totals(results, names)
    ratio = "n/a" if totals.ratio is None else f"{totals.ratio:.2f}x"
    rows.append(
        f"{'total (' + str(totals.trees) + ' trees)':<24} {ms(totals.ours_s):>8} "
        f"{ms(totals.reference_s):>8} {ratio:>8} {_count(totals.ours_findings):>13} "
        f"{_count(totals.reference_findings):>12}"
    )
    if totals.trees and totals.reference_cpu_s > 0:
        cpu_ratio = totals.ours_cpu_s / totals.reference_cpu_s
        rows.append(
            f"{'  CPU (user + sys)':<24} {ms(totals.ours_cpu_s):>8} "
            f"{ms(totals.reference_cpu_s):>8} {cpu_ratio:>7.2f}x"
        )
    return "\n".join(rows)


# --------------------------------------------------------------------------- targets


@attrs.frozen
class Target:
    corpus: str
    text: str
    verdict: str  # met | NOT met | n/a
    detail: str
    row: str = ""  # the row of the issue's table it belongs to


def judge(
    row: str, corpus: str, text: str, ours: float | None, limit: float | None, why: str
) -> Target:
    """Ours (seconds) against a limit (seconds); n/a with ``why`` when either is missing."""
    if ours is None or limit is None:
        return Target(corpus, text, NOT_APPLICABLE, why, row)
    verdict = MET if ours <= limit else NOT_MET
    return Target(corpus, text, verdict, f"{ms(ours)} ms vs limit {ms(limit)} ms", row)


def _scaled(value: float | None, factor: float) -> float | None:
    return None if value is None else factor * value


def _one_file_targets(results: Sequence[Result], corpora: Sequence[str]) -> list[Target]:
    found = []
    for corpus in (SYNTHETIC, DJANGO):
        if corpus in corpora:
            found.append(
                judge(
                    "one file",
                    corpus,
                    "one-file <= reference one-file",
                    median_wall(results, corpus, ONE_FILE, OURS),
                    median_wall(results, corpus, ONE_FILE, REFERENCE),
                    "needs ours and reference one-file",
                )
            )
    return found


def _warm_targets(results: Sequence[Result], corpora: Sequence[str]) -> list[Target]:
    if SYNTHETIC not in corpora:
        return []
    warm = median_wall(results, SYNTHETIC, WARM, OURS)
    cold = median_wall(results, SYNTHETIC, COLD, OURS)
    reference = median_wall(results, SYNTHETIC, WARM, REFERENCE)
    return [
        judge(
            "warm",
            SYNTHETIC,
            f"warm <= {WARM_OF_COLD:.1f}x our cold",
            warm,
            _scaled(cold, WARM_OF_COLD),
            "needs ours cold and warm",
        ),
        judge(
            "warm",
            SYNTHETIC,
            "warm <= reference warm",
            warm,
            reference,
            "needs ours and reference warm",
        ),
    ]


def _cold_targets(results: Sequence[Result], corpora: Sequence[str]) -> list[Target]:
    found = []
    for corpus in (SYNTHETIC, DJANGO):
        if corpus in corpora:
            linter = median_wall(results, corpus, COLD, IMPORT_LINTER)
            found.append(
                judge(
                    "cold",
                    corpus,
                    f"cold <= {COLD_OF_IMPORT_LINTER:.1f}x import-linter cold",
                    median_wall(results, corpus, COLD, OURS),
                    _scaled(linter, COLD_OF_IMPORT_LINTER),
                    "needs ours and import-linter cold",
                )
            )
    return found


def _memory_target(results: Sequence[Result], corpora: Sequence[str]) -> list[Target]:
    if SYNTHETIC not in corpora:
        return []
    text = f"peak RSS, cold <= {PEAK_MEMORY_MB} MB"
    cold = find(results, SYNTHETIC, COLD, OURS)
    if cold is None or not cold.ok:
        return [Target(SYNTHETIC, text, NOT_APPLICABLE, "needs ours cold", "memory")]
    peak = megabytes(cold.median(_rss))
    verdict = MET if peak <= PEAK_MEMORY_MB else NOT_MET
    return [Target(SYNTHETIC, text, verdict, f"{peak:.1f} MB (median)", "memory")]


def _trees_target(results: Sequence[Result], trees: Sequence[str]) -> list[Target]:
    if not trees:
        return []
    totals = tree_totals(results, trees)
    text = f"cold, all trees <= {TREES_OF_REFERENCE:.1f}x reference"
    if totals.missing:
        detail = f"needs both tools on every tree; missing {', '.join(totals.missing)}"
        return [Target(TREES, text, NOT_APPLICABLE, detail, "trees")]
    target = judge(
        "trees",
        TREES,
        text,
        totals.ours_s,
        TREES_OF_REFERENCE * totals.reference_s,
        "",
    )
    ratio = f"{totals.ratio:.2f}x" if totals.ratio is not None else "n/a"
    return [attrs.evolve(target, detail=f"{target.detail} ({ratio} of the reference's)")]


def targets(
    results: Sequence[Result], corpora: Iterable[str], trees: Sequence[str] = ()
) -> list[Target]:
    """The issue's targets: one-file <= the reference's; warm <= 0.5x our cold and <= the
    reference's warm; cold <= 1.0x import-linter; the 24 trees <= 0.3x the reference in all;
    peak memory <= 100 MB on the synthetic project, cold."""
    wanted = list(corpora)
    return (
        _one_file_targets(results, wanted)
        + _warm_targets(results, wanted)
        + _cold_targets(results, wanted)
        + _trees_target(results, trees)
        + _memory_target(results, wanted)
    )


ISSUE_ROWS = (
    ("one file", "one file (check FILE --no-cache)", ONE_FILE, (SYNTHETIC, DJANGO)),
    ("warm", "warm", WARM, (SYNTHETIC,)),
    ("cold", "cold", COLD, (SYNTHETIC, DJANGO)),
)


def _ratio(results: Sequence[Result], corpus: str, scenario: str, other: str) -> str:
    ours = median_wall(results, corpus, scenario, OURS)
    peer = median_wall(results, corpus, scenario, other)
    return "-" if ours is None or peer is None else f"{ours / peer:.2f}x"


def issue_table(
    results: Sequence[Result], verdicts: Sequence[Target], trees: Sequence[str] = ()
) -> str:
    """The issue's table, row by row: the ratios of wall medians and the targets' verdicts."""
    header = f"{'row':<46} {'ours/reference':>14} {'ours/import-linter':>18}  verdicts"
    lines = [header, "-" * len(header)]

    def said(row: str, corpus: str) -> str:
        picked = [t for t in verdicts if t.row == row and t.corpus == corpus]
        return "; ".join(f"{t.text}: {t.verdict}" for t in picked) or "-"

    for row, label, scenario, corpora in ISSUE_ROWS:
        for corpus in corpora:
            if not any(t.row == row and t.corpus == corpus for t in verdicts):
                continue
            lines.append(
                f"{label + ', ' + corpus:<46} {_ratio(results, corpus, scenario, REFERENCE):>14} "
                f"{_ratio(results, corpus, scenario, IMPORT_LINTER):>18}  {said(row, corpus)}"
            )
    if trees:
        totals = tree_totals(results, trees)
        ratio = "-" if totals.ratio is None else f"{totals.ratio:.2f}x"
        label = f"{len(trees)} real trees ({_count(totals.reference_findings)} findings)"
        lines.append(f"{label:<46} {ratio:>14} {'-':>18}  {said('trees', TREES)}")
    if any(t.row == "memory" for t in verdicts):
        lines.append(f"{'peak memory, synthetic, cold':<46} {'-':>14} {'-':>18}  ")
        lines[-1] += said("memory", SYNTHETIC)
    return "\n".join(lines)
