"""`run_inwards` calls inwards' main in-process (tests/e2e/helpers.py): what it returns is
what the installed console script gives in a subprocess, status and both streams alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.helpers import REAL_PROCESS, Run, run_inwards

COMMANDS = [
    ("check", "--no-cache"),  # the fast path, ended by os._exit
    ("check", "--no-cache", "--format", "json"),
    ("check", "--no-cache", "--select", "INW999"),  # a usage error: typer's, exit 2
    ("rules",),
    ("status",),
    ("explain", "INW001"),
    ("--version",),
    ("no-such-command",),
]


def _without_durations(run: Run) -> Run:
    def masked(text: str) -> str:
        text = re.sub(r'"durationMs":[\d.]+', '"durationMs":0', text)
        return re.sub(r"\d+(\.\d+)? ?m?s\b", "<duration>", text)

    return Run(run.code, masked(run.stdout), masked(run.stderr))


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_an_in_process_run_is_the_console_script_run(copy_example, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    token = REAL_PROCESS.set(True)
    try:
        real = run_inwards(*args, cwd=project)
    finally:
        REAL_PROCESS.reset(token)
    token = REAL_PROCESS.set(False)
    try:
        in_process = run_inwards(*args, cwd=project)
    finally:
        REAL_PROCESS.reset(token)
    assert _without_durations(in_process) == _without_durations(real)
    assert real.stdout or real.stderr  # each command says something
