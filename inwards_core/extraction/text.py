"""Text helpers every extractor shares: line starts, character columns, one-line statements.

Positions in facts are 1-based character columns; CPython's parser reports UTF-8 byte
offsets, libcst reports 0-based character columns. Everything converts through here.
"""

from __future__ import annotations

import bisect
import re
from typing import Protocol

from inwards_core.model.findings import Span
from inwards_core.model.quoting import ELLIPSIS, QUOTE_LIMIT, quoted

# One string literal of any kind, without its prefix letters (they are ordinary word
# characters to a scanner; only f/t prefixes matter and callers look back for them).
# Triple quotes come first so that `'''` is not read as an empty string and a quote.
STRING_BODY = (
    r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
)

# Whitespace, backslash continuations and comments between tokens, or a string literal.
_ONE_LINE = re.compile(r"(" + STRING_BODY + r")|((?:[ \t\f\n]|\\\n|#[^\n]*)+)", re.S)
# A blank or a character `one_line` would change: two blanks, a blank inside brackets or
# at either end; tabs, newlines, form feeds, backslashes, comments. Each branch starts
# with a literal, so `re` skips ahead to the next blank or such character instead of
# trying every branch at every position (about twice as fast on import statements).
_NEEDS_TIDYING = re.compile(r" (?:(?<=[(\[{ ] )|(?= |[)\]}]|$)|(?<=^ ))|[\t\n\f\\#]")
_STATEMENT_WINDOW = 4 * QUOTE_LIMIT
_OPENERS = "([{"
_CLOSERS = ")]}"

# A name as it stands in source: up to whitespace or punctuation an import can hold.
_NAME_TEXT = re.compile(r"[^\s.,()\\#;*]+")
# A dotted name as it stands in source: `a.b`, `a . b`, `a.\<newline>b`.
_DOTTED_TEXT = re.compile(
    r"[^\s.,()\\#;*]+(?:(?:[ \t\f]|\\\n)*\.(?:[ \t\f]|\\\n)*[^\s.,()\\#;*]+)*"
)


def normalise_newlines(text: str) -> str:
    """Python counts `\\r\\n`, `\\r` and `\\n` as line breaks, and nothing else."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def count_lines(text: str) -> int:
    """Lines as Python counts them, on text whose line breaks are already `\\n`."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def one_line(source: str) -> str:
    """`source` as one line: comments and continuations dropped, whitespace runs collapsed
    to one space (none just inside brackets), string literals kept as written."""

    if not _NEEDS_TIDYING.search(source):
        return source

    def replace(match: re.Match[str]) -> str:
        literal = match.group(1)
        if literal is not None:
            return literal
        start, end = match.span()
        if start == 0 or end == len(source):
            return ""
        if source[start - 1] in _OPENERS or source[end] in _CLOSERS:
            return ""
        return " "

    return _ONE_LINE.sub(replace, source)


def statement_text(text: str, start: int, end: int) -> str:
    """The source from `start` to `end` as one line (`one_line`), cut to what a message may
    quote (`quoted`): every fact's `statement`. A long piece is tidied from a window at
    each end only: dynamic imports nested in one another each quote all of it, and
    tidying all of each copied the text once per level."""
    if end - start <= 2 * _STATEMENT_WINDOW:
        shown = one_line(text[start:end])
        return shown if len(shown) <= QUOTE_LIMIT else quoted(shown)
    head = one_line(text[start : start + _STATEMENT_WINDOW])
    tail = one_line(text[end - _STATEMENT_WINDOW : end])
    return quoted(head + ELLIPSIS + tail)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


class LineColumns:
    """0-based character columns of UTF-8 byte offsets into one line (a partly cut
    character counts as one): one pass over the line, then a binary search per offset. A statement
    may name thousands of modules on one long line; converting each offset from the
    start of the line again was quadratic."""

    def __init__(self, line_text: str) -> None:
        self._length = len(line_text)
        self._ascii = line_text.isascii()  # O(1): CPython knows it
        # Per non-ASCII character: the byte offset where it starts, its UTF-8 length, and
        # the continuation bytes of all non-ASCII characters before it.
        self._starts: list[int] = []
        self._widths: list[int] = []
        self._extra: list[int] = [0]
        if self._ascii:
            return
        extra = 0
        for match in _NON_ASCII.finditer(line_text):
            width = len(match.group().encode("utf-8", "surrogatepass"))
            self._starts.append(match.start() + extra)
            self._widths.append(width)
            extra += width - 1
            self._extra.append(extra)
        self._bytes = self._length + extra

    def column(self, byte_offset: int) -> int:
        if self._ascii:
            return byte_offset
        if byte_offset >= self._bytes:
            return self._length
        before = bisect.bisect_left(self._starts, byte_offset)  # characters starting before
        extra = self._extra[before]
        if before:
            start, width = self._starts[before - 1], self._widths[before - 1]
            if byte_offset < start + width:  # inside a character: it counts, as one
                extra -= start + width - byte_offset
        return byte_offset - extra


class ForwardPositions:
    """1-based line and column of offsets into `text`, asked for in increasing order:
    line breaks are counted from the previous offset on, so placing every name of a long
    statement costs one pass over it. `line` and `column` are the position of offset 0."""

    def __init__(self, text: str, line: int = 1, column: int = 1) -> None:
        self._text = text
        self._first_line = line
        self._first_column = column
        self._counted = 0
        self._breaks = 0
        self._last_break = -1

    def position(self, offset: int) -> tuple[int, int]:
        if offset < self._counted:  # out of order: count again from the start
            self._counted, self._breaks, self._last_break = 0, 0, -1
        found = self._text.count("\n", self._counted, offset)
        if found:
            self._breaks += found
            self._last_break = self._text.rfind("\n", self._counted, offset)
        self._counted = offset
        if not self._breaks:
            return self._first_line, self._first_column + offset
        return self._first_line + self._breaks, offset - self._last_break


class SourceLines:
    """Line starts of a text whose line breaks are `\\n`, for offset <-> position."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        find = text.find
        position = find("\n")
        while position >= 0:
            starts.append(position + 1)
            position = find("\n", position + 1)
        self.starts = starts

    def line_text(self, line: int) -> str:
        """The text of 1-based `line`, without its line break ("" past the end)."""
        if line < 1 or line > len(self.starts):
            return ""
        start = self.starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def offset(self, line: int, column: int) -> int:
        """Offset of a 1-based line and 0-based character column."""
        return self.starts[line - 1] + column

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and 1-based character column of `offset`."""
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column)


def span_between(text: str, start: int, end: int, line: int, column: int) -> Span:
    """The span from `start` to `end` (offsets), given the 1-based position of `start`."""
    piece = text[start:end]
    breaks = piece.count("\n")
    if not breaks:
        return Span(line, column, line, column + len(piece))
    return Span(line, column, line + breaks, len(piece) - piece.rfind("\n"))


def name_end(text: str, start: int) -> int:
    """End offset of the single name written at `start`."""
    match = _NAME_TEXT.match(text, start)
    return match.end() if match else start


def dotted_end(text: str, start: int) -> int:
    """End offset of the dotted name written at `start` (`a.b`, `a . b`)."""
    match = _DOTTED_TEXT.match(text, start)
    return match.end() if match else start


class _Positioned(Protocol):
    @property
    def span(self) -> Span: ...


def by_position(fact: _Positioned) -> tuple[int, int]:
    """Sort key: where a fact starts (cheaper than comparing Span values)."""
    return fact.span.line, fact.span.column
