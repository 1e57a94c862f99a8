"""The graphs import-cycles works on and the two searches it needs, both linear: Tarjan's
strongly connected components (iterative, so that a long chain of imports can't exhaust the
stack) and the shortest cycle through one member of a component (breadth-first, inside it).

A graph is a mapping from each node to the nodes it links to, in name order, with one
import standing for each link (the first in module-name and source order)."""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterator, Mapping, Sequence

import attrs

from inwards_core import DynamicImportFact, ImportEdge, ImportFact, ModuleInfo, ProjectModel
from inwards_core.families.inw.contexts import ContextMap

_Fact = ImportFact | DynamicImportFact
# The import that stands for a link: the importing module, what it reaches, its fact.
_Link = tuple[ModuleInfo, str, _Fact]


@attrs.frozen
class Graph:
    following: Mapping[str, tuple[str, ...]]
    links: Mapping[tuple[str, str], _Link]

    def step(self, source: str, target: str) -> ImportEdge:
        """The import that makes the link, as an `ImportEdge` (built only for what a
        finding shows, not for every link)."""
        info, reached, fact = self.links[(source, target)]
        dynamic = isinstance(fact, DynamicImportFact)
        return ImportEdge(
            info.name, info.file, reached, True, fact.span, fact.statement, dynamic=dynamic
        )


def _runtime_imports(model: ProjectModel) -> Iterator[_Link]:
    """Each import of every read module with what it reaches, in module-name and source
    order, without those under `if TYPE_CHECKING:` (they never run, so they make no
    cycle). Read from the imports every kind shares, with no object made per import: the
    graphs keep one import per link and build its `ImportEdge` only then."""
    for info in sorted(model.checked, key=lambda info: info.name):
        facts = model.facts.get(info.file)
        if facts is None:
            continue
        found: list[_Link] = [
            (info, reached, fact)
            for fact, reached in model.resolved_imports(info)
            if reached is not None and not fact.type_checking
        ]
        if facts.dynamic_imports:
            found += [(info, d.target, d) for d in facts.dynamic_imports if d.target]
            found.sort(key=lambda item: (item[2].span.line, item[2].span.column))
        yield from found


def _graph(links: Mapping[tuple[str, str], _Link]) -> Graph:
    following: dict[str, list[str]] = {}
    for source, target in sorted(links):
        following.setdefault(source, []).append(target)
    return Graph({node: tuple(targets) for node, targets in following.items()}, links)


def module_graph(model: ProjectModel) -> Graph:
    """Nodes are the read modules; an import links its module to the longest read module
    that prefixes what it reaches (`from shop.billing.api import charge` reaches the module
    `shop.billing.api`; an import of a module that wasn't read, its closest read package)."""
    nodes = {info.name for info in model.checked}
    closest: dict[str, str | None] = {}

    def node_of(name: str) -> str | None:
        if name in closest:
            return closest[name]
        found = name if name in nodes else None
        if found is None and "." in name:
            found = node_of(name.rsplit(".", 1)[0])
        closest[name] = found
        return found

    links: dict[tuple[str, str], _Link] = {}
    for found in _runtime_imports(model):
        target = node_of(found[1])
        if target is not None and target != found[0].name:
            links.setdefault((found[0].name, target), found)
    return _graph(links)


def context_graph(model: ProjectModel, contexts: ContextMap) -> Graph:
    """Nodes are the contexts; an import from a module of one context into code of another
    links the two."""
    links: dict[tuple[str, str], _Link] = {}
    first_party = model.index.is_first_party
    for found in _runtime_imports(model):
        source = contexts.owner(found[0].name)
        target = contexts.owner(found[1])
        if source is None or target is None or source is target:
            continue
        link = (source.name, target.name)
        if link not in links and first_party(found[1]):
            links[link] = found
    return _graph(links)


def components(graph: Graph) -> list[tuple[str, ...]]:
    """Each strongly connected component of two nodes or more, its members in name order;
    the components ordered by their first member."""
    following = graph.following
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    for root in sorted(following):
        if root in order:
            continue
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        work: list[tuple[str, Iterator[str]]] = [(root, iter(following.get(root, ())))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(following.get(child, ()))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], order[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == order[node]:
                    member = ""
                    component: list[str] = []
                    while member != node:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                    if len(component) > 1:
                        found.append(tuple(sorted(component)))
    return sorted(found)


def shortest_cycle(graph: Graph, members: Sequence[str]) -> tuple[str, ...]:
    """The shortest cycle through the first member, inside the component (breadth-first,
    links in name order): `(a, b, c)` for a -> b -> c -> a."""
    inside = set(members)
    start = members[0]
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in graph.following.get(node, ()):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return tuple(reversed(path))
            if target in inside and target not in came_from:
                came_from[target] = node
                queue.append(target)
    raise ValueError("a strongly connected component always holds a cycle")


def component_links(graph: Graph, members: Sequence[str]) -> list[tuple[str, str]]:
    inside = set(members)
    return [
        (source, target)
        for source in members
        for target in graph.following.get(source, ())
        if target in inside
    ]


def links_hash(links: Sequence[tuple[str, str]]) -> str:
    """16 hex digits that change whenever a link joins or leaves the group."""
    text = "\n".join(f"{source} -> {target}" for source, target in sorted(links))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
