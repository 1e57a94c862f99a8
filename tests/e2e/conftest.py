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
        # The committed project rules come along; a cache left by a manual run does not.
        shutil.copytree(EXAMPLES / name, target, ignore=shutil.ignore_patterns("cache"))
        return target

    return copy
