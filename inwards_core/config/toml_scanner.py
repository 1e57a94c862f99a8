"""The scanner behind `TomlPositions`: a small, lenient recursive-descent reader of TOML that
records where each key and array entry is, not what it holds. On anything it does not
understand it skips to the next line rather than fail."""

from __future__ import annotations

import re

from inwards_core.config.dotted_keys import BARE_RUN, Path, Segment

# Runs the scanner steps over at once (a key or a value may be megabytes long).
_SCALAR_RUN = re.compile(r"[^,\]}\n#]*")
_PLAIN_RUN = re.compile(r'[^"\\\n]*')
_BLANKS = re.compile(r"[ \t\r]*")
_BLANKS_AND_NEWLINES = re.compile(r"[ \t\r\n]*")


class _Skip(Exception):
    """The scanner met something it does not understand; resume at the next line."""


class KeyNode:
    """One key or array entry met in the text: where it was first met, and what is under
    it. Keys are kept as a tree, one node per segment: a dotted key of n parts costs n
    nodes, where a table of every prefix path cost n * n / 2 (a key of 50,000 parts
    filled 8 GB)."""

    __slots__ = ("children", "offset", "parent", "segment", "tables")

    def __init__(self, parent: KeyNode | None, segment: Segment, offset: int) -> None:
        self.parent = parent
        self.segment = segment
        self.offset = offset
        self.children: dict[Segment, KeyNode] = {}
        self.tables = 0  # `[[...]]` headers met at this key

    def child(self, segment: Segment, offset: int, order: list[KeyNode]) -> KeyNode:
        node = self.children.get(segment)
        if node is None:
            node = self.children[segment] = KeyNode(self, segment, offset)
            order.append(node)
        return node

    def path(self) -> Path:
        segments: list[Segment] = []
        node: KeyNode | None = self
        while node is not None and node.parent is not None:
            segments.append(node.segment)
            node = node.parent
        return tuple(reversed(segments))


