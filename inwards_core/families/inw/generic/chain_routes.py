"""The routes of an indirect chain, as import-linter prints them for a pair (source, target):
the chain with its other heads (imports from the source into its first middle module) and
tails (imports from its last middle module into the target), and the other routes of the
pair: import-linter takes the shortest chain away (the source's imports of its first middle
module, each link in the middle, the last middle module's imports of the target) and looks
again, until none is left.

A forbidden contract's chains are found another way (`pair_chains`): import-linter takes
away only the imports of each chain found (importer and imported module), so a pair's
chains may share a first or last middle module."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from inwards_core import ImportEdge, ModuleInfo, ProjectModel

Chain = tuple[ImportEdge, ...]

# The other routes listed per pair at most: each costs one more search, and a message
# stays readable (import-linter lists them all).
MAX_OTHER_ROUTES = 10


class Route(tuple[ImportEdge, ...]):
    """A chain (its steps, as a tuple) with the other imports of its route: `heads`, the
    other imports from the source into the chain's first middle module, and `tails`, the
    other imports from its last middle module into the target; each in module and line
    order, never the chain's own first or last step. `others`: the pair's other routes."""

    heads: tuple[ImportEdge, ...]
    tails: tuple[ImportEdge, ...]
    others: tuple[Route, ...]

    def __new__(
        cls,
        steps: Iterable[ImportEdge],
        heads: tuple[ImportEdge, ...] = (),
        tails: tuple[ImportEdge, ...] = (),
        others: tuple[Route, ...] = (),
    ) -> Route:
        route = super().__new__(cls, steps)
        route.heads = heads
        route.tails = tails
        route.others = others
        return route


@attrs.frozen
class ChainSearch:
    """What a chain search follows: `hit` keys an import that ends a chain, `passable`
    names the modules a chain may go through, `follows` leaves imports out (`allow`).

    Each answer is kept for the run's later searches of the same rule (the other routes
    search the same graph again): edges by identity, as the model keeps them all."""

    hit: Callable[[ImportEdge], str | None]
    passable: Callable[[str], bool]
    follows: Callable[[ImportEdge], bool] | None = None
    _hits: dict[int, str | None] = attrs.field(factory=dict, init=False)
    _takes: dict[int, bool] = attrs.field(factory=dict, init=False)
    _passes: dict[str, bool] = attrs.field(factory=dict, init=False)

    def key_of(self, edge: ImportEdge) -> str | None:
        known = self._hits
        if id(edge) not in known:
            known[id(edge)] = self.hit(edge)
        return known[id(edge)]

    def takes(self, edge: ImportEdge) -> bool:
        if self.follows is None:
            return True
        found = self._takes.get(id(edge))
        if found is None:
            found = self._takes[id(edge)] = self.follows(edge)
        return found

    def passes(self, name: str) -> bool:
        found = self._passes.get(name)
        if found is None:
            found = self._passes[name] = self.passable(name)
        return found


def readable(model: ProjectModel, name: str) -> ModuleInfo | None:
    """The module named `name` when its file was read (a node a chain can go through)."""
    info = model.index.modules.get(name)
    if info is None or info.file not in model.facts:
        return None
    return info


def path_to(name: str, reached_by: Mapping[str, ImportEdge]) -> Chain:
    steps: list[ImportEdge] = []
    while name in reached_by:
        edge = reached_by[name]
        steps.append(edge)
        name = edge.importer
    return tuple(reversed(steps))


def make_route(
    model: ProjectModel,
    steps: Chain,
    into: Mapping[str, list[ImportEdge]],
    key: str,
    search: ChainSearch,
) -> Route:
    """`steps` with the other imports of its route: the sources' imports of the first
    middle module (`into`: every import of the sources, by what it imports), and the last
    middle module's imports that `hit` gives `key`."""
    first, last = steps[0], steps[-1]
    heads = _others(into.get(first.target, ()), first, by=lambda edge: edge.importer)
    info = model.index.modules[last.importer]
    ends = [e for e in model.import_edges(info) if search.takes(e) and search.key_of(e) == key]
    return Route(steps, heads, _others(ends, last, by=lambda edge: edge.target))


