"""What a parsed diagram is: nodes, edges and the problems met reading it. Every line and
column is 1-based and counts in the diagram's own file (a Markdown fence's block keeps the
lines of the Markdown file)."""

from __future__ import annotations

from typing import Literal

import attrs

DiagramKind = Literal["layers", "contexts"]
EdgeStyle = Literal["solid", "dotted", "open", "two-way", "other"]

MAX_NODES = 5_000
MAX_EDGES = 20_000
MAX_LINE = 10_000


@attrs.frozen
class Node:
    """A drawn box. `id` is what edges name (an alias when the notation has one); `label`
    the text shown in it, when it differs from the id; `external` for a node marked as
    outside the project (Mermaid `:::external`), which the rules skip; `container` for a
    box drawn around other boxes."""

    id: str
    label: str | None
    line: int
    column: int
    external: bool = False
    # Where the label is written, when a later statement gave it (0: at `line`, `column`).
    label_line: int = 0
    label_column: int = 0
    # A box drawn around others (a Mermaid subgraph, a PlantUML container or C4 boundary).
    container: bool = False
    # The id of the innermost container the node was first drawn in ("" for none).
    parent: str = ""

    @property
    def label_position(self) -> tuple[int, int]:
        """Where the label is written (a finding about the label points there)."""
        if self.label_line:
            return self.label_line, self.label_column
        return self.line, self.column


@attrs.frozen
class Edge:
    """A drawn link from `source` to `target` (a reversed arrow is stored the way it
    points). `text` is the link's label, "" when none."""

    source: str
    target: str
    style: EdgeStyle
    line: int
    column: int
    text: str = ""


@attrs.frozen
class DiagramProblem:
    """Something in the block that could not be read (and was skipped)."""

    line: int
    column: int
    message: str


@attrs.frozen
class Diagram:
    """One marked block, read. `nodes` in order of first appearance, one per id."""

    kind: DiagramKind
    file: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    problems: tuple[DiagramProblem, ...]


class DiagramBuilder:
    """Collects nodes (first appearance wins its position; a later label fills an empty
    one), edges and problems, within the bounds of MAX_NODES and MAX_EDGES."""

    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self.edges: list[Edge] = []
        self.problems: list[DiagramProblem] = []
        self._full: set[str] = set()
        # The containers open where the reader is, outermost first ("" for one without id).
        self._open: list[str] = []

    def open_container(self, node_id: str) -> None:
        """Nodes first drawn from now on, until `close_container`, are inside `node_id`."""
        self._open.append(node_id)

    def close_container(self) -> None:
        if self._open:
            self._open.pop()

    def node(self, node: Node) -> None:
        known = self.nodes.get(node.id)
        if known is None:
            if len(self.nodes) >= MAX_NODES:
                self._bound("nodes", MAX_NODES, node.line, node.column)
                return
            parent = next((opened for opened in reversed(self._open) if opened), "")
            if parent and parent != node.id and not node.parent:
                node = attrs.evolve(node, parent=parent)
            self.nodes[node.id] = node
            return
        if known.label is None and node.label is not None:
            known = attrs.evolve(
                known, label=node.label, label_line=node.line, label_column=node.column
            )
        if node.external and not known.external:
            known = attrs.evolve(known, external=True)
        if node.container and not known.container:
            known = attrs.evolve(known, container=True)
        self.nodes[node.id] = known

    def mark_container(self, node_id: str) -> None:
        known = self.nodes.get(node_id)
        if known is not None:
            self.nodes[node_id] = attrs.evolve(known, container=True)

    def mark_external(self, node_id: str) -> None:
        known = self.nodes.get(node_id)
        if known is not None:
            self.nodes[node_id] = attrs.evolve(known, external=True)

    def edge(self, edge: Edge) -> None:
        if len(self.edges) >= MAX_EDGES:
            self._bound("edges", MAX_EDGES, edge.line, edge.column)
            return
        self.edges.append(edge)

    def problem(self, line: int, column: int, message: str) -> None:
        self.problems.append(DiagramProblem(line, column, message))

    def _bound(self, what: str, limit: int, line: int, column: int) -> None:
        if what not in self._full:
            self._full.add(what)
            self.problem(line, column, f"more than {limit:,} {what}: the rest are not read")

    def build(self, kind: DiagramKind, file: str) -> Diagram:
        return Diagram(
            kind, file, tuple(self.nodes.values()), tuple(self.edges), tuple(self.problems)
        )


# The public API's names (`inwards_core.DiagramNode`, ...): plain `Node` says little there.
DiagramNode = Node
DiagramEdge = Edge
