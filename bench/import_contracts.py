"""What a project's import-linter contracts cost under each tool: `lint-imports` against
`inwards check` after `inwards import-config`, on the projects that ship contracts
(`../shared/bench/get-corpora.sh DIR contracts`), whole processes, medians over runs.

Each project is copied once per tool (neither tool's cache sees the other's). Ours is
converted with `inwards import-config` first (not timed; its time is printed apart). Then,
in alternating rounds so outside load hits both alike:

- cold: `lint-imports --no-cache` and `inwards check --no-cache`;
- warm: both with their caches, after a run that filled them.

Both tools must give the same exit code on the project (the verdicts are compared contract
by contract in `tests/corpus/test_import_config_corpora.py`); a difference stops the script.

usage: python bench/import_contracts.py [--corpora DIR] [--runs N]
           [--inwards PATH/TO/bin/inwards] [--lint-imports PATH/TO/bin/lint-imports]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENVS = Path(os.environ.get("INWARDS_BENCH_VENVS") or Path.home() / ".cache" / "inwards-bench")
# name: (folder under the corpora, the folder lint-imports needs on PYTHONPATH)
PROJECTS = {
    "import-linter": ("contracts/import-linter-2.16", "src"),
    "kedro": ("contracts/kedro-1.7.0", "."),
    "dfetch": ("contracts/dfetch-0.14.4", "."),
    "usethis": ("contracts/usethis-0.22.0", "src"),
}


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
    return time.perf_counter() - started, done.returncode


def environment(python_path: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    env["XDG_CONFIG_HOME"] = str(Path(tempfile.gettempdir()) / "inwards-bench-no-user-rules")
    env["PYTHONHASHSEED"] = "0"  # lint-imports picks among equal chains by hash order
    if python_path is not None:
        env["PYTHONPATH"] = str(python_path)
    return env


def bench_project(name: str, corpora: Path, work: Path, args: argparse.Namespace) -> str:
    folder, python_path = PROJECTS[name]
    source = corpora / folder
    if not source.is_dir():
        return f"{name:14} (not in {corpora})"
    ours, theirs = work / f"{name}-inwards", work / f"{name}-lint-imports"
    for copy in (ours, theirs):
        shutil.copytree(source, copy, symlinks=True)
    convert, code = timed([args.inwards, "import-config"], ours, environment())
    if code != 0:
        sys.exit(f"{name}: inwards import-config exited {code}")
    lint = [args.lint_imports]
    lint_env = environment(theirs / python_path)
    commands = {
        "lint-imports cold": ([*lint, "--no-cache"], theirs, lint_env),
        "lint-imports warm": (lint, theirs, lint_env),
        "inwards cold": ([args.inwards, "check", "-q", "--no-cache"], ours, environment()),
        "inwards warm": ([args.inwards, "check", "-q"], ours, environment()),
    }
    for command, cwd, env in commands.values():  # warm-up: fills the warm runs' caches
        timed(command, cwd, env)
    seconds: dict[str, list[float]] = {label: [] for label in commands}
    codes: dict[str, set[int]] = {label: set() for label in commands}
    for _ in range(args.runs):
        for label, (command, cwd, env) in commands.items():
            took, code = timed(command, cwd, env)
            seconds[label].append(took)
            codes[label].add(code)
    verdicts = {frozenset(found) for found in codes.values()}
    if len(verdicts) != 1:
        sys.exit(f"{name}: the tools disagree on the exit code: {codes}")
    medians = {label: statistics.median(values) * 1000 for label, values in seconds.items()}
    cold = medians["inwards cold"] / medians["lint-imports cold"]
    warm = medians["inwards warm"] / medians["lint-imports warm"]
    return (
        f"{name:14} exit {min(next(iter(verdicts)))}  "
        f"lint-imports {medians['lint-imports cold']:6.0f} / {medians['lint-imports warm']:6.0f} ms"
        f"  inwards {medians['inwards cold']:6.0f} / {medians['inwards warm']:6.0f} ms"
        f"  ratio {cold:4.2f}x / {warm:4.2f}x  (import-config {convert * 1000:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=Path("/work/corpora"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--inwards", default=str(REPO / ".venv" / "bin" / "inwards"))
    parser.add_argument(
        "--lint-imports", default=str(VENVS / "import-linter" / "bin" / "lint-imports")
    )
    args = parser.parse_args()
    print(f"medians of {args.runs} runs, cold / warm; ratio = inwards / lint-imports")
    with tempfile.TemporaryDirectory(prefix="inwards-contracts-") as work:
        for name in PROJECTS:
            print(bench_project(name, args.corpora, Path(work), args), flush=True)


if __name__ == "__main__":
    main()
