"""Asking libcst's parser, for a file CPython 3.11 can't read, without harm: the shapes
too costly to hand it, the roomy stack it recurses on, and the text with the newer
constructs blanked so that CPython's parser reads the rest (for dynamic imports).

Imported only when a file needs libcst, like libcst itself.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING

from inwards_core.extraction.text import STRING_BODY, SourceLines
from inwards_core.ports import GrammarBinaries

if TYPE_CHECKING:
    import libcst as cst

_STACK = 256 * 1024 * 1024
# libcst's parser needs time and memory that grow with the square of an expression's
# depth (8,000 nested unary minuses: 12 s and 3.5 GB). Deeper than these it is not asked:
# CPython itself refuses 200 nested brackets, and no hand-written code chains 100 prefix
# operators.
MAX_BRACKET_DEPTH = 100
MAX_PREFIX_RUN = 100
_BRACKETS_OUTSIDE_STRINGS = re.compile(r"#[^\n]*|" + STRING_BODY + r"|[(\[{]|[)\]}]", re.S)
_PREFIX_RUN = re.compile(r"(?:(?:[-+~]|\bnot\b|\bawait\b)[ \t\f\\\n]*+)" + f"{{{MAX_PREFIX_RUN},}}")


def too_deep_for_libcst(text: str) -> str | None:
    """What makes `text` too costly for libcst's parser, or None."""
    depth = deepest = 0
    for match in _BRACKETS_OUTSIDE_STRINGS.finditer(text):
        char = match.group()
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth = max(depth - 1, 0)
    if deepest > MAX_BRACKET_DEPTH:
        return (
            f"it holds syntax newer than Python 3.11 and brackets nested {deepest} deep; "
            f"such files are read only up to {MAX_BRACKET_DEPTH} levels"
        )
    if _PREFIX_RUN.search(text):
        return (
            "it holds syntax newer than Python 3.11 and a chain of more than "
            f"{MAX_PREFIX_RUN} prefix operators; such files are read only up to "
            f"{MAX_PREFIX_RUN}"
        )
    return None


def parse_concrete_with_room(text: str, grammars: GrammarBinaries) -> cst.Module:
    """libcst's native parser recurses on the machine stack; give it a roomy one so deep
    nesting fails as an error, not as a crash of the whole process."""
    parsed: list[cst.Module] = []
    failed: list[BaseException] = []

    def parse() -> None:
        try:
            parsed.append(grammars.parse_concrete(text))
        except BaseException as error:  # handed over to the calling thread
            failed.append(error)

    previous = threading.stack_size(_STACK)
    try:
        worker = threading.Thread(target=parse, name="inwards-libcst", daemon=True)
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if failed:
        raise failed[0]
    return parsed[0]


def blank_newer_syntax(concrete: cst.Module, text: str) -> str:
    """The text with each construct CPython 3.11 can't read turned into spaces (a type
    alias into `pass`), lines and columns kept."""
    import libcst
    from libcst.metadata import MetadataWrapper, PositionProvider

    # Newer syntax CPython 3.11 can't read; blanked (columns kept) to read dynamic imports
    # of a file only libcst could parse.
    newer_syntax = (libcst.TypeAlias, libcst.TypeParameters, libcst.TemplatedString)
    wrapper = MetadataWrapper(concrete, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    lines = SourceLines(text)
    chars = list(text)
    for node, where in positions.items():
        if not isinstance(node, newer_syntax):
            continue
        start = lines.offset(where.start.line, where.start.column)
        end = lines.offset(where.end.line, where.end.column)
        for index in range(start, min(end, len(chars))):
            if chars[index] != "\n":
                chars[index] = " "
        if isinstance(node, libcst.TypeAlias):
            chars[start : start + 4] = list("pass")
        elif isinstance(node, libcst.TemplatedString):
            chars[start] = "0"
    return "".join(chars)
