"""How our cold run, warm run and peak memory grow with the size of a project.

Generates the synthetic project (bench/generate.py, with its five planted violations) at each
size under ``bench/out/scaling/`` (kept for the next run), then times ours alone on each:
``check --no-cache`` (cold) and ``check`` after a priming run (warm), ``--runs`` times each,
and prints a table with a least-squares line through each column: the cost per 1,000 modules,
the fixed cost, R², and the exponent k of a power law cost ~ modules^k (1 is linear; the
fixed cost of starting pulls it below 1 at small sizes).

usage: python bench/scaling.py [--ours PATH/TO/bin/inwards] [--sizes 500,1000,2000,4000,9000]
                               [--runs N] [--quiet-wait S] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora
import measure
from measure import COLD, OURS, WARM, Result, Run

DEFAULT_SIZES = (500, 1_000, 2_000, 4_000, 9_000)
LINEAR_R2 = 0.98  # a straight line explains at least this much of the variation
LINEAR_EXPONENT = 1.1  # and the cost grows no faster than modules^1.1


@attrs.frozen
class Fit:
    """A least-squares line ``cost = intercept + slope * modules`` and how well it fits."""

    slope: float  # cost per module
    intercept: float  # cost at zero modules: starting up
    r2: float
    exponent: float  # k of cost ~ modules^k, from the first and last sizes' log-log slope

    @property
    def linear(self) -> bool:
        return self.r2 >= LINEAR_R2 and self.exponent <= LINEAR_EXPONENT


def linear_fit(sizes: Sequence[float], costs: Sequence[float]) -> Fit:
    """The least-squares line through (size, cost), its R² and the log-log growth exponent."""
    if len(sizes) != len(costs) or len(sizes) < 2:
        raise ValueError("a fit needs at least two sizes, each with a cost")
    count = len(sizes)
    mean_x, mean_y = sum(sizes) / count, sum(costs) / count
    sxx = sum((x - mean_x) ** 2 for x in sizes)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(sizes, costs, strict=True))
    slope = sxy / sxx
    intercept = mean_y - slope * mean_x
    total = sum((y - mean_y) ** 2 for y in costs)
    residual = sum((y - intercept - slope * x) ** 2 for x, y in zip(sizes, costs, strict=True))
    r2 = 1.0 - residual / total if total > 0 else 1.0
    return Fit(slope, intercept, r2, growth_exponent(sizes, costs))


def growth_exponent(sizes: Sequence[float], costs: Sequence[float]) -> float:
    """k of cost ~ size^k between the smallest and the largest size (both costs > 0)."""
    low, high = (
        min(range(len(sizes)), key=sizes.__getitem__),
        max(range(len(sizes)), key=sizes.__getitem__),
    )
    if costs[low] <= 0 or costs[high] <= 0 or sizes[low] == sizes[high]:
        return math.nan
    return math.log(costs[high] / costs[low]) / math.log(sizes[high] / sizes[low])


@attrs.frozen
class Column:
    label: str
    scenario: str
    field: Callable[[Run], float]
    unit: str  # how a value is shown: "ms" (seconds in) or "MiB" (KiB in)


COLUMNS = (
    Column("cold wall", COLD, lambda run: run.wall_s, "ms"),
    Column("cold CPU", COLD, lambda run: run.cpu_s, "ms"),
    Column("warm wall", WARM, lambda run: run.wall_s, "ms"),
    Column("warm CPU", WARM, lambda run: run.cpu_s, "ms"),
    Column("cold RSS", COLD, lambda run: run.max_rss_kib, "MiB"),
    Column("warm RSS", WARM, lambda run: run.max_rss_kib, "MiB"),
)


def shown(value: float, unit: str) -> float:
    return value * 1000 if unit == "ms" else value / 1024


def medians(results: Sequence[Result], column: Column, sizes: Sequence[int]) -> list[float] | None:
    """The column's medians in size order, or None when a size has no numbers for it."""
    found: list[float] = []
    for size in sizes:
        picked = [
            r for r in results if r.corpus == f"m{size}" and r.scenario == column.scenario and r.ok
        ]
        if not picked:
            return None
        found.append(shown(picked[0].median(column.field), column.unit))
    return found


