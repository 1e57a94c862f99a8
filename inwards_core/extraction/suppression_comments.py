"""Suppression comments: `# inwards: ignore[INW001,INW005] reason="why"`.

Read from comment tokens only, so a directive inside a string literal is text, not a
comment. A directive may follow another tool's comment on the same line
(`# noqa: E501  # inwards: ignore[...] reason="..."`) and may be followed by one.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from inwards_core.model.facts import SuppressionComment, SuppressionProblem
from inwards_core.model.findings import Span

if TYPE_CHECKING:
    import libcst as cst

HINT = "inwards:"
_DIRECTIVE_SOURCE = r"#[ \t]*(inwards:)"
_CODE = r"[A-Za-z]{2,6}[0-9]{3}"
_IGNORE_SOURCE = (
    r"[ \t]*ignore\[[ \t]*(" + _CODE + r"(?:[ \t]*,[ \t]*" + _CODE + r")*)[ \t]*,?[ \t]*\]"
)
_REASON_SOURCE = r'[ \t]+reason[ \t]*=[ \t]*"([^"]*)"'
_CLEAN_TAIL_SOURCE = r"[ \t]*(?:#.*)?"
# Code and whole string literals, up to the next `#` (or a quote that opens no string).
# Three quotes open a long string or nothing: never an empty string and a quote.
_LONG_STRING = (
    r"'''[^'\\]*+(?:(?:\\.|'(?!''))[^'\\]*+)*+'''"
    r'|"""[^"\\]*+(?:(?:\\.|"(?!""))[^"\\]*+)*+"""'
)
_SHORT_STRING = r"'(?!'')[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'" r'|"(?!"")[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
_CODE_AND_STRINGS_SOURCE = r"(?:[^#'\"]++|" + _LONG_STRING + "|" + _SHORT_STRING + r")*+"


class _Patterns:
    """The patterns, compiled on first need: most files hold no directive, and compiling
    these costs a one-file check several milliseconds of start-up."""

    def __init__(self) -> None:
        self.directive = re.compile(_DIRECTIVE_SOURCE)
        self.ignore = re.compile(_IGNORE_SOURCE)
        self.reason = re.compile(_REASON_SOURCE)
        self.clean_tail = re.compile(_CLEAN_TAIL_SOURCE)
        self.code_and_strings = re.compile(_CODE_AND_STRINGS_SOURCE, re.S)


@functools.cache
def _patterns() -> _Patterns:
    return _Patterns()


def parse_directive(comment: str, line: int, column: int) -> SuppressionComment | None:
    """The directive in one comment token (`comment` starts with `#` at the 1-based
    `column` of `line`), or None when the comment holds no `inwards:` directive."""
    patterns = _patterns()
    found = patterns.directive.search(comment)
    if found is None:
        return None
    start = found.start(1)
    position = found.end(1)
    second = patterns.directive.search(comment, position)
    codes: tuple[str, ...] = ()
    reason: str | None = None
    problem: SuppressionProblem | None = None
    ignore = patterns.ignore.match(comment, position)
    if ignore is None:
        problem = SuppressionProblem.MALFORMED
        end = second.start() if second else len(comment)
        end = start + len(comment[start:end].rstrip())
    else:
        codes = tuple(code.strip().upper() for code in ignore.group(1).split(","))
        position = ignore.end()
        given = patterns.reason.match(comment, position)
        if given is not None:
            reason = given.group(1)
            position = given.end()
        end = position
        if not patterns.clean_tail.fullmatch(comment, position):
            problem = SuppressionProblem.MALFORMED
            tail_end = second.start() if second else len(comment)
            end = position + len(comment[position:tail_end].rstrip())
        elif second is not None:
            problem = SuppressionProblem.SECOND_DIRECTIVE
        elif reason is None or not reason.strip():
            problem = SuppressionProblem.NO_REASON
    return SuppressionComment(
        line=line,
        span=Span(line, column + start, line, column + end),
        codes=codes,
        reason=reason,
        problem=problem,
    )


def _comments_of_read(text: str) -> list[tuple[str, int, int]] | None:
    """The comments holding a directive, as `_comment_tokens` gives them, for a text whose
    string literals all close: one C-speed scan that steps over code and string literals
    from one comment to the next. The tokenizer made a Python object of every token: a
    10 MB line of code took 15 s. None when the scan meets a quote that opens no string
    (the tokenizer then decides)."""
    code_and_strings = _patterns().code_and_strings
    found: list[tuple[str, int, int]] = []
    position = 0
    line = 1
    counted = 0
    while True:
        position = code_and_strings.match(text, position).end()  # type: ignore[union-attr]
        if position >= len(text):
            return found
        if text[position] != "#":
            return None
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        if text.find(HINT, position, end) >= 0:
            line += text.count("\n", counted, position)
            counted = position
            line_start = text.rfind("\n", 0, position) + 1
            found.append((text[position:end], line, position - line_start + 1))
        position = end


def _comment_tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """(comment, line, 1-based column) of each comment token CPython's tokenizer sees;
    on a tokenizer error, the comments before it."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield token.string, token.start[0], token.start[1] + 1
    except (tokenize.TokenError, SyntaxError):
        return


def _concrete_comments(tree: cst.Module, text: str) -> list[tuple[str, int, int]]:
    # libcst is imported only for the rare files that only it can read.
    import libcst
    from libcst.metadata import MetadataWrapper, PositionProvider

    from inwards_core.extraction.concrete import ColumnMap

    columns = ColumnMap(text, tree.code)
    found: list[tuple[str, int, int]] = []

    class CommentCollector(libcst.CSTVisitor):
        METADATA_DEPENDENCIES = (PositionProvider,)

        def visit_Comment(self, node: libcst.Comment) -> None:
            if HINT in node.value:
                where = self.get_metadata(PositionProvider, node).start
                column = columns.column(where.line, where.column)
                found.append((node.value, where.line, column + 1))

    MetadataWrapper(tree, unsafe_skip_copy=True).visit(CommentCollector())
    return found


def suppression_comments(
    text: str, concrete: cst.Module | None = None, *, read: bool = False
) -> tuple[SuppressionComment, ...]:
    """Every `inwards:` directive in a comment. `concrete` is libcst's tree when the file
    was read with libcst (CPython 3.11's tokenizer can't read all newer syntax); `read`
    says the text was read without an error (by CPython's parser, or by the skeleton,
    which finds every string literal): its comments are then found without tokenizing it.
    The tokenizer stops at an error, so other text still goes to it; the one difference
    is a file read by the skeleton only, with an indentation error away from its imports:
    its directives after the error count (the tokenizer would have stopped there)."""
    if HINT not in text:
        return ()
    comments: Iterable[tuple[str, int, int]] | None = None
    if concrete is not None:
        comments = _concrete_comments(concrete, text)
    elif read:
        comments = _comments_of_read(text)
    if comments is None:
        comments = _comment_tokens(text)
    found: list[SuppressionComment] = []
    for comment, line, column in comments:
        if HINT in comment:
            directive = parse_directive(comment, line, column)
            if directive is not None:
                found.append(directive)
    return tuple(found)
