"""forget_working_directory takes a checked project off sys.path, never inwards' own
source checkout (running `python -m inwards_cli` from one without installing it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from inwards_cli.adapters.python_path import forget_working_directory

CHECKOUT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _restore_sys_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))


def test_a_project_directory_leaves_sys_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sys.path[:0] = ["", str(tmp_path), os.curdir]
    forget_working_directory()
    assert "" not in sys.path and str(tmp_path) not in sys.path and os.curdir not in sys.path


def test_inwards_own_checkout_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CHECKOUT)
    sys.path.insert(0, str(CHECKOUT))
    forget_working_directory()
    assert str(CHECKOUT) in sys.path
