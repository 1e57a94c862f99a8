"""The repository holds itself to its own bar: mypy --strict, ruff, and its own architecture."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False
    )


def test_mypy_strict() -> None:
    done = _run(_tool("mypy"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_check() -> None:
    done = _run(_tool("ruff"), "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format() -> None:
    done = _run(_tool("ruff"), "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_inwards_checks_its_own_architecture() -> None:
    """Dogfooding: [tool.inwards] of this repository's pyproject.toml (the CLI above the
    core, the ports and model below the engine)."""
    done = _run(_tool("inwards"), "check", "--no-cache", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"violations":0' in done.stdout
