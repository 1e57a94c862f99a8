"""Fixtures of the end-to-end tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.helpers import EXAMPLES


@pytest.fixture
def copy_example(tmp_path: Path):  # type: ignore[no-untyped-def]
    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(EXAMPLES / name, target, ignore=shutil.ignore_patterns(".inwards"))
        return target

    return copy
