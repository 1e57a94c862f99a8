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
from inwards_core.families.inw.contexts.context_map import ContextImports

_Fact = ImportFact | DynamicImportFact
# The import that stands for a link: the importing module, what it reaches, its fact.
_Link = tuple[ModuleInfo, str, _Fact]


@attrs.frozen
class Graph:
    """`following` maps each node to the nodes it links to, in name order; `links` each
    node to the import that stands for each of its links, by the node linked to."""

    following: Mapping[str, tuple[str, ...]]
    links: Mapping[str, Mapping[str, _Link]]

    def step(self, source: str, target: str) -> ImportEdge:
        """The import that makes the link, as an `ImportEdge` (built only for what a
        finding shows, not for every link)."""
        info, reached, fact = self.links[source][target]
        dynamic = isinstance(fact, DynamicImportFact)
        return ImportEdge(
            info.name, info.file, reached, True, fact.span, fact.statement, dynamic=dynamic
        )


def _runtime_imports(model: ProjectModel, info: ModuleInfo) -> list[_Link]:
    """Each import of a module that has dynamic ones, with what it reaches, in source
    order, without those under `if TYPE_CHECKING:` (they never run, so they make no
    cycle). Modules without dynamic imports (nearly all) are read straight from the static
    imports every kind shares, with no object made per import."""
    found: list[_Link] = [
        (info, reached, fact)
        for fact, reached in model.resolved_imports(info)
        if reached is not None and not fact.type_checking
    ]
    found += [(info, d.target, d) for d in model.facts[info.file].dynamic_imports if d.target]
    found.sort(key=lambda item: (item[2].span.line, item[2].span.column))
    return found


def _graph(links: dict[str, dict[str, _Link]]) -> Graph:
    following = {node: tuple(sorted(targets)) for node, targets in links.items()}
    return Graph(following, links)


def module_graph(model: ProjectModel) -> Graph:
    """Nodes are the read modules; an import links its module to the longest read module
    that prefixes what it reaches (`from shop.billing.api import charge` reaches the module
    `shop.billing.api`; an import of a module that wasn't read, its closest read package)."""
    closest: dict[str, str | None] = {info.name: info.name for info in model.checked}

    def node_of(name: str) -> str | None:
        try:
            return closest[name]
        except KeyError:
            found = closest[name] = node_of(name.rsplit(".", 1)[0]) if "." in name else None
            return found

    links: dict[str, dict[str, _Link]] = {}
    facts = model.facts
    for info in model.checked:
        if info.file not in facts:
            continue
        source = info.name
        first: dict[str, _Link] = {}  # per module linked to, the first import that does
        if facts[info.file].dynamic_imports:
            for link in _runtime_imports(model, info):
                target = node_of(link[1])
                if target is not None and target != source and target not in first:
                    first[target] = link
        else:
            for fact, reached in model.resolved_imports(info):
                if reached is None or fact.type_checking:
                    continue
                try:
                    target = closest[reached]
                except KeyError:
                    target = node_of(reached)
                if target is not None and target != source and target not in first:
                    first[target] = (info, reached, fact)
        if first:
            links[source] = first
    return _graph(links)


def context_graph(model: ProjectModel, shared: ContextImports) -> Graph:
    """Nodes are the contexts; an import from a module of one context into code of another
    links the two. The import that stands for a link is the first in module-name and
    source order; made from the imports into other contexts the context kinds share."""
    owner = shared.contexts.owner
    first_party = model.index.is_first_party
    crossings = {module.info.name: module for module in shared.modules}
    facts = model.facts
    dynamic = {
        info.name: info
        for info in model.checked
        if info.file in facts and facts[info.file].dynamic_imports
    }
    links: dict[str, dict[str, _Link]] = {}
    for name in sorted(crossings.keys() | dynamic.keys()):
        info = dynamic[name] if name in dynamic else crossings[name].info
        source = owner(name)
        if source is None:
            continue
        first = links.setdefault(source.name, {})
        if name in dynamic:
            for link in _runtime_imports(model, info):
                target = owner(link[1])
                if target is None or target is source or target.name in first:
                    continue
                if first_party(link[1]):
                    first[target.name] = link
        else:
            for fact, reached, target in crossings[name].crossings:
                if not fact.type_checking and target.name not in first:
                    first[target.name] = (info, reached, fact)
    return _graph({node: first for node, first in links.items() if first})


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
                if child in on_stack and order[child] < low[node]:
                    low[node] = order[child]
            else:
                work.pop()
                reaches = low[node]
                if work and reaches < low[work[-1][0]]:
                    low[work[-1][0]] = reaches
                if reaches == order[node]:
                    at = len(stack) - 1
                    while stack[at] != node:
                        at -= 1
                    component = stack[at:]
                    del stack[at:]
                    on_stack.difference_update(component)
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
    text = "\n".join(map(" -> ".join, sorted(links)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
