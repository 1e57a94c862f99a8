"""What turning on opt-in rules costs on a tree: whole `inwards check` processes, cold and
warm, with and without the rules, medians over repeated runs and the ratio.

The tree's `pyproject.toml` must hold a `[tool.inwards]` table without a
`[tool.inwards.rules]` table (a rule's own options table, such as INW015's `role`, may be
there: off, it is one warning); the tree is copied to a temporary directory twice, once as it
is (the default run) and once with `[tool.inwards.rules] extend-select = [CODES]` added.
Runs alternate between the two copies, so a change in the machine's load hits both.

- cold: the cache (`.inwards/cache`) is removed before each run;
- warm: the cache and the memo of the previous run are there, nothing changed;
- edit: the cache is there, one file (`--edit`, default the first `.py` file in sorted
  order) gets a comment appended before each run, so the memo misses and each file's facts
  come from the cache (the case of a pre-commit hook or an editor after one change).

usage: python bench/optin_cost.py --tree DIR --codes CODE[,CODE...] [--runs N]
           [--inwards PATH] [--edit FILE]

Issue 14 measures the FastAPI family over FastAPI's sdist this way (docs/rules/fapi.md).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

SCENARIOS = ("cold", "warm", "edit")


def with_rules(pyproject: str, codes: Sequence[str]) -> str:
    """The configuration with the rules turned on; refuses one that has a rules table."""
    if re.search(r"^\[tool\.inwards\.rules\]\s*$", pyproject, flags=re.M):
        raise SystemExit("optin_cost: the tree's pyproject.toml already has [tool.inwards.rules]")
    listed = ", ".join(f'"{code}"' for code in codes)
    return pyproject.rstrip("\n") + f"\n\n[tool.inwards.rules]\nextend-select = [{listed}]\n"


def _run(inwards: str, tree: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [inwards, "check", "-q"], cwd=tree, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"optin_cost: inwards failed in {tree}:\n{done.stderr[-2000:]}")
    return elapsed * 1000


def _prepare(tree: Path, scenario: str, edit: Path) -> None:
    if scenario == "cold":
        shutil.rmtree(tree / ".inwards" / "cache", ignore_errors=True)
    elif scenario == "edit":
        with (tree / edit).open("a", encoding="utf-8") as handle:
            handle.write("# edited\n")


def measure(
    inwards: str, tree: Path, codes: Sequence[str], runs: int, edit: Path | None
) -> dict[str, tuple[float, float]]:
    """scenario -> (median ms without the rules, median ms with them)."""
    results: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="inwards-optin-") as scratch:
        plain, ruled = Path(scratch) / "default", Path(scratch) / "optin"
        ignore = shutil.ignore_patterns(".inwards", "__pycache__", ".git")
        shutil.copytree(tree, plain, ignore=ignore)
        shutil.copytree(tree, ruled, ignore=ignore)
        text = (tree / "pyproject.toml").read_text(encoding="utf-8")
        (ruled / "pyproject.toml").write_text(with_rules(text, codes), encoding="utf-8")
        edited = edit or min(p.relative_to(plain) for p in plain.rglob("*.py"))
        for scenario in SCENARIOS:
            times: dict[Path, list[float]] = {plain: [], ruled: []}
            for copy in (plain, ruled):  # one unmeasured run each: caches and page cache
                _prepare(copy, "cold" if scenario == "cold" else "warm", edited)
                _run(inwards, copy)
            for _ in range(runs):
                for copy in (plain, ruled):
                    _prepare(copy, scenario, edited)
                    times[copy].append(_run(inwards, copy))
            results[scenario] = (statistics.median(times[plain]), statistics.median(times[ruled]))
    return results


def render(results: dict[str, tuple[float, float]], codes: Sequence[str]) -> str:
    lines = [f"rules on: {', '.join(codes)}", "scenario  default ms  with rules ms  ratio"]
    for scenario, (plain, ruled) in results.items():
        lines.append(f"{scenario:<9} {plain:>10.0f} {ruled:>14.0f} {ruled / plain:>6.2f}x")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--codes", required=True, help="comma-separated rule codes")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--inwards", default=shutil.which("inwards") or "inwards")
    parser.add_argument("--edit", type=Path, default=None)
    args = parser.parse_args(argv)
    codes = [code.strip() for code in args.codes.split(",") if code.strip()]
    results = measure(args.inwards, args.tree, codes, args.runs, args.edit)
    sys.stdout.write(render(results, codes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