def scaling_table(results: Sequence[Result], sizes: Sequence[int], files: dict[int, int]) -> str:
    """One line per size, then per column the fit: cost per 1,000 modules, fixed cost, R², k."""
    header = f"{'modules':>8} {'files':>6} " + " ".join(
        f"{column.label + ' ' + column.unit:>14}" for column in COLUMNS
    )
    lines = [header, "-" * len(header)]
    values = {column.label: medians(results, column, sizes) for column in COLUMNS}
    for index, size in enumerate(sizes):
        cells = []
        for column in COLUMNS:
            column_values = values[column.label]
            cells.append("n/a" if column_values is None else f"{column_values[index]:,.0f}")
        lines.append(f"{size:>8,} {files.get(size, 0):>6,} " + " ".join(f"{c:>14}" for c in cells))
    lines.append("")
    lines.append(f"{'fit':<14} {'per 1,000 modules':>18} {'fixed':>10} {'R²':>7} {'k':>6}  linear?")
    for column in COLUMNS:
        column_values = values[column.label]
        if column_values is None or len(sizes) < 2:
            lines.append(f"{column.label:<14} n/a")
            continue
        fit = linear_fit(sizes, column_values)
        lines.append(
            f"{column.label:<14} {fit.slope * 1000:>14,.1f} {column.unit:<3} "
            f"{fit.intercept:>10,.0f} {fit.r2:>7.3f} {fit.exponent:>6.2f}  "
            f"{'yes' if fit.linear else 'no'}"
        )
    return "\n".join(lines)


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ours", help="our inwards executable (default: inwards on PATH)")
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, DEFAULT_SIZES)),
        help="modules per generated project, comma-separated (default 500,...,9000)",
    )
    parser.add_argument("--runs", type=int, default=3, help="measured runs per case (default 3)")
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=2.0,
        help="wait up to S seconds for idle CPUs before each run (default 2; 0 turns it off)",
    )
    parser.add_argument("--json", type=Path, help="write the raw measurements here")
    args = parser.parse_args(argv)
    try:
        args.sizes = sorted({int(size) for size in args.sizes.split(",") if size.strip()})
    except ValueError:
        parser.error(f"--sizes: whole numbers, comma-separated (got {args.sizes!r})")
    if len(args.sizes) < 2 or args.sizes[0] < 100 or args.runs < 1:
        parser.error("--sizes needs two sizes of at least 100 modules; --runs at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    tools = measure.find_tools(args.ours, Path(), [OURS])
    ours = tools[OURS]
    if ours.unavailable:
        print(f"ours is n/a: {ours.unavailable}", file=sys.stderr)
        return 2
    print(f"ours: {ours.executable} ({ours.version}); load average {measure.load_average()}")
    results: list[Result] = []
    files: dict[int, int] = {}
    for size in args.sizes:
        out = corpora.OUT_DIR / "scaling" / f"m{size}"
        corpus = corpora.prepare_synthetic(None, size, key=f"m{size}", out=out)
        assert corpus.source is not None
        files[size] = corpora.count_python(corpus.source)
        for scenario in (COLD, WARM):
            print(f"... {size} modules {scenario}", file=sys.stderr, flush=True)
            results.extend(
                measure.run_scenario(
                    corpus, scenario, [ours], {OURS: corpus.source}, args.runs, 0, args.quiet_wait
                )
            )
    print(f"\nOurs by project size (medians of {args.runs} runs; RSS is the peak):")
    print(scaling_table(results, args.sizes, files))
    failed = [result for result in results if result.status == "failed"]
    for result in failed:
        print(f"\n{result.corpus} {result.scenario} failed: {result.reason}")
    if args.json:
        document = {
            "schema": "inwards-bench/scaling@1",
            "taken_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "machine": measure.machine(),
            "ours": str(ours.executable),
            "version": ours.version,
            "runs": args.runs,
            "files": files,
            "results": [attrs.asdict(result) for result in results],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        print(f"\nRaw measurements: {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
