"""A drawn layers diagram into a `[tool.inwards] layers` proposal.

Each box (not external, not a box drawn around others) is a layer: named by its id, or by
the text before `: ` in its label when the label starts with a name (what
`inwards diagram` writes for a name that can't be an id), holding the module prefixes its
label lists (split at commas and line breaks). A solid one-way arrow `a --> b` says `a`
may import `b`; other links (dotted, open, two-way) are notes, not dependencies. A layer's
rank is the longest path of arrows from it to a layer with none (rank 0, the innermost):
layers of one rank are siblings. A cycle of arrows has no ranking and is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import attrs

from inwards_core.config.patterns import parse_module_pattern
from inwards_core.diagrams.model import Diagram, Edge, Node

_BREAKS = re.compile(r"<br\s*/?>|\\n|\n|,", re.IGNORECASE)


@attrs.frozen
class ProposedLayer:
    name: str
    modules: tuple[str, ...]
    line: int


class RankingError(ValueError):
    """The diagram can't be a layers proposal; `line` is where the problem is drawn."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file = file
        self.line = line


def rank_layers(diagram: Diagram) -> tuple[tuple[ProposedLayer, ...], ...]:
    """The layers `diagram` draws, innermost rank first, each rank its layers in the order
    they are first drawn. Raises `RankingError` for a cycle, a box without module names
    or a diagram without boxes."""
    boxes = [node for node in diagram.nodes if not node.external and not node.container]
    if not boxes:
        raise RankingError(diagram.file, 1, "the diagram draws no box (external boxes aside)")
    layers = {node.id: _layer(node, diagram.file) for node in boxes}
    arrows: dict[str, list[Edge]] = {node.id: [] for node in boxes}
    for edge in diagram.edges:
        drawn = edge.source in layers and edge.target in layers
        if drawn and edge.style == "solid" and edge.source != edge.target:
            arrows[edge.source].append(edge)
    ranks = _ranks(arrows, diagram.file)
    grouped: dict[int, list[ProposedLayer]] = {}
    for node in boxes:
        grouped.setdefault(ranks[node.id], []).append(layers[node.id])
    return tuple(tuple(grouped[rank]) for rank in sorted(grouped))


def _layer(node: Node, file: str) -> ProposedLayer:
    name, label = node.id, (node.label or "").strip().strip("\"'`")
    head, colon, rest = label.partition(": ")
    if colon and head.strip():  # no module name holds ": "
        name, label = head.strip(), rest
    modules: list[str] = []
    for raw in _BREAKS.split(label):
        part = raw.strip().strip("`\"'").strip()
        if not part:
            continue
        if not _is_module(part):
            line, _ = node.label_position
            raise RankingError(
                file,
                line,
                f'the label of box "{node.id}" holds "{part}", not a module name: write the '
                f'modules the layer holds, e.g. {node.id}["shop.{name.lower()}"]',
            )
        modules.append(part)
    if not modules:
        line, _ = node.label_position
        raise RankingError(
            file,
            line,
            f'box "{node.id}" names no module: write the modules the layer holds in its '
            f'label, e.g. {node.id}["shop.{name.lower()}"]',
        )
    return ProposedLayer(name, tuple(modules), node.line)


def _is_module(text: str) -> bool:
    """A module prefix or selector, read as INW017 reads a label: one word holding a `.` or
    a wildcard, or one lower-case word (`Web` is a caption, not a package)."""
    if not text or any(char.isspace() for char in text):
        return False
    if "." not in text and "*" not in text and not (text.islower() and text.isidentifier()):
        return False
    try:
        parse_module_pattern(text)
    except ValueError:
        return False
    return True


def _ranks(arrows: Mapping[str, Sequence[Edge]], file: str) -> dict[str, int]:
    """Longest path to a box without arrows, for every box (iterative: a diagram may hold
    thousands of boxes)."""
    ranks: dict[str, int] = {}
    on_path: dict[str, Edge | None] = {}
    for start in arrows:
        if start in ranks:
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        on_path[start] = None
        while stack:
            node, index = stack[-1]
            if index < len(arrows[node]):
                stack[-1] = (node, index + 1)
                edge = arrows[node][index]
                if edge.target in on_path:
                    raise _cycle(edge, stack, file)
                if edge.target not in ranks:
                    on_path[edge.target] = edge
                    stack.append((edge.target, 0))
                continue
            stack.pop()
            del on_path[node]
            ranks[node] = 1 + max((ranks[e.target] for e in arrows[node]), default=-1)
    return ranks


def _cycle(closing: Edge, stack: Sequence[tuple[str, int]], file: str) -> RankingError:
    names = [node for node, _ in stack]
    loop = [*names[names.index(closing.target) :], closing.target]
    return RankingError(
        file,
        closing.line,
        "the arrows make a cycle, so no layer is inside the other: "
        + " --> ".join(f'"{name}"' for name in loop)
        + "; take one arrow out (or draw it dotted if it is not an import)",
    )


def layers_entries(ranks: Sequence[Sequence[ProposedLayer]]) -> list[object]:
    """The `layers` array of `[tool.inwards]` for ranked layers: a table per layer, a
    sibling group as an array of tables."""
    entries: list[object] = []
    for rank in ranks:
        tables = [{"name": layer.name, "modules": list(layer.modules)} for layer in rank]
        entries.append(tables[0] if len(tables) == 1 else tables)
    return entries
