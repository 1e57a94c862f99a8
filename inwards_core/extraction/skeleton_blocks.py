"""Where an indented import statement stands: the block headers around it (`def`,
`class`, `if TYPE_CHECKING:`, `else:` ...), found by indentation alone, and how each
header is checked to be what it seems (a small text CPython's parser reads in the
skeleton's batch).

Anything not plainly understood raises `Refused`: the skeleton then gives up the file.
"""

from __future__ import annotations

import ast
import bisect
import re

from inwards_core.extraction.static import is_type_checking_test
from inwards_core.extraction.text import STRING_BODY

# Literal openings only (no groups, no classes): `re` then finds them at C speed.
_BRACKETS = re.compile(r"#[^\n]*|" + STRING_BODY + r"|\(|\[|\{|\)|\]|\}", re.S)
_OPENING = frozenset("([{")
_CLOSING = frozenset(")]}")
_INDENT = re.compile(r" *")
_HEADER = re.compile(
    r"(async +def|def|class|if|elif|else|try|except|finally|with|async +with|for"
    r"|async +for|while|match|case)\b"
)
_BARE_HEADER = re.compile(r"(?:else|try|finally) *:[ \t]*(?:#[^\n]*)?")
_MAX_HEADER_LINES = 60

_EXPECTED_NODE: dict[str, tuple[type[ast.stmt], ...]] = {
    "def": (ast.FunctionDef,),
    "async def": (ast.AsyncFunctionDef,),
    "class": (ast.ClassDef,),
    "if": (ast.If,),
    "elif": (ast.If,),
    "for": (ast.For,),
    "async for": (ast.AsyncFor,),
    "while": (ast.While,),
    "with": (ast.With,),
    "async with": (ast.AsyncWith,),
    "except": (ast.Try, ast.TryStar),
    "match": (ast.Match,),
    "case": (ast.Match,),
}


class Refused(Exception):
    """The skeleton can't vouch for this file."""


class NotPlain(Exception):
    """The text holds a column-0 binding the skeleton can't vouch for (raised by
    `top_names`; here so that the skeleton catches it without importing that module)."""


def end_of(pattern: re.Pattern[str], text: str, position: int) -> int:
    """Where `pattern` stops matching at `position` (`position` when it doesn't match)."""
    found = pattern.match(text, position)
    return found.end() if found else position


class Header:
    """One block header above an import. A slots class, not attrs: built per header and
    known by identity (the skeleton keeps one per header), no class to create on start-up."""

    __slots__ = ("end", "function", "indent", "line_start", "start", "type_checking", "word")

    def __init__(
        self,
        *,
        start: int,  # offset of the keyword
        end: int,  # offset of the end of the header's last line
        line_start: int,
        indent: int,
        word: str,
        type_checking: bool = False,
        function: bool = False,
    ) -> None:
        self.start = start
        self.end = end
        self.line_start = line_start
        self.indent = indent
        self.word = word
        self.type_checking = type_checking
        self.function = function


