"""The hostile-input suite: every case runs the installed CLI under a time and memory
budget (see `harness.py`)."""

from __future__ import annotations

import sys

import pytest

if sys.platform == "win32":  # resource limits are POSIX
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(autouse=True)
def _posix_only() -> None:
    if sys.platform == "win32":
        pytest.skip("resource limits are POSIX")
