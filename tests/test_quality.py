"""The repository holds itself to its own architecture. (mypy --strict and ruff are steps of
`.ci/run` of their own, not tests: they check the code, not what inwards does.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_inwards_checks_its_own_architecture() -> None:
    """Dogfooding: [tool.inwards] of this repository's pyproject.toml (the CLI above the
    core, the ports and model below the engine)."""
    inwards = shutil.which("inwards", path=str(BIN)) or shutil.which("inwards")
    if inwards is None:
        pytest.fail("inwards is not installed: pip install -e '.[test]'")
    done = subprocess.run(
        [inwards, "check", "--no-cache", "--format", "json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"violations":0' in done.stdout
