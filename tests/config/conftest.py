from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus: needs the third-party corpora (/work/corpora or $INWARDS_CORPORA)"
    )
