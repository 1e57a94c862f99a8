"""The marked diagrams of the files `diagrams` names, parsed once per run for the three
diagram kinds (`parse_diagrams` through `ProjectModel.shared`); `standing` says which node
stands for which layer or context.

The engine puts the files' texts on the model (`ProjectModel.documents`); nothing here
touches a file. Each file holds at most one layers and one contexts diagram: a second
marked block of a sort is not read, and INW017 says so.
"""

from __future__ import annotations

import attrs

from inwards_core import (
    Config,
    Diagram,
    DiagramBlock,
    DiagramKind,
    ProjectModel,
    find_diagram_blocks,
    quoted,
)
from inwards_core import DiagramEdge as Edge
from inwards_core import parse_diagram_block as _parse


@attrs.frozen
class ExtraBlock:
    """A marked block not read because its file already has a diagram of its sort."""

    file: str
    kind: DiagramKind
    line: int
    column: int


@attrs.frozen
class Marked:
    """A diagram read, with where its marker line stands (findings about the whole
    diagram point there)."""

    diagram: Diagram
    line: int
    column: int


@attrs.frozen
class ParsedDiagrams:
    """Every marked diagram read, by file then position, and the blocks left unread."""

    marked: tuple[Marked, ...]
    extra: tuple[ExtraBlock, ...]

    @property
    def diagrams(self) -> tuple[Diagram, ...]:
        return tuple(found.diagram for found in self.marked)


def parse_diagrams(model: ProjectModel) -> ParsedDiagrams:
    """The diagrams of `model.documents`; pass it to `model.shared` to parse once a run."""
    marked: list[Marked] = []
    extra: list[ExtraBlock] = []
    for path in sorted(model.documents):
        seen: set[DiagramKind] = set()
        for block in find_diagram_blocks(path, model.documents[path]):
            if block.kind in seen:
                extra.append(ExtraBlock(path, block.kind, block.marker_line, _column(block)))
                continue
            seen.add(block.kind)
            marked.append(Marked(_parse(block, path), block.marker_line, _column(block)))
    return ParsedDiagrams(tuple(marked), tuple(extra))


def _column(block: DiagramBlock) -> int:
    line = block.lines[block.marker_line - block.first_line]
    return len(line) - len(line.lstrip()) + 1


def marked_files(model: ProjectModel) -> frozenset[str]:
    """The files holding at least one marked diagram."""
    parsed = model.shared(parse_diagrams)
    return frozenset(diagram.file for diagram in parsed.diagrams) | frozenset(
        block.file for block in parsed.extra
    )


def names_of(config: Config, kind: DiagramKind) -> tuple[str, ...]:
    """The names a node of a diagram of this kind may have: layers or contexts."""
    if kind == "layers":
        return tuple(layer.name for layer in config.layers)
    return tuple(context.name for context in config.contexts)


def kind_word(kind: DiagramKind) -> str:
    return "layer" if kind == "layers" else "context"


def arrow(edge: Edge) -> str:
    """The arrow as a message quotes it."""
    return f"{quoted(edge.source)} --> {quoted(edge.target)}"
