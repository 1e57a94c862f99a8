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
import functools
import re

Segment = str | int
Path = tuple[Segment, ...]

_BARE_KEY_TEXT = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
# Runs the scanner steps over at once (a key or a value may be megabytes long).
_BARE_RUN = re.compile(r"[A-Za-z0-9_-]*")
_SEGMENT_RUN = re.compile(r"[^.\[]*")
_SCALAR_RUN = re.compile(r"[^,\]}\n#]*")
_PLAIN_RUN = re.compile(r'[^"\\\n]*')
_BLANKS = re.compile(r"[ \t\r]*")
_BLANKS_AND_NEWLINES = re.compile(r"[ \t\r\n]*")
_ERROR_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_ERROR_AT_END = re.compile(r"\(at end of document\)")


class _Skip(Exception):
    """The scanner met something it does not understand; resume at the next line."""


class _Node:
    """One key or array entry met in the text: where it was first met, and what is under
    it. Keys are kept as a tree, one node per segment: a dotted key of n parts costs n
    nodes, where a table of every prefix path cost n * n / 2 (a key of 50,000 parts
    filled 8 GB)."""

    __slots__ = ("children", "offset", "parent", "segment", "tables")

    def __init__(self, parent: _Node | None, segment: Segment, offset: int) -> None:
        self.parent = parent
        self.segment = segment
        self.offset = offset
        self.children: dict[Segment, _Node] = {}
        self.tables = 0  # `[[...]]` headers met at this key

    def child(self, segment: Segment, offset: int, order: list[_Node]) -> _Node:
        node = self.children.get(segment)
        if node is None:
            node = self.children[segment] = _Node(self, segment, offset)
            order.append(node)
        return node

    def path(self) -> Path:
        segments: list[Segment] = []
        node: _Node | None = self
        while node is not None and node.parent is not None:
            segments.append(node.segment)
            node = node.parent
        return tuple(reversed(segments))


class TomlPositions:
    """Positions of every key, table header and array entry of one TOML text."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._root = _Node(None, "", 0)
        self._order: list[_Node] = []
        starts = [0]
        position = text.find("\n")
        while position >= 0:
            starts.append(position + 1)
            position = text.find("\n", position + 1)
        self._line_starts = starts
        _Scanner(text, self._root, self._order).scan()

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
        node: _Node | None = self._root
        for segment in parse_dotted_key(key):
            node = node.children.get(segment) if node is not None else None
        return node is not None and node is not self._root

    def keys(self) -> tuple[str, ...]:
        """Every dotted key and array entry found, in the order the scan met them."""
        return tuple(render_key(node.path()) for node in self._order)

    def end_of_document(self) -> tuple[int, int]:
        return self._line_column(len(self._text))

    def of_decode_error(self, error: Exception | str) -> tuple[int, int] | None:
        """Where tomllib says a `TOMLDecodeError` happened in this text."""
        return decode_error_position(error, self._text)

    def _line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1


# TOML text outside keys, for finding dotted keys before any parser sees the text:
# strings (multi-line ones first) and comments are skipped whole, possessively.
_ML_BASIC = r'"""(?:[^"\\]++|\\.|"(?!""))*+"{3,5}'
_ML_LITERAL = r"'''(?:[^']++|'(?!''))*+'{3,5}"
_BASIC = r'"(?:[^"\\\n]++|\\.)*+"'
_LITERAL = r"'[^'\n]*+'"
_DOT_PART = r"[ \t]*+\.[ \t]*+(?:[A-Za-z0-9_-]++|" + _BASIC + "|" + _LITERAL + ")"


@functools.cache
def _overlong_key_pattern(limit: int) -> re.Pattern[str]:
    """Matches up to the first dot of the first dotted key of more than `limit` parts:
    everything before it is consumed once (each dotted run as a whole, after looking at
    most `limit` parts ahead), so the search is linear in the text."""
    long_run = "(?:" + _DOT_PART + "){" + str(limit) + "}"
    skipped = (
        "(?:" + "|".join((_ML_BASIC, _ML_LITERAL, _BASIC, _LITERAL)) + r"|#[^\n]*+"
        r"|[^\"'#.]++|(?!" + long_run + ")(?:" + _DOT_PART + r")++|(?!" + long_run + r")\."
        r"|[\"']"
        ")*+"
    )
    return re.compile(skipped + "(?=" + long_run + ")", re.S)


_RUN_PART = re.compile(_DOT_PART, re.S)


def overlong_dotted_key(text: str, limit: int) -> tuple[int, int, int, str] | None:
    """The first dotted key (or table header) of more than `limit` parts, as its line,
    column, number of parts and text; None when there is none. Meant for text no parser
    has read yet (tomllib takes time quadratic in a dotted key's parts), so it reads no
    more of TOML than strings, comments and dots."""
    if text.count(".") < limit:
        return None  # too few dots anywhere (the usual case: no pattern to compile)
    found = _overlong_key_pattern(limit).match(text)
    if found is None:
        return None
    dot = found.end()
    line_start = text.rfind("\n", 0, dot) + 1
    start = dot
    while start > line_start and text[start - 1] in " \t":
        start -= 1
    if start > line_start and text[start - 1] in "\"'":
        start = max(text.rfind(text[start - 1], line_start, start - 1), line_start)
    else:
        before = text[line_start:start]
        start -= len(before) - len(before.rstrip(_BARE_KEY_TEXT))
    parts = 1
    end = dot
    for part in _RUN_PART.finditer(text, dot):
        if part.start() != end:
            break
        parts += 1
        end = part.end()
    line = text.count("\n", 0, start) + 1
    return line, start - line_start + 1, parts, text[start:end]


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
            i = _SEGMENT_RUN.match(key, i).end()  # type: ignore[union-attr]
            segments.append(key[start:i])
    return tuple(segments)


def key_segment(name: str) -> str:
    """`name` as one segment of a dotted key: bare when TOML allows it, else quoted."""
    if _BARE_RUN.fullmatch(name) and name:
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

    def __init__(self, text: str, root: _Node, order: list[_Node]) -> None:
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
    ) -> _Node:
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

    def _key_value(self, table: _Node) -> None:
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
        self.i = _BARE_RUN.match(self.text, start).end()  # type: ignore[union-attr]
        if self.i == start:
            raise _Skip
        return self.text[start : self.i]

    # -- values ------------------------------------------------------------------------

    def _value(self, node: _Node) -> None:
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

    def _array(self, node: _Node) -> None:
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

    def _inline_table(self, node: _Node) -> None:
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


def render_key(path: Path) -> str:
    """("a", "b.c", 2) -> `a."b.c"[2]`: the inverse of `parse_dotted_key`."""
    out = ""
    for segment in path:
        if isinstance(segment, int):
            out += f"[{segment}]"
        else:
            out += ("." if out else "") + key_segment(segment)
    return out
