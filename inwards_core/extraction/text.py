"""Text helpers every extractor shares: line starts, character columns, one-line statements.

Positions in facts are 1-based character columns; CPython's parser reports UTF-8 byte
offsets, libcst reports 0-based character columns. Everything converts through here.
"""

from __future__ import annotations

import bisect
import re
from typing import Protocol

from inwards_core.model import Span

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
_NEEDS_TIDYING = re.compile(r"[\t\n\f\\#]|  |[(\[{] | [)\]}]|^ | $")
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


def char_column(line_text: str, byte_offset: int) -> int:
    """0-based character column of a UTF-8 byte offset into `line_text`."""
    if line_text.isascii():
        return byte_offset
    return len(line_text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))


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

    def offset_of_ast(self, line: int, byte_offset: int) -> int:
        """Offset of a position as CPython's parser gives it (1-based line, UTF-8 bytes)."""
        return self.starts[line - 1] + char_column(self.line_text(line), byte_offset)

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
