"""The skeleton's one pass over a text: every `import` keyword and every string literal
that spans lines, then the import statements those keywords start, each delimited in the
text and placed in its blocks (`skeleton_blocks`).

`strict` is the fast path: anything not plainly understood raises `Refused`. Otherwise
(recovery of a file that does not parse) such a statement is skipped or left unplaced.
"""

from __future__ import annotations

import re

from inwards_core.extraction.skeleton_blocks import Blocks, Header, Refused, end_of
from inwards_core.extraction.static import MODULE_LEVEL, ImportContext
from inwards_core.extraction.text import STRING_BODY

# One match per thing the skeleton must look at: a run of uninteresting text (code,
# comments, one-line strings without an f/t prefix) is consumed inside `re`, possessively
# (no backtracking), and the match ends on an `import` keyword, a string literal that may
# span lines or hold replacement fields, a quote that opens no string, or the end.
_PLAIN_SINGLE = r"'(?!'')[^'\\\n]*+(?:\\[^\n][^'\\\n]*+)*+'"
_PLAIN_DOUBLE = r'"(?!"")[^"\\\n]*+(?:\\[^\n][^"\\\n]*+)*+"'
_UNINTERESTING = (
    r"(?:[^#'\"i]++|#[^\n]*+|i(?!mport\b)|(?<![fFtT])(?<![fFtT][rRbB])(?:"
    + _PLAIN_SINGLE
    + "|"
    + _PLAIN_DOUBLE
    + "))*+"
)
_SCAN = re.compile(_UNINTERESTING + r"(?:(import\b)|(" + STRING_BODY + r")|(['\"])|\Z)", re.S)
_PREFIX_LETTERS = frozenset("rRbBuUfFtT")
_FORMATTED_PREFIX = frozenset("fFtT")

_IMPORT_HEAD = re.compile(r"( *)(?:(lazy) +)?")
_FROM_HEAD = re.compile(r"( *)(?:(lazy) +)?from(?=[ .])[ .\w]*")
_TAIL = re.compile(r"[^\n\\;#()'\"]*")
_CONTINUED_TAIL = re.compile(r"(?:[^\n\\;#()'\"]|\\\n)*")
# Possessive: a comment could otherwise end at any of its characters, and an unclosed
# `(` followed by a few comment lines backtracked exponentially (8 lines: 30 s).
_PARENTHESIZED = re.compile(r"\((?:[^()#'\"\\;]++|#[^\n]*+)*+\)")
_SPACES = re.compile(r"[ \t]*")
# The commonest statement: `from [.]a.b import c [as d], ...` alone on its line at column 0,
# in the spelling both the statement's delimiting (blanks before `import` are spaces) and the
# plain reader accept. One match delimits it and holds what `skeleton_plain` reads from it:
# the dots, the module, `import`, the names, the first name and its alias.
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_ITEM = _NAME + r"(?:[ \t]+as[ \t]+" + _NAME + r")?"
_DOTTED = _NAME + r"(?:\." + _NAME + r")*"
# The same for `import a.b [as c], ...`: the names, the first name and its alias.
ONE_LINE_IMPORT = re.compile(
    r"import[ \t]+((" + _DOTTED + r")(?:[ \t]+as[ \t]+(" + _NAME + r"))?"
    r"(?:[ \t]*,[ \t]*" + _DOTTED + r"(?:[ \t]+as[ \t]+" + _NAME + r")?)*)(?=[ \t]*(?:\n|\Z))"
)
_ONE_LINE_FROM = re.compile(
    r"from +(\.*)(" + _NAME + r"(?:\." + _NAME + r")*)? +(import)[ \t]+"
    r"((" + _NAME + r")(?:[ \t]+as[ \t]+(" + _NAME + r"))?(?:[ \t]*,[ \t]*" + _ITEM + r")*)"
    r"(?=[ \t]*(?:\n|\Z))"
)


class Statement:
    """One import statement the scan found. A slots class, not attrs: built per statement
    and known by identity, and no class to create on start-up."""

    __slots__ = ("column", "end", "headers", "keyword", "lazy", "line", "quick", "start")

    def __init__(
        self,
        *,
        start: int,  # offset of `import` / `from` / `lazy`
        keyword: int,  # offset of `import` / `from`
        end: int,  # offset after the last token
        line: int,
        column: int,  # 0-based character column of `keyword`
        lazy: bool,
        headers: list[Header],
        quick: re.Match[str] | None = None,  # of `_ONE_LINE_FROM` or `ONE_LINE_IMPORT`
    ) -> None:
        self.start = start
        self.keyword = keyword
        self.end = end
        self.line = line
        self.column = column
        self.lazy = lazy
        self.headers = headers
        self.quick = quick


def context_of(statement: Statement) -> ImportContext:
    if not statement.headers:  # most statements: one value for all, not one each
        return MODULE_LEVEL
    return ImportContext(
        type_checking=any(h.type_checking for h in statement.headers),
        in_function=any(h.function for h in statement.headers),
    )


