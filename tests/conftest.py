"""Suite-wide settings.

Tests marked `corpus` read third-party code (Django, sympy, ...) fetched with
`../shared/bench/get-corpora.sh DIR`; they take minutes, so they run only when asked:
`INWARDS_CORPORA=DIR python -m pytest -m corpus`.
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus: reads the third-party corpora named by INWARDS_CORPORA (slow)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("INWARDS_CORPORA"):
        return
    skip = pytest.mark.skip(reason="corpus test: set INWARDS_CORPORA to the corpora folder")
    for item in items:
        if "corpus" in item.keywords:
            item.add_marker(skip)
