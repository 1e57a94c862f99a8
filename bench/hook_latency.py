"""How long one-shot `inwards hook claude-code` PostToolUse runs take on the synthetic
project (``generate.py``: 2,000 modules and their packages, 2,105 files), as Claude Code
runs the hook: a fresh process per edit, the payload on standard input.

Generates the project in a temporary directory (or uses ``--synthetic DIR``, copied), runs
SessionStart once, then ``--edits`` times edits a module drawn at random
(``random.Random(SEED)``) on disk (in turns, a function appended, which stays clean, and an
import of an outer layer, which the hook must block with exit status 2; the next edit of the
series puts the file back) and runs the PostToolUse hook for it. Every exit status is
checked, so a fast wrong answer stops the script. Prints the wall time of each kind of run
(the whole process, from start to exit) and the time the hook measured inside itself (the
session log's ``latencyMs``): median, p95 and maximum, in milliseconds.

usage: python bench/hook_latency.py [--synthetic DIR] [--edits N] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate

SEED = 11
SESSION = "bench-hook-latency"


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 1),
        "p95": round(percentile(values, 0.95), 1),
        "max": round(max(values), 1),
    }


def inwards_command() -> list[str]:
    found = shutil.which("inwards", path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit("the `inwards` console script is not installed beside this python")
    return [found]


def hook(
    project: Path,
    document: dict[str, object],
    *,
    command: Sequence[str] | None = None,
    environment: dict[str, str] | None = None,
) -> tuple[int, float]:
    """Run the hook once (`command`, else the `inwards` beside this python, one-shot);
    (exit status, wall milliseconds)."""
    if environment is None:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
        environment["CLAUDE_PROJECT_DIR"] = str(project)
        environment["INWARDS_DAEMON"] = "0"  # one-shot: bench/daemon.py measures the daemon
    data = json.dumps(document).encode()
    started = time.perf_counter()
    done = subprocess.run(
        [*(command or inwards_command()), "hook", "claude-code"],
        cwd=project,
        env=environment,
        input=data,
        capture_output=True,
        check=False,
    )
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode not in (0, 2):
        raise SystemExit(f"the hook failed: {done.stderr.decode(errors='replace')[:500]}")
    return done.returncode, elapsed


def payload(project: Path, event: str, **fields: object) -> dict[str, object]:
    return {
        "session_id": SESSION,
        "transcript_path": str(project / "transcript.jsonl"),
        "cwd": str(project),
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def outward_import(path: str) -> str | None:
    layer = path.split("/")[2]
    rank = generate.LAYERS.index(layer)
    if rank == len(generate.LAYERS) - 1:
        return None
    outer = generate.LAYERS[rank + 1]
    return f"from {generate.PACKAGE}.{outer}.p0.m0 import f0 as _outward\n"


def run(project: Path, edits: int) -> dict[str, object]:
    rng = random.Random(SEED)
    modules = sorted(
        path.relative_to(project).as_posix()
        for path in (project / "src").rglob("m*.py")
        if outward_import(path.relative_to(project).as_posix()) is not None
    )
    code, start_ms = hook(project, payload(project, "SessionStart", source="startup"))
    assert code == 0
    walls: dict[str, list[float]] = {"clean edit": [], "blocked edit": []}
    for number in range(edits):
        path = rng.choice(modules)
        file = project / path
        original = file.read_text()
        blocked = number % 2 == 1
        added = (
            outward_import(path)
            if blocked
            else f"\n\ndef added_{number}() -> int:\n    return {number}\n"
        )
        assert added is not None
        file.write_text(original + added)
        document = payload(
            project,
            "PostToolUse",
            tool_name="Edit",
            tool_use_id=f"toolu_{number:05d}",
            tool_input={"file_path": str(file), "old_string": "", "new_string": added},
            tool_response={"filePath": str(file), "success": True},
        )
        code, wall = hook(project, document)
        if code != (2 if blocked else 0):
            raise SystemExit(f"edit {number} of {path}: exit status {code}, expected otherwise")
        walls["blocked edit" if blocked else "clean edit"].append(wall)
        file.write_text(original)
    log = project / ".inwards" / "state" / f"{SESSION}.jsonl"
    inside = [
        float(entry["latencyMs"])
        for entry in map(json.loads, log.read_text().splitlines())
        if entry.get("event") == "PostToolUse"
    ]
    every = [value for values in walls.values() for value in values]
    return {
        "files": sum(1 for _ in (project / "src").rglob("*.py")),
        "sessionStartMs": round(start_ms, 1),
        "postToolUseWallMs": {"all": summary(every), **{k: summary(v) for k, v in walls.items()}},
        "postToolUseInsideMs": summary(inside),
        "loadAverage": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--synthetic", type=Path, help="a generated project to copy")
    parser.add_argument("--edits", type=int, default=40, help="PostToolUse runs (default 40)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="inwards-hook-bench-") as temporary:
        project = Path(temporary) / "synthetic"
        if options.synthetic is not None:
            shutil.copytree(options.synthetic, project)
        else:
            with contextlib.redirect_stdout(sys.stderr):  # the generator's own report
                generate.main([str(project)])
        figures = run(project, options.edits)
    if options.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"synthetic project: {figures['files']} Python files; SessionStart {figures['sessionStartMs']} ms"
    )
    walls = figures["postToolUseWallMs"]
    assert isinstance(walls, dict)
    for kind, values in walls.items():
        print(
            f"PostToolUse wall, {kind}: median {values['median']} ms, p95 {values['p95']} ms, max {values['max']} ms"
        )
    inside = figures["postToolUseInsideMs"]
    assert isinstance(inside, dict)
    print(
        f"PostToolUse inside the run: median {inside['median']} ms, p95 {inside['p95']} ms, max {inside['max']} ms"
    )
    print(f"load average (1 min) at the end: {figures['loadAverage']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
