"""bench/lsp.py end to end on a tiny generated project: a real client drives the real
`inwards server` over stdio through a first pass, saves and keystrokes (the script checks
every answer and stops otherwise), and the figures come out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_the_lsp_bench_runs_on_a_tiny_project(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "lsp.py"),
            "--modules",
            "8",
            "--saves",
            "2",
            "--keystrokes",
            "4",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    assert figures["saves"] == 2 and figures["keystrokes"] == 4
    assert figures["firstPassMs"] > 0
    for key in ("saveMs", "keystrokeMs"):
        numbers = figures[key]
        assert 0 < numbers["median"] <= numbers["p95"] <= numbers["max"]
