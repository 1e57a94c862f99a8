from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus: needs the third-party code under /work/corpora (or $INWARDS_CORPORA)"
    )


@pytest.fixture
def corpora() -> Path:
    """Where the third-party corpora are unpacked; the test is skipped without them."""
    root = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
    if not root.is_dir():
        pytest.skip(f"no corpora at {root}")
    return root