class Skeleton:
    """Reads the import statements of one text; `strict` for the fast path, otherwise
    tolerant (recovery for files that do not parse)."""

    def __init__(self, text: str, *, strict: bool) -> None:
        self.text = text
        self.strict = strict
        self.strings: list[tuple[int, int]] = []
        self.keywords: list[int] = []
        self.blocks = Blocks(text, self.strings)

    def scan(self) -> None:
        text = self.text
        strict = self.strict
        keywords = self.keywords
        strings = self.strings
        for match in _SCAN.finditer(text):
            kind = match.lastindex
            if kind is None:
                break  # the end of the text
            start, end = match.span(kind)
            if kind == 1:
                if start and ("a" + text[start - 1]).isidentifier():
                    continue  # part of a longer name (`reimport`)
                keywords.append(start)
            elif kind == 2:
                if start and strict and text[start - 1] in _PREFIX_LETTERS:
                    self._check_prefix(start, match.group(2))
                if text.find("\n", start, end) >= 0:
                    strings.append((start, end))
            elif strict:
                raise Refused("a string that doesn't end")

    def _check_prefix(self, start: int, literal: str) -> None:
        """An f-string (or t-string) could hide quotes of the same kind inside a
        replacement field (Python 3.12); refuse when its braces don't balance."""
        text = self.text
        position = start
        while position > 0 and text[position - 1] in _PREFIX_LETTERS:
            position -= 1
        if position and ("a" + text[position - 1]).isidentifier():
            return  # a name that ends in those letters, not a prefix
        if not _FORMATTED_PREFIX.intersection(text[position:start]):
            return
        body = literal.replace("{{", "").replace("}}", "")
        if body.count("{") != body.count("}"):
            raise Refused("an f-string that may hold nested quotes")

    def statements(self) -> list[Statement]:
        text = self.text
        place = self.blocks.chain
        found: list[Statement] = []
        line = 1
        counted = 0
        line_start = 0
        previous: int | None = None
        for found_at in self.keywords:
            # Line starts are found from the previous keyword on, and a keyword on the same
            # line as the previous one starts no statement (`import` can't be a name), so
            # each part of the text is looked at once, however long its lines.
            newline = text.rfind("\n", 0 if previous is None else previous, found_at)
            same_line = newline < 0 and previous is not None
            line_start = newline + 1 if newline >= 0 else line_start
            previous = found_at
            quick = None if same_line else self._quick(line_start, found_at)
            if quick is not None:
                line += text.count("\n", counted, line_start)
                counted = line_start
                found.append(
                    Statement(
                        start=line_start,
                        keyword=line_start,
                        end=quick.end(),
                        line=line,
                        column=0,
                        lazy=False,
                        headers=[],
                        quick=quick,
                    )
                )
                continue
            head = None if same_line else _IMPORT_HEAD.fullmatch(text, line_start, found_at)
            is_from = False
            if head is None and not same_line:
                head = _FROM_HEAD.fullmatch(text, line_start, found_at)
                is_from = True
            if head is None or (line_start >= 2 and text[line_start - 2] == "\\"):
                if self.strict:
                    raise Refused("an import that does not start its line")
                continue
            end = self._statement_end(found_at + 6, is_from)
            if end is None:
                if self.strict:
                    raise Refused("an import statement the skeleton can't delimit")
                continue
            line += text.count("\n", counted, line_start)
            counted = line_start
            indent = len(head.group(1))
            lazy = head.group(2) is not None
            first = line_start + indent
            after_lazy = end_of(_SPACES, text, first + 4) if lazy else first
            statement = Statement(
                start=first,
                keyword=after_lazy,
                end=end,
                line=line,
                column=after_lazy - line_start,
                lazy=lazy,
                headers=[],
            )
            if indent:
                chain = place(line_start, indent)
                if chain is None:
                    if self.strict:
                        raise Refused("a block the skeleton can't place")
                    chain = []
                statement.headers = chain
            found.append(statement)
        return found

    def _quick(self, line_start: int, keyword: int) -> re.Match[str] | None:
        """The statement at `line_start` when it is a `ONE_LINE_IMPORT`, or a
        `_ONE_LINE_FROM` whose `import` is the keyword the scan found there (the delimiting
        below gives either the same bounds)."""
        text = self.text
        if line_start >= 2 and text[line_start - 2] == "\\":
            return None  # a continued line: the general path refuses it
        if keyword == line_start:
            return ONE_LINE_IMPORT.match(text, line_start)
        if not text.startswith("from ", line_start):
            return None
        quick = _ONE_LINE_FROM.match(text, line_start)
        return quick if quick is not None and quick.start(3) == keyword else None

    def _statement_end(self, after: int, is_from: bool) -> int | None:
        text = self.text
        end = end_of(_TAIL, text, after)
        following = text[end : end + 1]
        if following == "\\":
            end = end_of(_CONTINUED_TAIL, text, after)
            following = text[end : end + 1]
        if following == "(" and is_from:
            parenthesized = _PARENTHESIZED.match(text, end)
            if parenthesized is None:
                return None
            end = parenthesized.end()
            rest = end_of(_SPACES, text, end)
            if text[rest : rest + 1] not in ("", "\n", "#"):
                return None
            return end
        if following not in ("", "\n", "#"):
            return None
        return after + len(text[after:end].rstrip(" \t"))

    def snippet(self, statement: Statement) -> str:
        return self.text[statement.keyword : statement.end]
