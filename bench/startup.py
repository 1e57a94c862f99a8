"""Where the start-up of a one-file check goes: ``python -X importtime`` on it, several times.

Runs ``inwards check FILE --no-cache`` of the installed ours through the console script's own
interpreter (the ``#!`` line of the ``inwards`` script) with ``-X importtime``, ``--runs``
times, and prints the median import time in all and per kind of module (ours, the standard
library, third party), the top modules by self and by cumulative time, and the packages that
cost most. Beside it, the whole process without ``-X importtime`` and the bare interpreter
(``python -I -c pass``), both medians of wall time. An editable install adds import machinery
of its own: measure a regular install (``pip install /path/to/repo`` into a virtualenv).

usage: python bench/startup.py [--ours PATH/TO/bin/inwards] [--project DIR --file PATH]
                               [--runs N] [--top N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora
import generate
import measure

OURS_PACKAGES = frozenset({"inwards_core", "inwards_cli", "inwards_rules_fastapi"})
OURS_KIND, STDLIB_KIND, THIRD_PARTY_KIND = "ours", "stdlib", "third party"
KINDS = (OURS_KIND, STDLIB_KIND, THIRD_PARTY_KIND)
IMPORTTIME_PREFIX = "import time:"


@attrs.frozen
class ImportLine:
    """One line of ``-X importtime``: a module, how deep it was imported, its costs (µs)."""

    name: str
    level: int  # 0 for a module the program imported itself, 1 for one that imported, ...
    self_us: int
    cumulative_us: int


def parse_importtime(stderr: str) -> list[ImportLine]:
    """The import lines of a ``-X importtime`` stderr; the header and other output skipped.

    CPython writes ``import time: {self:9} | {cumulative:10} | {"  " * level}{name}``."""
    found: list[ImportLine] = []
    for line in stderr.splitlines():
        if not line.startswith(IMPORTTIME_PREFIX):
            continue
        parts = line[len(IMPORTTIME_PREFIX) :].split("|", 2)
        if len(parts) != 3:
            continue
        try:
            self_us, cumulative_us = int(parts[0]), int(parts[1])
        except ValueError:
            continue  # the header: self [us] | cumulative | imported package
        padded = parts[2][1:] if parts[2].startswith(" ") else parts[2]
        name = padded.lstrip(" ")
        level = (len(padded) - len(name)) // 2
        found.append(ImportLine(name.rstrip(), level, self_us, cumulative_us))
    return found


def kind_of(module: str, stdlib: Iterable[str] = sys.stdlib_module_names) -> str:
    top = module.split(".", 1)[0]
    if top in OURS_PACKAGES:
        return OURS_KIND
    if top in stdlib or top in sys.builtin_module_names:
        return STDLIB_KIND
    return THIRD_PARTY_KIND


@attrs.frozen
class ModuleCost:
    """A module's median costs over the runs that imported it, in milliseconds."""

    name: str
    kind: str
    self_ms: float
    cumulative_ms: float


def module_costs(runs: Sequence[Sequence[ImportLine]]) -> list[ModuleCost]:
    """Median self and cumulative time of every module, in the order first seen."""
    seen: dict[str, list[ImportLine]] = {}
    for lines in runs:
        for line in lines:
            seen.setdefault(line.name, []).append(line)
    return [
        ModuleCost(
            name,
            kind_of(name),
            statistics.median(line.self_us for line in lines) / 1000,
            statistics.median(line.cumulative_us for line in lines) / 1000,
        )
        for name, lines in seen.items()
    ]


def run_totals(runs: Sequence[Sequence[ImportLine]]) -> dict[str, float]:
    """Median per run of the self times added up, in all and per kind, in milliseconds."""
    per_kind: dict[str, list[float]] = {kind: [] for kind in ("all", *KINDS)}
    for lines in runs:
        for kind in KINDS:
            per_kind[kind].append(sum(ln.self_us for ln in lines if kind_of(ln.name) == kind))
        per_kind["all"].append(sum(line.self_us for line in lines))
    return {kind: statistics.median(values) / 1000 for kind, values in per_kind.items() if values}


def package_costs(costs: Sequence[ModuleCost]) -> list[tuple[str, str, float, int]]:
    """(top-level package, kind, self ms added up, modules) per package, costliest first."""
    totals: dict[str, tuple[str, float, int]] = {}
    for cost in costs:
        top = cost.name.split(".", 1)[0]
        _, spent, count = totals.get(top, (cost.kind, 0.0, 0))
        totals[top] = (cost.kind, spent + cost.self_ms, count + 1)
    ranked = sorted(totals.items(), key=lambda item: (-item[1][1], item[0]))
    return [(top, kind, spent, count) for top, (kind, spent, count) in ranked]


