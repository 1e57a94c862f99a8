"""Where each key and array entry of a TOML document stands, for messages.

`TomlPositions` scans the text once (no TOML library: the core stays free of tomlkit,
and tomllib forgets positions) and answers `locate("tool.inwards.layers[2].modules[0]")`
with the 1-based line and column of that key, or of that array entry's value. A key that
is not in the text falls back to the nearest enclosing key that is.

The scanner is lenient: it is meant for documents tomllib has accepted, and on anything
it does not understand it skips to the next line rather than fail.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

Segment = str | int
Path = tuple[Segment, ...]
_Recorder = Callable[[Path, int], None]

_BARE_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SCALAR_STOP = frozenset(",]}\n#")
_ERROR_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_ERROR_AT_END = re.compile(r"\(at end of document\)")


class _Skip(Exception):
    """The scanner met something it does not understand; resume at the next line."""


class TomlPositions:
    """Positions of every key, table header and array entry of one TOML text."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._positions: dict[Path, tuple[int, int]] = {}
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        _Scanner(text, self._record).scan()

    def locate(self, key: str) -> tuple[int, int] | None:
        """Line and column of `key` (dotted, with `[n]` indices), or of the nearest
        enclosing key found in the text; None when nothing of it is."""
        path = parse_dotted_key(key)
        while path:
            found = self._positions.get(path)
            if found is not None:
                return found
            path = path[:-1]
        return None

    def has(self, key: str) -> bool:
        """Whether `key` itself (not an enclosing key) is in the text."""
        return parse_dotted_key(key) in self._positions

    def keys(self) -> tuple[str, ...]:
        """Every dotted key and array entry found, in the order the scan met them."""
        return tuple(render_key(path) for path in self._positions)

    def end_of_document(self) -> tuple[int, int]:
        return self._line_column(len(self._text))

    def of_decode_error(self, error: Exception | str) -> tuple[int, int] | None:
        """Where tomllib says a `TOMLDecodeError` happened in this text."""
        return decode_error_position(error, self._text)

    def _record(self, path: Path, offset: int) -> None:
        if path not in self._positions:
            self._positions[path] = self._line_column(offset)

    def _line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1


def parse_dotted_key(key: str) -> Path:
    """`a."b.c"[2][0].d` -> ("a", "b.c", 2, 0, "d"). Lenient: odd text gives odd segments."""
    segments: list[Segment] = []
    i, n = 0, len(key)
    while i < n:
        ch = key[i]
        if ch == ".":
            i += 1
        elif ch == "[":
            end = key.find("]", i)
            end = n if end < 0 else end
            inner = key[i + 1 : end].strip()
            segments.append(int(inner) if inner.isdigit() else inner)
            i = end + 1
        elif ch in "\"'":
            i += 1
            chars: list[str] = []
            while i < n and key[i] != ch:
                if ch == '"' and key[i] == "\\" and i + 1 < n:
                    i += 1
                chars.append(key[i])
                i += 1
            segments.append("".join(chars))
            i += 1
        else:
            start = i
            while i < n and key[i] not in ".[":
                i += 1
            segments.append(key[start:i])
    return tuple(segments)


def key_segment(name: str) -> str:
    """`name` as one segment of a dotted key: bare when TOML allows it, else quoted."""
    if name and all(ch in _BARE_KEY_CHARS for ch in name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


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


class _Scanner:
    """A small recursive-descent reader of TOML that reports positions, not values."""

    def __init__(self, text: str, record: _Recorder) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.record = record
        self.table: Path = ()
        # Number of `[[...]]` headers seen per array-of-tables path.
        self.array_tables: dict[Path, int] = {}
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
    ) -> Path:
        path: Path = ()
        for position, (name, offset) in enumerate(keys):
            path = (*path, name)
            self.record(path, offset)
            last = position == len(keys) - 1
            if last and array:
                index = self.array_tables.get(path, 0)
                self.array_tables[path] = index + 1
                path = (*path, index)
                self.record(path, header_start)
            elif path in self.array_tables:
                # `[a.b]` after `[[a]]` means a table inside the latest `a` entry.
                path = (*path, self.array_tables[path] - 1)
        return path

    def _key_value(self, table: Path) -> None:
        keys = self._key()
        path = table
        for name, offset in keys:
            path = (*path, name)
            self.record(path, offset)
        self._skip_blank()
        self._expect("=")
        self._skip_blank()
        self._value(path)

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
        while self.i < self.n and self.text[self.i] in _BARE_KEY_CHARS:
            self.i += 1
        if self.i == start:
            raise _Skip
        return self.text[start : self.i]

    # -- values ------------------------------------------------------------------------

    def _value(self, path: Path) -> None:
        if self.i >= self.n:
            raise _Skip
        ch = self.text[self.i]
        if ch == "[":
            self._array(path)
        elif ch == "{":
            self._inline_table(path)
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
            while self.i < self.n and self.text[self.i] not in _SCALAR_STOP:
                self.i += 1
            # Trailing blanks belong to no value (dates may hold an inner space).
            while self.i > start and self.text[self.i - 1] in " \t\r":
                self.i -= 1
            if self.i == start:
                raise _Skip

    def _array(self, path: Path) -> None:
        self.i += 1
        index = 0
        while True:
            self._skip_blank(newlines=True)
            if self.i >= self.n:
                raise _Skip
            if self.text[self.i] == "]":
                self.i += 1
                return
            self.record((*path, index), self.i)
            self._value((*path, index))
            self._skip_blank(newlines=True)
            if self.i < self.n and self.text[self.i] == ",":
                self.i += 1
                index += 1
            elif self.i < self.n and self.text[self.i] == "]":
                self.i += 1
                return
            else:
                raise _Skip

    def _inline_table(self, path: Path) -> None:
        self.i += 1
        while True:
            # Newlines inside inline tables are TOML 1.1; accept them.
            self._skip_blank(newlines=True)
            if self.i >= self.n:
                raise _Skip
            if self.text[self.i] == "}":
                self.i += 1
                return
            self._key_value(path)
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
            parts.append(ch)
            self.i += 1
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
        while self.i < self.n:
            ch = self.text[self.i]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self.i += 1
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


def render_key(path: Path) -> str:
    """("a", "b.c", 2) -> `a."b.c"[2]`: the inverse of `parse_dotted_key`."""
    out = ""
    for segment in path:
        if isinstance(segment, int):
            out += f"[{segment}]"
        else:
            out += ("." if out else "") + key_segment(segment)
    return out
