"""Where each key and array entry of a TOML document stands, for messages.

`TomlPositions` scans the text once (no TOML library: the core stays free of tomlkit,
and tomllib forgets positions) and answers `locate("tool.inwards.layers[2].modules[0]")`
with the 1-based line and column of that key, or of that array entry's value. A key that
is not in the text falls back to the nearest enclosing key that is.

The scanner (`toml_scanner.py`) is lenient: it is meant for documents tomllib has
accepted. Where tomllib refused a document, `decode_error_position` and `caret_excerpt`
say where.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from inwards_core.config.dotted_keys import parse_dotted_key, render_key

if TYPE_CHECKING:
    from inwards_core.config.toml_scanner import KeyNode

_ERROR_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_ERROR_AT_END = re.compile(r"\(at end of document\)")


class TomlPositions:
    """Positions of every key, table header and array entry of one TOML text."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._scanned: tuple[KeyNode, list[KeyNode], list[int]] | None = None

    def _scan(self) -> tuple[KeyNode, list[KeyNode], list[int]]:
        # On the first question only: a valid configuration is mostly never asked where a
        # key is, so a run neither scans the text nor imports the scanner.
        if self._scanned is None:
            from inwards_core.config.toml_scanner import KeyNode, PositionScanner

            text = self._text
            root = KeyNode(None, "", 0)
            order: list[KeyNode] = []
            starts = [0]
            position = text.find("\n")
            while position >= 0:
                starts.append(position + 1)
                position = text.find("\n", position + 1)
            PositionScanner(text, root, order).scan()
            self._scanned = (root, order, starts)
        return self._scanned

    @property
    def _root(self) -> KeyNode:
        return self._scan()[0]

    @property
    def _order(self) -> list[KeyNode]:
        return self._scan()[1]

    @property
    def _line_starts(self) -> list[int]:
        return self._scan()[2]

    def locate(self, key: str) -> tuple[int, int] | None:
        """Line and column of `key` (dotted, with `[n]` indices), or of the nearest
        enclosing key found in the text; None when nothing of it is."""
        node = self._root
        for segment in parse_dotted_key(key):
            inner = node.children.get(segment)
            if inner is None:
                break
            node = inner
        return None if node is self._root else self._line_column(node.offset)

    def has(self, key: str) -> bool:
        """Whether `key` itself (not an enclosing key) is in the text."""
        node: KeyNode | None = self._root
        for segment in parse_dotted_key(key):
            node = node.children.get(segment) if node is not None else None
        return node is not None and node is not self._root

    def keys(self) -> tuple[str, ...]:
        """Every dotted key and array entry found, in the order the scan met them."""
        return tuple(render_key(node.path()) for node in self._order)

    def _line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1


def decode_error_position(error: Exception | str, text: str) -> tuple[int, int] | None:
    """Line and column of a `tomllib.TOMLDecodeError` (3.14 has attributes; older
    versions only say "(at line X, column Y)" or "(at end of document)")."""
    line = getattr(error, "lineno", None)
    column = getattr(error, "colno", None)
    if isinstance(line, int) and isinstance(column, int):
        return line, column
    message = str(error)
    found = _ERROR_AT.search(message)
    if found:
        return int(found.group(1)), int(found.group(2))
    if _ERROR_AT_END.search(message):
        lines = text.split("\n")
        return len(lines), len(lines[-1]) + 1
    return None


def decode_error_reason(error: Exception | str) -> str:
    """The decode error's message without its "(at line X, column Y)" part."""
    message = getattr(error, "msg", None)
    if not isinstance(message, str):
        message = _ERROR_AT_END.sub("", _ERROR_AT.sub("", str(error))).strip()
    return message


def caret_excerpt(text: str, line: int, column: int) -> str:
    """The source line and a caret under `column`, indented, for error messages."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    source = lines[line - 1].rstrip("\r").expandtabs(1)
    return f"    {source}\n    {' ' * max(column - 1, 0)}^"