class PositionScanner:
    """A small recursive-descent reader of TOML that reports positions, not values."""

    def __init__(self, text: str, root: KeyNode, order: list[KeyNode]) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.root = root
        self.order = order
        self.table = root
        if text.startswith("\ufeff"):
            self.i = 1

    # -- statements --------------------------------------------------------------------

    def scan(self) -> None:
        while True:
            self._skip_blank(newlines=True)
            if self.i >= self.n:
                return
            start = self.i
            try:
                if self.text.startswith("[[", self.i):
                    self._array_table_header()
                elif self.text[self.i] == "[":
                    self._table_header()
                else:
                    self._key_value(self.table)
                self._end_of_line()
            except _Skip:
                self._skip_line()
            if self.i == start:  # always move on, whatever the input
                self._skip_line()

    def _table_header(self) -> None:
        self.i += 1
        keys = self._key()
        self._skip_blank()
        self._expect("]")
        self.table = self._header_path(keys, array=False)

    def _array_table_header(self) -> None:
        header_start = self.i
        self.i += 2
        keys = self._key()
        self._skip_blank()
        self._expect("]")
        self._expect("]")
        self.table = self._header_path(keys, array=True, header_start=header_start)

    def _header_path(
        self, keys: list[tuple[str, int]], *, array: bool, header_start: int = 0
    ) -> KeyNode:
        node = self.root
        for position, (name, offset) in enumerate(keys):
            node = node.child(name, offset, self.order)
            last = position == len(keys) - 1
            if last and array:
                node.tables += 1
                node = node.child(node.tables - 1, header_start, self.order)
            elif node.tables:
                # `[a.b]` after `[[a]]` means a table inside the latest `a` entry.
                node = node.child(node.tables - 1, offset, self.order)
        return node

    def _key_value(self, table: KeyNode) -> None:
        keys = self._key()
        node = table
        for name, offset in keys:
            node = node.child(name, offset, self.order)
        self._skip_blank()
        self._expect("=")
        self._skip_blank()
        self._value(node)

    def _end_of_line(self) -> None:
        self._skip_blank()
        if self.i < self.n and self.text[self.i] != "\n":
            raise _Skip

    # -- keys --------------------------------------------------------------------------

    def _key(self) -> list[tuple[str, int]]:
        """A dotted key as (name, offset of the name) pairs."""
        keys: list[tuple[str, int]] = []
        while True:
            self._skip_blank()
            offset = self.i
            keys.append((self._simple_key(), offset))
            self._skip_blank()
            if self.i < self.n and self.text[self.i] == ".":
                self.i += 1
                continue
            return keys

    def _simple_key(self) -> str:
        if self.i >= self.n:
            raise _Skip
        ch = self.text[self.i]
        if ch == '"':
            return self._basic_string()
        if ch == "'":
            return self._literal_string()
        start = self.i
        self.i = BARE_RUN.match(self.text, start).end()  # type: ignore[union-attr]
        if self.i == start:
            raise _Skip
        return self.text[start : self.i]

    # -- values ------------------------------------------------------------------------

    def _value(self, node: KeyNode) -> None:
        if self.i >= self.n:
            raise _Skip
        ch = self.text[self.i]
        if ch == "[":
            self._array(node)
        elif ch == "{":
            self._inline_table(node)
        elif self.text.startswith('"""', self.i):
            self._multiline_string('"""')
        elif self.text.startswith("'''", self.i):
            self._multiline_string("'''")
        elif ch == '"':
            self._basic_string()
        elif ch == "'":
            self._literal_string()
        else:
            start = self.i
            end = _SCALAR_RUN.match(self.text, start).end()  # type: ignore[union-attr]
            # Trailing blanks belong to no value (dates may hold an inner space).
            self.i = start + len(self.text[start:end].rstrip(" \t\r"))
            if self.i == start:
                raise _Skip

    def _array(self, node: KeyNode) -> None:
        self.i += 1
        index = 0
        while True:
            self._skip_blank(newlines=True)
            if self.i >= self.n:
                raise _Skip
            if self.text[self.i] == "]":
                self.i += 1
                return
            self._value(node.child(index, self.i, self.order))
            self._skip_blank(newlines=True)
            if self.i < self.n and self.text[self.i] == ",":
                self.i += 1
                index += 1
            elif self.i < self.n and self.text[self.i] == "]":
                self.i += 1
                return
            else:
                raise _Skip

    def _inline_table(self, node: KeyNode) -> None:
        self.i += 1
        while True:
            # Newlines inside inline tables are TOML 1.1; accept them.
            self._skip_blank(newlines=True)
            if self.i >= self.n:
                raise _Skip
            if self.text[self.i] == "}":
                self.i += 1
                return
            self._key_value(node)
            self._skip_blank(newlines=True)
            if self.i < self.n and self.text[self.i] == ",":
                self.i += 1
            elif self.i < self.n and self.text[self.i] == "}":
                self.i += 1
                return
            else:
                raise _Skip

    # -- strings -----------------------------------------------------------------------

    def _basic_string(self) -> str:
        self.i += 1
        parts: list[str] = []
        while self.i < self.n:
            ch = self.text[self.i]
            if ch == '"':
                self.i += 1
                return "".join(parts)
            if ch == "\n":
                raise _Skip
            if ch == "\\" and self.i + 1 < self.n:
                parts.append(self._escape())
                continue
            end = _PLAIN_RUN.match(self.text, self.i).end()  # type: ignore[union-attr]
            end = max(end, self.i + 1)
            parts.append(self.text[self.i : end])
            self.i = end
        raise _Skip

    def _escape(self) -> str:
        code = self.text[self.i + 1]
        simple = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
        if code in simple:
            self.i += 2
            return simple[code]
        width = {"u": 4, "U": 8}.get(code)
        if width is not None:
            digits = self.text[self.i + 2 : self.i + 2 + width]
            self.i += 2 + width
            try:
                return chr(int(digits, 16))
            except ValueError:
                return digits
        self.i += 2
        return code

    def _literal_string(self) -> str:
        self.i += 1
        end = self.text.find("'", self.i)
        newline = self.text.find("\n", self.i)
        if end < 0 or 0 <= newline < end:
            raise _Skip
        value = self.text[self.i : end]
        self.i = end + 1
        return value

    def _multiline_string(self, quotes: str) -> None:
        self.i += 3
        while True:
            end = self.text.find(quotes, self.i)
            if end < 0:
                self.i = self.n
                raise _Skip
            if quotes == '"""' and _escaped(self.text, end):
                self.i = end + 1
                continue
            # Up to two quotes may end the content right before the closing three.
            self.i = end + 3
            while self.i < self.n and self.text[self.i] == quotes[0] and self.i < end + 5:
                self.i += 1
            return

    # -- blanks ------------------------------------------------------------------------

    def _skip_blank(self, *, newlines: bool = False) -> None:
        blanks = _BLANKS_AND_NEWLINES if newlines else _BLANKS
        while self.i < self.n:
            ch = self.text[self.i]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self.i = blanks.match(self.text, self.i).end()  # type: ignore[union-attr]
            elif ch == "#":
                newline = self.text.find("\n", self.i)
                self.i = self.n if newline < 0 else newline
            else:
                return

    def _skip_line(self) -> None:
        newline = self.text.find("\n", self.i)
        self.i = self.n if newline < 0 else newline + 1

    def _expect(self, ch: str) -> None:
        if self.i < self.n and self.text[self.i] == ch:
            self.i += 1
        else:
            raise _Skip


def _escaped(text: str, offset: int) -> bool:
    """Whether the character at `offset` follows an odd number of backslashes."""
    count = 0
    while offset - count - 1 >= 0 and text[offset - count - 1] == "\\":
        count += 1
    return count % 2 == 1
