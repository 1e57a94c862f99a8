"""Parsing TOML that may nest without end.

tomllib parses arrays and inline tables recursively: a few hundred `[` in a row raise
`RecursionError` (about 330 inline tables, 500 arrays), and a document just under that
would reach code further on that walks values recursively. `load_toml` refuses both with
one error and one limit, the same for the configuration and for rule definitions.
"""

from __future__ import annotations

import tomllib
from typing import Any

from inwards_core.config.dotted_keys import overlong_dotted_key
from inwards_core.model.quoting import quoted

__all__ = ["MAX_TOML_NESTING", "TomlTooDeepError", "load_toml"]

MAX_TOML_NESTING = 100
"""How many arrays and tables may sit inside one another, the top-level table counting as
the first. Real configuration stays under ten."""


class TomlTooDeepError(ValueError):
    """The document nests arrays or tables deeper than `MAX_TOML_NESTING`; `line` and
    `column` say where when one dotted key is that deep on its own."""

    def __init__(
        self, message: str | None = None, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(
            message
            or f"nests arrays or tables more than {MAX_TOML_NESTING} levels deep, "
            "which inwards does not read"
        )
        self.line = line
        self.column = column


def load_toml(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`, or `TomlTooDeepError` when it nests too deeply (tomllib's
    own `TOMLDecodeError` passes through)."""
    # Each part of a dotted key is a table level, and tomllib takes time quadratic in the
    # parts of one key (50,000 parts: minutes): such a key is refused before parsing.
    overlong = overlong_dotted_key(text, MAX_TOML_NESTING)
    if overlong is not None:
        line, column, parts, key = overlong
        raise TomlTooDeepError(
            f"has a dotted key of {parts} parts ({quoted(key)}): each part is a table, and "
            f"inwards reads tables at most {MAX_TOML_NESTING} levels deep",
            line,
            column,
        )
    try:
        document = tomllib.loads(text)
    except RecursionError:
        raise TomlTooDeepError from None
    if _deeper_than(document, MAX_TOML_NESTING):
        raise TomlTooDeepError
    return document


def _deeper_than(document: dict[str, Any], limit: int) -> bool:
    """Whether arrays and tables nest more than `limit` levels (iteratively: the point is
    not to recurse)."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False