def script_python(script: Path) -> Path | None:
    """The interpreter on a console script's ``#!`` line, None for anything else."""
    try:
        with script.open("rb") as handle:
            first = handle.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", errors="replace").split()
    return Path(words[0]) if words else None


def top_table(costs: Sequence[ModuleCost], key: str, count: int) -> str:
    ranked = sorted(costs, key=lambda cost: (-getattr(cost, key), cost.name))[:count]
    lines = [f"  {'self ms':>8} {'cumul ms':>9}  {'kind':<11} module"]
    lines += [
        f"  {cost.self_ms:>8.2f} {cost.cumulative_ms:>9.2f}  {cost.kind:<11} {cost.name}"
        for cost in ranked
    ]
    return "\n".join(lines)


def _wall(command: list[str], cwd: Path, runs: int) -> tuple[float, list[str]]:
    """Median wall time of a command and the stderr of each run."""
    walls: list[float] = []
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="inwards-startup-") as logs:
        for _ in range(runs):
            run, _stdout, stderr = measure.measure(command, cwd, _env(), Path(logs))
            if run.exit_code not in (0, 1):
                raise SystemExit(f"{' '.join(command)} exited {run.exit_code}:\n{stderr[-2000:]}")
            walls.append(run.wall_s)
            errors.append(stderr)
    return statistics.median(walls), errors


def _env() -> dict[str, str]:
    # INWARDS_* could switch caches off; PYTHONPROFILEIMPORTTIME would time every run.
    skipped = ("INWARDS_", "PYTHONPROFILEIMPORTTIME")
    return {k: v for k, v in os.environ.items() if not k.startswith(skipped)}


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ours", help="our inwards console script (default: inwards on PATH)")
    parser.add_argument(
        "--project", type=Path, help="project to check in (default: the synthetic project)"
    )
    parser.add_argument("--file", help="the file to check, relative to the project")
    parser.add_argument("--runs", type=int, default=7, help="runs of each command (default 7)")
    parser.add_argument("--top", type=int, default=15, help="modules in each top list (15)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.top < 1:
        parser.error("--runs and --top must be at least 1")
    if (args.project is None) != (args.file is None):
        parser.error("--project and --file go together")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    ours = measure.find_tools(args.ours, Path(), [measure.OURS])[measure.OURS]
    if ours.unavailable or ours.executable is None:
        raise SystemExit(f"ours is n/a: {ours.unavailable}")
    python = script_python(ours.executable)
    if python is None:
        raise SystemExit(f"{ours.executable} is no Python console script (no #! line)")
    if args.project is None:
        corpus = corpora.prepare_synthetic(None, generate.DEFAULT_MODULES)
        assert corpus.source is not None
        project, one_file = corpus.source, corpus.one_file
    else:
        project, one_file = args.project, args.file
    check = [str(ours.executable), "check", one_file, "--no-cache"]
    bare, _ = _wall([str(python), "-I", "-c", "pass"], project, args.runs)
    whole, _ = _wall(check, project, args.runs)
    _, stderrs = _wall([str(python), "-X", "importtime", *check], project, args.runs)
    runs = [parse_importtime(stderr) for stderr in stderrs]
    costs = module_costs(runs)
    totals = run_totals(runs)
    counts = {kind: sum(1 for cost in costs if cost.kind == kind) for kind in KINDS}

    print(f"ours: {ours.executable} ({ours.version}), interpreter {python}")
    print(f"in {project}: inwards check {one_file} --no-cache; medians of {args.runs} runs")
    print(f"  python -I -c pass                   {bare * 1000:8.1f} ms wall")
    print(f"  inwards check FILE --no-cache       {whole * 1000:8.1f} ms wall")
    print(f"  imports (-X importtime, self times) {totals.get('all', 0.0):8.1f} ms:")
    for kind in KINDS:
        print(f"    {kind:<12} {totals.get(kind, 0.0):8.1f} ms in {counts[kind]} modules")
    print(f"\nTop {args.top} modules by self time:")
    print(top_table(costs, "self_ms", args.top))
    print(f"\nTop {args.top} modules by cumulative time:")
    print(top_table(costs, "cumulative_ms", args.top))
    print(f"\nTop {args.top} packages by self time added up:")
    for top, kind, spent, count in package_costs(costs)[: args.top]:
        print(f"  {spent:>8.2f} ms  {kind:<11} {top} ({count} module{'s' if count != 1 else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