def _others(
    edges: Iterable[ImportEdge], own: ImportEdge, by: Callable[[ImportEdge], str]
) -> tuple[ImportEdge, ...]:
    """`edges` in name and line order, one per import statement and name `by` gives (an
    edge stands for one imported name; import-linter counts statements), leaving out the
    statement of `own`."""

    def statement(edge: ImportEdge) -> tuple[str, str, int]:
        return (by(edge), edge.importer, edge.line)

    kept: dict[tuple[str, str, int], ImportEdge] = {statement(own): own}
    for edge in edges:
        kept.setdefault(statement(edge), edge)
    del kept[statement(own)]
    return tuple(sorted(kept.values(), key=lambda edge: (by(edge), edge.span)))


@attrs.define
class _Cuts:
    """What the routes found so far take away from the graph of one pair."""

    heads: set[str] = attrs.Factory(set)  # first middle modules: no source import of them
    links: set[tuple[str, str]] = attrs.Factory(set)  # (importer, imported) in the middle
    tails: set[str] = attrs.Factory(set)  # last middle modules: no import of the target

    def take(self, steps: Chain) -> None:
        self.heads.add(steps[0].target)
        self.links.update((edge.importer, edge.target) for edge in steps[1:-1])
        self.tails.add(steps[-1].importer)

    def take_imports(self, steps: Chain) -> None:
        """A forbidden contract's cut: only the chain's own imports, first and last too."""
        self.links.update((edge.importer, edge.target) for edge in steps)


def with_other_routes(
    model: ProjectModel,
    starts: Sequence[ModuleInfo],
    route: Route,
    key: str,
    context: tuple[ChainSearch, Mapping[str, list[ImportEdge]]],
) -> Route:
    """`route` (the pair's shortest) with the pair's other routes, found as import-linter
    finds them, at most `MAX_OTHER_ROUTES`."""
    search, into = context
    cuts = _Cuts()
    cuts.take(route)
    others: list[Route] = []
    while len(others) < MAX_OTHER_ROUTES:
        steps = _shortest(model, starts, key, search, cuts)
        if steps is None:
            break
        others.append(make_route(model, steps, into, key, search))
        cuts.take(steps)
    if not others:
        return route
    return Route(route, route.heads, route.tails, tuple(others))


def _shortest(
    model: ProjectModel, starts: Sequence[ModuleInfo], key: str, search: ChainSearch, cuts: _Cuts
) -> Chain | None:
    """The shortest chain from `starts` to `key` that takes nothing `cuts` took away, in
    the same order as the first search."""
    source_names = {info.name for info in starts}
    reached_by: dict[str, ImportEdge] = {}
    seen = set(source_names)
    frontier = list(starts)
    while frontier:
        following: list[ModuleInfo] = []
        for info in frontier:
            from_source = info.name in source_names
            for edge in model.import_edges(info):
                if not search.takes(edge) or (from_source and edge.target in cuts.heads):
                    continue
                if not from_source and search.key_of(edge) == key:
                    if info.name not in cuts.tails and (info.name, edge.target) not in cuts.links:
                        return (*path_to(info.name, reached_by), edge)
                    continue
                target = edge.target
                if (
                    not edge.first_party
                    or target in seen
                    or (info.name, target) in cuts.links
                    or not search.passes(target)
                ):
                    continue
                node = readable(model, target)
                if node is not None:
                    seen.add(target)
                    reached_by[target] = edge
                    following.append(node)
        frontier = following
    return None


def pair_chains(
    model: ProjectModel, starts: Sequence[ModuleInfo], key: str, search: ChainSearch
) -> Route | None:
    """The chains from `starts` to `key` as import-linter finds them for a forbidden
    contract: the shortest, then again without the imports of the chains found so far, at
    most `MAX_OTHER_ROUTES` more; each with its heads and tails, as `make_route` gives
    them. None when there is no chain."""
    into: dict[str, list[ImportEdge]] = {}
    for info in starts:
        for edge in model.import_edges(info):
            if search.takes(edge):
                into.setdefault(edge.target, []).append(edge)
    cuts = _Cuts()
    found: list[Route] = []
    while len(found) <= MAX_OTHER_ROUTES:
        steps = _shortest(model, starts, key, search, cuts)
        if steps is None:
            break
        found.append(make_route(model, steps, into, key, search))
        cuts.take_imports(steps)
    if not found:
        return None
    first, *others = found
    return Route(first, first.heads, first.tails, tuple(others))
