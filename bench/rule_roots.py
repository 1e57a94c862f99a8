"""What resolving rule definitions from three roots costs a run.

Times whole `inwards check` processes (warm cache) and `inwards status` on the synthetic
project with no user or project definitions, then with 50 user and 50 project definitions:
in each root 8 shadows of the shipped INW rules and 42 new rules. The new rules are opt-in,
so the difference is the cost of reading, parsing and resolving the definitions, not of
running more checks; `--enabled` turns them on as well (then they also run). `--overlays`
writes the 8 shadows of each root as overlays instead (a severity, one guidance step): the
project's stack on the user's, which stack on core, so every run merges 16 overlays.

usage: python bench/rule_roots.py [--ours PATH/TO/bin/inwards] [--runs N] [--enabled]
       [--overlays] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # sits next to this script; bench/ is not a package

REPO = Path(__file__).resolve().parents[1]
CORE = REPO / "inwards_core" / "families" / "inw" / "definitions"
DEFINITIONS_PER_ROOT = 50


def new_rule(code: str, name: str, enabled: bool) -> str:
    default = "on" if enabled else "opt-in"
    return (
        f'code = "{code}"\nname = "{name}"\nsummary = "Keep HTTP clients out of one package."\n'
        f'check = "inw.forbidden"\ndefault = "{default}"\nseverity = "warning"\n\n'
        f'[options]\nmodules = ["shop.domain"]\nforbidden = ["requests", "httpx"]\n\n'
        f'[guidance]\nsummary = "Reach HTTP through a port."\nsteps = ["Delete `{{statement}}`."]\n'
    )


def overlay(code: str, prefix: str) -> str:
    return (
        f'overlays = "{code}"\nseverity = "warning"\n\n'
        f'[guidance]\nsteps = ["Ask the {prefix} maintainers first."]\n'
    )


def fill_root(directory: Path, prefix: str, enabled: bool, overlays: bool = False) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    shadows = sorted(CORE.glob("INW*.toml"))[:8]
    for path in shadows:
        if overlays:
            (directory / path.name).write_text(overlay(path.stem, prefix), encoding="utf-8")
        else:
            (directory / path.name).write_bytes(path.read_bytes() + b"\n# a local copy\n")
    for number in range(1, DEFINITIONS_PER_ROOT - len(shadows) + 1):
        code = f"{prefix}{number:03d}"
        (directory / f"{code}.toml").write_text(
            new_rule(code, f"{prefix.lower()}-rule-{number}", enabled), encoding="utf-8"
        )


def timed(command: list[str], cwd: Path, env: dict[str, str], runs: int) -> list[float]:
    subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)  # warm-up
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
        walls.append((time.perf_counter() - start) * 1000)
        if done.returncode not in (0, 1):
            raise SystemExit(
                f"{' '.join(command)} exited {done.returncode}:\n{done.stderr.decode()}"
            )
    return walls


RESOLVE_TIMER = """
import json, statistics, sys, time
from pathlib import Path
from inwards_cli.adapters.rule_roots import LocalRuleSources, UserRoot
from inwards_core.api import installed_families, load_rules

project, user, runs = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
families = installed_families()
tables = {}
def once(cached):
    sources = LocalRuleSources(families, project_dir=project, user=UserRoot(user))
    start = time.perf_counter()
    load_rules(families, sources, parsed_tables=tables if cached else None)
    return (time.perf_counter() - start) * 1000
once(True)
print(json.dumps({
    "parsed": statistics.median(once(False) for _ in range(runs)),
    "cached": statistics.median(once(True) for _ in range(runs)),
}))
"""


def resolve_times(ours: str, project: Path, user: Path, runs: int) -> dict[str, float]:
    """Reading and resolving every root in-process (no interpreter start-up, no checking):
    with every table parsed, and with the parsed tables a run keeps in its cache."""
    python = Path(ours).parent / "python"
    done = subprocess.run(
        [str(python), "-c", RESOLVE_TIMER, str(project), str(user), str(runs)],
        capture_output=True,
        text=True,
        check=True,
    )
    times: dict[str, float] = json.loads(done.stdout)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ours", default=shutil.which("inwards") or "inwards")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--enabled", action="store_true")
    parser.add_argument("--overlays", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="inwards-rule-roots-") as scratch:
        base = Path(scratch)
        project = base / "project"
        generate.main([str(project)])
        user = base / "config"
        env = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
        env["XDG_CONFIG_HOME"] = str(user)
        commands = {"check": [args.ours, "check"], "status": [args.ours, "status"]}
        for label in ("0 definitions", "50 user + 50 project"):
            if label != "0 definitions":
                fill_root(user / "inwards" / "rules", "USR", args.enabled, args.overlays)
                fill_root(project / ".inwards" / "rules", "PRJ", args.enabled, args.overlays)
            for name, command in commands.items():
                walls = timed(command, project, env, args.runs)
                key = f"{name}, {label}"
                results[key] = statistics.median(walls)
                print(
                    f"{key:<36} median {results[key]:8.1f} ms  [{min(walls):.1f}-{max(walls):.1f}]"
                )
        for label, (project_dir, user_dir) in {
            "0 definitions": (base / "none", base / "none"),
            "50 user + 50 project": (project, user / "inwards" / "rules"),
        }.items():
            times = resolve_times(args.ours, project_dir, user_dir, args.runs * 5)
            for how, value in times.items():
                results[f"resolve ({how}), {label}"] = value
                print(f"resolve in-process ({how}), {label:<22} median {value:6.2f} ms")
    for name in commands:
        difference = results[f"{name}, 50 user + 50 project"] - results[f"{name}, 0 definitions"]
        results[f"{name} difference"] = difference
        print(f"{name}: 100 definitions add {difference:+.1f} ms (median of {args.runs})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