class Blocks:
    """Finds the block headers around a line of `text` by indentation; `strings` are the
    (start, end) offsets of the text's multi-line strings, in order, filled in by the scan
    before any question is asked."""

    def __init__(self, text: str, strings: list[tuple[int, int]]) -> None:
        self.text = text
        self.strings = strings
        self._headers: dict[tuple[int, int], Header | None] = {}
        # Per line start: the nearest line of code above with less indentation (start,
        # first character, end), or None; see `_line_above`.
        self._above: dict[int, tuple[int, int, int] | None] = {}
        self._header_at: dict[int, Header] = {}  # by the offset of its keyword

    def in_string(self, offset: int) -> bool:
        index = bisect.bisect_right(self.strings, (offset, len(self.text) + 1)) - 1
        return index >= 0 and self.strings[index][0] < offset < self.strings[index][1]

    def chain(self, line_start: int, indent: int) -> list[Header] | None:
        """The headers around the line at `line_start`, innermost first; None when the
        skeleton can't place it."""
        chain: list[Header] = []
        while indent > 0:
            header = self._enclosing(line_start, indent)
            if header is None:
                return None
            chain.append(header)
            line_start, indent = header.line_start, header.indent
        return chain

    def _enclosing(self, line_start: int, indent: int) -> Header | None:
        key = (line_start, indent)
        if key in self._headers:
            return self._headers[key]
        header = self._find_enclosing(line_start, indent)
        self._headers[key] = header
        return header

    def _find_enclosing(self, line_start: int, indent: int) -> Header | None:
        """The block header whose body holds the logical line at `line_start`: the
        nearest logical line above with a smaller indentation."""
        text = self.text
        above = self._line_above(line_start, indent)
        if above is None:
            return None
        start, first, end = above
        if start >= 2 and text[start - 2] == "\\":
            return None
        if text[first] in ")]}":
            logical = self._logical_start(start, end)
            if logical is None:
                return None
            start, first = logical
            if first - start >= indent:
                return None
        if text[end - 1 : end] == "\\":
            return None
        known = self._header_at.get(first)
        if known is not None:
            return known  # one header, however many statements its body holds
        word = _HEADER.match(text, first)
        if word is None:
            return None
        header = Header(
            start=first,
            end=end,
            line_start=start,
            indent=first - start,
            word=" ".join(word.group(1).split()),
        )
        self._header_at[first] = header
        return header

    def _line_above(self, line_start: int, indent: int) -> tuple[int, int, int] | None:
        """The nearest line of code above `line_start` indented less than `indent`: (its
        start, its first character, its end); None at the top of the file.

        Each answer is kept for the line asked about, when `indent` is that line's own.
        A line passed on the way that has such an answer is jumped over to it: the lines
        between are all indented at least as deep, so nothing there can be the answer.
        Without that, a thousand imports in one function body each walked back over all
        those before them."""
        text = self.text
        end = line_start - 1
        found: tuple[int, int, int] | None = None
        while end >= 0:
            start = text.rfind("\n", 0, end) + 1
            first = end_of(_INDENT, text, start)
            if first == end or text[first] == "#":
                end = start - 1
                continue
            if first - start >= indent:
                if start not in self._above:
                    end = start - 1
                    continue
                jump = self._above[start]
                if jump is None:
                    break
                if jump[1] - jump[0] < indent:
                    found = jump
                    break
                end = jump[2]  # look at that line next: it may have an answer too
                continue
            if self.in_string(start):
                end = start - 1
                continue
            found = (start, first, end)
            break
        if end_of(_INDENT, text, line_start) - line_start == indent:
            self._above[line_start] = found
        return found

    def _logical_start(self, start: int, end: int) -> tuple[int, int] | None:
        """Where the logical line holding the closing bracket at `start` begins."""
        text = self.text
        candidate = start
        for _ in range(_MAX_HEADER_LINES):
            if candidate == 0:
                return None
            candidate = text.rfind("\n", 0, candidate - 1) + 1
            if self.in_string(candidate):
                continue
            depth = 0
            lowest = 0
            for match in _BRACKETS.finditer(text, candidate, end):
                opening = text[match.start()]
                if opening in _OPENING:
                    depth += 1
                elif opening in _CLOSING:
                    depth -= 1
                    lowest = min(lowest, depth)
            if lowest >= 0 and depth == 0:
                if candidate >= 2 and text[candidate - 2] == "\\":
                    return None
                first = end_of(_INDENT, text, candidate)
                return candidate, first
        return None


def header_snippet(text: str, header: Header) -> str | None:
    """Text that parses as one statement iff the header is what it seems (None for
    `else:` / `try:` / `finally:`, checked by their shape alone)."""
    written = text[header.start : header.end]
    word = header.word
    if word in ("else", "try", "finally"):
        if _BARE_HEADER.fullmatch(written) is None:
            raise Refused("a header the skeleton can't classify")
        return None
    if word == "elif":
        return "if" + written[4:] + "\n pass"
    if word == "except":
        return "try:\n pass\n" + written + "\n pass"
    if word == "match":
        return written + "\n case _:\n  pass"
    if word == "case":
        return "match _:\n " + written + "\n  pass"
    return written + "\n pass"


def classify(header: Header, node: ast.stmt) -> None:
    """Marks `header` from the statement its snippet parsed into; refuses a header that
    parsed as something else."""
    if not isinstance(node, _EXPECTED_NODE[header.word]):
        raise Refused("a header that isn't what it seems")
    if isinstance(node, ast.If):
        header.type_checking = is_type_checking_test(node.test)
    header.function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
