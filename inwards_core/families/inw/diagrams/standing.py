"""Which layer or context each drawn node stands for, and the arrows between them.

A node (not external) stands for, in this order:

1. the layer or context its id names (`domain`);
2. the one its id names in another case (`Domain`), when only one does;
3. the one its innermost enclosing box stands for (a node drawn inside
   `subgraph domain ... end` or `package domain { ... }` is part of that layer, whatever
   its label says: a label naming another layer's modules is then INW017's to report);
4. the one its label names, in any case (`D[Domain]`), when only one does;
5. the one that owns every module its label names (`A["shop.domain"]`).

A node that stands for nothing is INW017's to report (unless it is a box around others);
arrows touching it are not read.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core import Diagram, ProjectModel
from inwards_core import DiagramEdge as Edge
from inwards_core import DiagramNode as Node
from inwards_core.families.inw.contexts.context_map import ContextMap
from inwards_core.families.inw.diagrams.labels import module_parts

MAX_NESTING = 100  # enclosing boxes followed, at most (a diagram is a tree of boxes)


@attrs.frozen
class Drawn:
    """`names`: node id -> the layer or context it stands for; `first`: each name with the
    first node standing for it; `arrows`: the solid one-way arrows between nodes standing
    for two different names, with those names (source, target)."""

    names: Mapping[str, str]
    first: Mapping[str, Node]
    arrows: tuple[tuple[Edge, str, str], ...]


def drawn(model: ProjectModel, diagram: Diagram) -> Drawn:
    names = _Names(model, diagram)
    nodes = {node.id: node for node in diagram.nodes}
    stands: dict[str, str] = {}
    first: dict[str, Node] = {}
    for node in diagram.nodes:
        name = names.standing(node, nodes)
        if name is not None:
            stands[node.id] = name
            first.setdefault(name, node)
    arrows = tuple(
        (edge, stands[edge.source], stands[edge.target])
        for edge in diagram.edges
        if edge.style == "solid"
        and edge.source in stands
        and edge.target in stands
        and stands[edge.source] != stands[edge.target]
    )
    return Drawn(stands, first, arrows)


class _Names:
    def __init__(self, model: ProjectModel, diagram: Diagram) -> None:
        config = model.config
        self.layers = diagram.kind == "layers"
        if self.layers:
            self.known = tuple(layer.name for layer in config.layers)
        else:
            self.known = tuple(context.name for context in config.contexts)
            self.contexts = ContextMap(config.contexts)
        self.exact = frozenset(self.known)
        self.model = model

    def standing(self, node: Node, nodes: Mapping[str, Node], depth: int = 0) -> str | None:
        """Its id first, then its box (a node drawn in a layer's box is part of it, whatever
        its label says), then its label."""
        if node.external or depth > MAX_NESTING:
            return None
        found = node.id if node.id in self.exact else self._any_case(node.id)
        if found is None and node.parent and node.parent in nodes:
            found = self.standing(nodes[node.parent], nodes, depth + 1)
        if found is None and node.label is not None:
            caption = node.label.strip().strip("`\"'").strip()
            found = caption if caption in self.exact else self._any_case(caption)
            if found is None:
                found = self._owner_of(node.label)
        return found

    def _any_case(self, text: str) -> str | None:
        lowered = text.lower()
        matches = [name for name in self.known if name.lower() == lowered]
        return matches[0] if len(matches) == 1 else None

    def _owner_of(self, label: str) -> str | None:
        owners: set[str] = set()
        for part in module_parts(label):
            owner = None if "*" in part else self.owner(part)
            if owner is None:
                return None
            owners.add(owner)
        return owners.pop() if len(owners) == 1 else None

    def owner(self, module: str) -> str | None:
        if self.layers:
            layer = self.model.index.layer_of(module)
            return layer.name if layer is not None else None
        context = self.contexts.owner(module)
        return context.name if context is not None else None
