"""bench/daemon.py end to end on a tiny generated project: a real daemon answers every run
meant for it (the script stops otherwise), one-shot runs answer the rest, and the figures
come out for both; the daemon is stopped at the end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_the_daemon_bench_runs_on_a_tiny_project(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "daemon.py"), "--modules", "8", "--edits", "4", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    assert figures["edits"] == 4
    assert set(figures["wallMs"]) == {"daemon", "one-shot"}
    assert set(figures["insideMs"]) == {"daemon", "one-shot"}
    for numbers in figures["wallMs"].values():
        assert 0 < numbers["median"] <= numbers["p95"] <= numbers["max"]
    assert set(figures["interpreterMs"]) == {
        "python -c pass",
        "python -S -c pass",
        "python -c 'import re'",
    }
