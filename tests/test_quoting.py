"""`quoted`: what a message may quote, cut the same way every time."""

from __future__ import annotations

import pytest

from inwards_core.model.quoting import ELLIPSIS, QUOTE_LIMIT, quoted


def test_short_text_is_kept_whole() -> None:
    assert quoted("shop.domain") == "shop.domain"
    assert quoted("x" * QUOTE_LIMIT) == "x" * QUOTE_LIMIT


def test_long_text_keeps_its_start_and_end() -> None:
    text = "from shop.adapters import " + ", ".join(f"n{i}" for i in range(20_000))
    shown = quoted(text)
    assert len(shown) == QUOTE_LIMIT
    start, end = shown.split(ELLIPSIS)
    assert text.startswith(start) and text.endswith(end)
    assert len(start) > len(end) > 0
    assert quoted(text) == shown  # deterministic


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 10, 600])
def test_never_longer_than_the_limit(limit: int) -> None:
    assert len(quoted("y" * 1000, limit)) == limit
