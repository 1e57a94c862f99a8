"""PostToolUse latency of `inwards hook claude-code` with the resident daemon answering,
against one-shot runs (``INWARDS_DAEMON=0``), on the synthetic project (``generate.py``:
2,105 files), each run a fresh process of the real command fed a real payload after an edit
on disk, as Claude Code runs the hook.

Generates the project (or copies ``--synthetic DIR``), starts its daemon (``inwards daemon``,
in a private runtime directory), runs SessionStart for two sessions, then ``--edits`` times
edits a module drawn at random (``random.Random(SEED)``) as ``hook_latency.py`` does (in
turns a clean edit and an import of an outer layer, which must block with exit status 2) and
runs the PostToolUse hook for it twice, in turns with the daemon and one-shot (each kind in
its own session, so that neither's blocks escalate the other's). Every exit status is
checked, and the daemon must have answered every run meant for it. Prints the whole-process
wall time of each kind (median, p95, max), the time the daemon spent inside the run (the
session log's ``latencyMs``), and, measured in the same minutes, the start of the
interpreter alone (``python -c pass``, ``python -S -c pass``, ``python -c "import re"``:
the console script imports ``re``), so the figures can be read against what no client can
go below.

``--inwards PATH`` measures another installation's console script (``--install`` builds
one: a wheel of this tree in a fresh virtualenv, dependencies from ``--wheels DIR``, no
index; an editable install's import finder costs ~10 ms of every start by itself).

usage: python bench/daemon.py [--synthetic DIR | --modules N] [--edits N] [--inwards PATH]
                              [--install --wheels DIR] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate
from hook_latency import hook, inwards_command, outward_import, payload, summary

SEED = 11
SESSIONS = {"daemon": "bench-daemon", "one-shot": "bench-one-shot"}
REPO = Path(__file__).resolve().parents[1]


def interpreter_floor(python: str, runs: int) -> dict[str, dict[str, float]]:
    """Wall times of the interpreter starting and doing nothing (milliseconds)."""
    commands = {
        "python -c pass": [python, "-c", "pass"],
        "python -S -c pass": [python, "-S", "-c", "pass"],
        "python -c 'import re'": [python, "-c", "import re"],
    }
    found: dict[str, dict[str, float]] = {}
    for name, command in commands.items():
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(command, check=True)
            times.append((time.perf_counter() - started) * 1000)
        found[name] = summary(times)
    return found


def daemon_requests(inwards: str, project: Path, env: dict[str, str]) -> int:
    done = subprocess.run(
        [inwards, "daemon", "status", "--project", str(project)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"no daemon serves the project: {done.stdout}{done.stderr}")
    words = done.stdout.split(" hook requests answered")[0].split()
    return int(words[-1])


def run(project: Path, edits: int, inwards: str, runtime: Path) -> dict[str, object]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    base.update({"CLAUDE_PROJECT_DIR": str(project), "XDG_RUNTIME_DIR": str(runtime)})
    base.pop("CI", None)
    envs = {"daemon": {**base, "INWARDS_DAEMON": "1"}, "one-shot": {**base, "INWARDS_DAEMON": "0"}}
    started = subprocess.run(
        [inwards, "daemon", "--project", str(project), "--idle", "600"],
        env=base,
        capture_output=True,
        text=True,
        check=False,
    )
    if started.returncode != 0:
        raise SystemExit(f"the daemon did not start: {started.stdout}{started.stderr}")
    try:
        for kind, session in SESSIONS.items():
            start = payload(project, "SessionStart", source="startup")
            code, _ = hook(
                project, {**start, "session_id": session}, command=[inwards], environment=envs[kind]
            )
            assert code == 0
        return _edits(project, edits, inwards, envs, base)
    finally:
        subprocess.run(
            [inwards, "daemon", "stop", "--project", str(project)],
            env=base,
            capture_output=True,
            check=False,
        )


def _edits(
    project: Path, edits: int, inwards: str, envs: dict[str, dict[str, str]], base: dict[str, str]
) -> dict[str, object]:
    rng = random.Random(SEED)
    modules = sorted(
        path.relative_to(project).as_posix()
        for path in (project / "src").rglob("m*.py")
        if outward_import(path.relative_to(project).as_posix()) is not None
    )
    walls: dict[str, list[float]] = {"daemon": [], "one-shot": []}
    for number in range(edits):
        path = rng.choice(modules)
        file = project / path
        original = file.read_text()
        blocked = number % 2 == 1
        added = (
            outward_import(path) if blocked else f"\n\ndef added_{number}() -> int:\n    return 1\n"
        )
        assert added is not None
        file.write_text(original + added)
        kinds = ("daemon", "one-shot") if number % 4 < 2 else ("one-shot", "daemon")
        for kind in kinds:
            document = {
                **payload(
                    project,
                    "PostToolUse",
                    tool_name="Edit",
                    tool_use_id=f"toolu_{kind}_{number:05d}",
                    tool_input={"file_path": str(file), "old_string": "", "new_string": added},
                    tool_response={"filePath": str(file), "success": True},
                ),
                "session_id": SESSIONS[kind],
            }
            code, wall = hook(project, document, command=[inwards], environment=envs[kind])
            if code != (2 if blocked else 0):
                raise SystemExit(f"{kind} edit {number} of {path}: exit status {code}")
            walls[kind].append(wall)
        file.write_text(original)
    answered = daemon_requests(inwards, project, base)
    if answered != edits:
        raise SystemExit(f"the daemon answered {answered} of {edits} runs: the rest fell back")
    inside: dict[str, list[float]] = {}
    for kind, session in SESSIONS.items():
        log = project / ".inwards" / "state" / f"{session}.jsonl"
        inside[kind] = [
            float(entry["latencyMs"])
            for entry in map(json.loads, log.read_text().splitlines())
            if entry.get("event") == "PostToolUse"
        ]
    python = str(Path(inwards).resolve().parent / "python")
    return {
        "files": sum(1 for _ in (project / "src").rglob("*.py")),
        "edits": edits,
        "wallMs": {kind: summary(values) for kind, values in walls.items()},
        "insideMs": {kind: summary(values) for kind, values in inside.items()},
        "interpreterMs": interpreter_floor(python, 20),
        "loadAverage": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def install(wheels: Path, temporary: Path) -> str:
    """A wheel of this tree installed into a fresh virtualenv; its `inwards`."""
    source = temporary / "source"
    source.mkdir()
    for name in (
        "pyproject.toml",
        "README.md",
        "inwards_core",
        "inwards_cli",
        "inwards_rules_fastapi",
    ):
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    offline = ["--no-index", "--find-links", str(wheels.resolve())]
    dist = temporary / "dist"
    pip = [sys.executable, "-m", "pip", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", *offline, "-w", str(dist), "."], cwd=source, check=True
    )
    venv = temporary / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    (wheel,) = dist.glob("*.whl")
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "-q", "install", *offline, str(wheel)],
        check=True,
    )
    return str(venv / "bin" / "inwards")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--synthetic", type=Path, help="a generated project to copy")
    parser.add_argument("--edits", type=int, default=40, help="edits, each run both ways")
    parser.add_argument("--modules", type=int, default=generate.DEFAULT_MODULES, help="generated")
    parser.add_argument("--inwards", help="the console script to measure (default: beside python)")
    parser.add_argument("--install", action="store_true", help="measure a fresh wheel install")
    parser.add_argument("--wheels", type=Path, help="the dependencies' wheels, for --install")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="iwb") as temporary:
        root = Path(temporary)
        inwards = options.inwards or inwards_command()[0]
        if options.install:
            if options.wheels is None:
                parser.error("--install needs --wheels DIR (the dependencies' wheels)")
            inwards = install(options.wheels, root)
        project = root / "synthetic"
        if options.synthetic is not None:
            shutil.copytree(options.synthetic, project)
        else:
            with contextlib.redirect_stdout(sys.stderr):  # the generator's own report
                generate.main([str(project), "--modules", str(options.modules)])
        runtime = root / "run"
        runtime.mkdir(mode=0o700)
        figures = run(project, options.edits, inwards, runtime)
    figures["install"] = "wheel" if options.install else "as found"
    if options.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"synthetic project: {figures['files']} Python files, {figures['edits']} edits each way")
    for title, key in (("PostToolUse wall", "wallMs"), ("inside the run", "insideMs")):
        values = figures[key]
        assert isinstance(values, dict)
        for kind, numbers in values.items():
            print(
                f"{title}, {kind}: median {numbers['median']} ms, p95 {numbers['p95']} ms, "
                f"max {numbers['max']} ms"
            )
    floor = figures["interpreterMs"]
    assert isinstance(floor, dict)
    for name, numbers in floor.items():
        print(f"{name}: median {numbers['median']} ms, p95 {numbers['p95']} ms")
    print(f"load average (1 min) at the end: {figures['loadAverage']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
