"""What an independence contract over many units costs with `indirect = true`: `lint-imports`
against `inwards check` after `inwards import-config`, on the project
`bench/generate_units.py` writes (default 10,000 modules, 60,000 imports, 50 units), whole
processes, cold (`--no-cache` both), medians over `--runs` alternating rounds.

The project is generated once into a temporary folder and copied once per tool. Both tools
must give the same exit code (1: the units import each other through the shared code); a
difference stops the script.

usage: python bench/independence_units.py [--modules N] [--imports N] [--units N] [--seed N]
           [--runs N] [--inwards PATH/TO/bin/inwards] [--lint-imports PATH/TO/bin/lint-imports]
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_units

BIN = Path(sys.executable).parent


def environment(python_path: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    env["XDG_CONFIG_HOME"] = str(Path(tempfile.gettempdir()) / "inwards-bench-no-user-rules")
    env["PYTHONHASHSEED"] = "0"
    if python_path is not None:
        env["PYTHONPATH"] = str(python_path)
    return env


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
    return time.perf_counter() - started, done.returncode


def load() -> str:
    """The load averages, as `uptime` prints them (the machine is shared)."""
    one, five, fifteen = os.getloadavg()
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


def bench(args: argparse.Namespace, work: Path) -> list[str]:
    source = work / "project"
    source.mkdir()
    generate_units.write(source, args.modules, args.imports, args.units, args.seed)
    ours, theirs = work / "inwards", work / "lint-imports"
    for copy in (ours, theirs):
        shutil.copytree(source, copy)
    convert, code = timed([args.inwards, "import-config"], ours, environment())
    if code != 0:
        sys.exit(f"inwards import-config exited {code}")
    commands = {
        "lint-imports --no-cache": ([args.lint_imports, "--no-cache"], theirs, environment(theirs)),
        "inwards check --no-cache": (
            [args.inwards, "check", "-q", "--no-cache"],
            ours,
            environment(),
        ),
    }
    seconds: dict[str, list[float]] = {label: [] for label in commands}
    codes: dict[str, set[int]] = {label: set() for label in commands}
    for _ in range(args.runs):
        for label, (command, cwd, env) in commands.items():
            took, code = timed(command, cwd, env)
            seconds[label].append(took)
            codes[label].add(code)
    if len({frozenset(found) for found in codes.values()}) != 1:
        sys.exit(f"the tools disagree: exit codes {codes}")
    lines = [
        f"{args.modules} modules, {args.imports} imports, {args.units} units "
        f"(seed {args.seed}); {args.runs} run(s) each; exit codes {sorted(codes[label])}",
        f"  inwards import-config (once, not in the medians): {convert:.2f} s",
    ]
    for label, found in seconds.items():
        lines.append(
            f"  {label:26} median {statistics.median(found):7.2f} s  (runs: "
            + ", ".join(f"{s:.2f}" for s in found)
            + ")"
        )
    lines.append(f"  {load()}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=10_000)
    parser.add_argument("--imports", type=int, default=60_000)
    parser.add_argument("--units", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--inwards", default=str(BIN / "inwards"))
    parser.add_argument("--lint-imports", default=str(BIN / "lint-imports"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="inwards-units-") as folder:
        print("\n".join(bench(args, Path(folder))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
