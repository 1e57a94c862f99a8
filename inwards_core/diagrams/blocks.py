"""Find the marked diagram blocks of a file.

Where blocks are: a whole `.mmd`/`.mermaid` file is one Mermaid block; a `.puml`/
`.plantuml`/`.pu`/`.iuml` file holds one PlantUML block per `@startuml` ... `@enduml`; a
Markdown file (`.md`, `.markdown`) holds fenced blocks (```` ```mermaid ````, `~~~mermaid`,
```` ```plantuml ````, ```` ```puml ````) whose fence is indented at most 3 spaces and
closed by a fence of the same character, at least as long (an unclosed fence runs to the
end of the file, as in CommonMark).

Which blocks count: only a block holding a marker line, `%% inwards: layers` or
`%% inwards: contexts` (Mermaid), `' inwards: layers` or `' inwards: contexts` (PlantUML).
The marker may stand on any line of the block, on a line of its own (spaces around it and
around the colon are allowed); the first marker decides the block's kind. Anywhere rather
than "before the first statement" because both notations treat it as a comment, and a
marker after a front matter, an `!include` or a `skinparam` must not be lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from inwards_core.diagrams.model import DiagramKind

Notation = Literal["mermaid", "plantuml"]

MERMAID_SUFFIXES = (".mmd", ".mermaid")
PLANTUML_SUFFIXES = (".puml", ".plantuml", ".pu", ".iuml")
MARKDOWN_SUFFIXES = (".md", ".markdown")
_FENCE_NOTATIONS: dict[str, Notation] = {
    "mermaid": "mermaid",
    "plantuml": "plantuml",
    "puml": "plantuml",
}
_COMMENT: dict[Notation, str] = {"mermaid": "%%", "plantuml": "'"}
_KINDS: tuple[DiagramKind, ...] = ("layers", "contexts")


@attrs.frozen
class Block:
    """The lines of one marked block; `first_line` is the file's (1-based) line number of
    `lines[0]`. Lines are as in the file (indentation kept, line breaks removed)."""

    notation: Notation
    kind: DiagramKind
    lines: tuple[str, ...]
    first_line: int
    marker_line: int


def find_blocks(name: str, text: str) -> tuple[Block, ...]:
    """The marked blocks of the file called `name` (its suffix says the format) holding
    `text`; () for a file of another format or without a marked block."""
    lowered = name.lower()
    lines = text.splitlines()
    if lowered.endswith(MERMAID_SUFFIXES):
        found = [_marked("mermaid", lines, 1)]
    elif lowered.endswith(PLANTUML_SUFFIXES):
        found = [_marked("plantuml", part, first) for part, first in _plantuml_parts(lines)]
    elif lowered.endswith(MARKDOWN_SUFFIXES):
        found = [_marked(kind, part, first) for kind, part, first in _fences(lines)]
    else:
        return ()
    return tuple(block for block in found if block is not None)


def marker_kind(notation: Notation, line: str) -> DiagramKind | None:
    """The kind a marker line names, None when `line` is no marker."""
    stripped = line.strip()
    comment = _COMMENT[notation]
    if not stripped.startswith(comment):
        return None
    head, colon, value = stripped[len(comment) :].partition(":")
    if not colon or head.strip() != "inwards":
        return None
    kind = value.strip()
    for known in _KINDS:
        if kind == known:
            return known
    return None


def _marked(notation: Notation, lines: Sequence[str], first_line: int) -> Block | None:
    for index, line in enumerate(lines):
        kind = marker_kind(notation, line)
        if kind is not None:
            return Block(notation, kind, tuple(lines), first_line, first_line + index)
    return None


def _plantuml_parts(lines: Sequence[str]) -> list[tuple[list[str], int]]:
    """Each `@startuml` ... `@enduml` body (the lines between them) with its first line; an
    unclosed one runs to the end of the file."""
    parts: list[tuple[list[str], int]] = []
    body: list[str] | None = None
    for number, line in enumerate(lines, start=1):
        word = line.strip().lower()
        if body is None:
            if word.startswith("@startuml"):
                body = []
                parts.append((body, number + 1))
        elif word.startswith("@enduml"):
            body = None
        else:
            body.append(line)
    return parts


def _fences(lines: Sequence[str]) -> list[tuple[Notation, list[str], int]]:
    """Every fenced block of a diagram notation in Markdown lines, with its first line."""
    found: list[tuple[Notation, list[str], int]] = []
    open_fence: str | None = None
    body: list[str] | None = None
    for number, line in enumerate(lines, start=1):
        fence, info = _fence(line)
        if open_fence is None:
            if fence is not None:
                open_fence = fence
                notation = _FENCE_NOTATIONS.get(info.lower())
                body = None
                if notation is not None:
                    body = []
                    found.append((notation, body, number + 1))
            continue
        if fence is not None and not info and _closes(fence, open_fence):
            open_fence = None
            body = None
        elif body is not None:
            body.append(line)
    return found


def _fence(line: str) -> tuple[str | None, str]:
    """The fence a line opens or closes (its run of backticks or tildes) and the first word
    of its info string; (None, "") when the line is no fence."""
    indent = len(line) - len(line.lstrip(" "))
    if indent > 3:
        return None, ""
    rest = line[indent:]
    if not rest or rest[0] not in "`~":
        return None, ""
    char = rest[0]
    length = len(rest) - len(rest.lstrip(char))
    if length < 3:
        return None, ""
    info = rest[length:].strip()
    if char == "`" and "`" in info:
        return None, ""
    word = info.split(maxsplit=1)[0] if info else ""
    return rest[:length], word.strip("{}.")


def _closes(fence: str, opening: str) -> bool:
    return fence[0] == opening[0] and len(fence) >= len(opening)


# The public API's names (`inwards_core.find_diagram_blocks`, ...).
DiagramBlock = Block
find_diagram_blocks = find_blocks
