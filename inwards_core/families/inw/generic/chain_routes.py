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

import heapq
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


class SourceWalk:
    """One breadth-first walk from a unit's modules through every module a chain may pass,
    kept whole, so that each pair's other routes are found from it instead of by one more
    walk each.

    The walk visits modules in the order `_shortest` does, so a module's place in it is
    the smallest sequence (length first, then the position of each import in its module)
    over the ways to reach it: `order_key`. Cutting a route's imports changes the place of
    the modules whose walked way goes through a cut import only (`_moved`), and the
    shortest chain left is the first hit in the new order: the walk finds the same chain,
    import for import, as a new search over the whole graph would.
    """

    def __init__(self, model: ProjectModel, starts: Sequence[ModuleInfo], search: ChainSearch):
        self.model = model
        self.search = search
        self.sources = {info.name for info in starts}
        self.order_key: dict[str, tuple[int, ...]] = {}
        self.parent: dict[str, ImportEdge] = {}
        self.children: dict[str, list[str]] = {}
        # (module, position of its first import of it, that import), per module, both ways
        self.forward: dict[str, list[tuple[str, int, ImportEdge]]] = {}
        self.backward: dict[str, list[tuple[str, int, ImportEdge]]] = {}
        self.hits: dict[str, list[str]] = {}  # key -> the modules that import it, in order
        self.into: dict[str, list[ImportEdge]] = {}  # the sources' imports, by target
        for index, info in enumerate(starts):
            self.order_key[info.name] = (index,)
        frontier = list(starts)
        while frontier:
            following: list[ModuleInfo] = []
            for info in frontier:
                following.extend(self._visit(info))
            frontier = following

    def _visit(self, info: ModuleInfo) -> list[ModuleInfo]:
        search, name = self.search, info.name
        from_source = name in self.sources
        own_key = self.order_key[name]
        forward = self.forward.setdefault(name, [])
        children = self.children.setdefault(name, [])
        keys: set[str] = set()
        linked: set[str] = set()  # the modules it imports: the first import of each counts
        found: list[ModuleInfo] = []
        for position, edge in enumerate(self.model.import_edges(info)):
            if not search.takes(edge):
                continue
            target = edge.target
            if from_source:
                self.into.setdefault(target, []).append(edge)
            else:
                key = search.key_of(edge)
                if key is not None and key not in keys:
                    keys.add(key)
                    self.hits.setdefault(key, []).append(name)
            if (
                not edge.first_party
                or target in self.sources
                or target in linked
                or not search.passes(target)
            ):
                continue
            node = readable(self.model, target)
            if node is None:
                continue
            linked.add(target)
            forward.append((target, position, edge))
            self.backward.setdefault(target, []).append((name, position, edge))
            if target not in self.order_key:
                self.order_key[target] = (*own_key, position)
                self.parent[target] = edge
                children.append(target)
                found.append(node)
        return found

    def first_route(self, key: str) -> Route | None:
        """The shortest chain to `key` with its heads and tails, as `shortest_chains`."""
        steps = self.shortest(key, _Cuts())
        return None if steps is None else make_route(self.model, steps, self.into, key, self.search)

    def shortest(self, key: str, cuts: _Cuts) -> Chain | None:
        """`_shortest(model, starts, key, search, cuts)`, from the walk."""
        moved = self._moved(cuts)
        hits = self.hits.get(key, ())
        best: tuple[tuple[int, tuple[int, ...]], ImportEdge] | None = None
        for name in hits:  # the first module left in place that still imports `key`
            if name not in moved and name not in cuts.tails:
                edge = self._hit(name, key, cuts)
                if edge is not None:
                    walked = self.order_key[name]
                    best = ((len(walked), walked), edge)
                    break
        parents: dict[str, ImportEdge] = {}
        if moved:
            # A moved module comes after its walked place: only those walked before `best`
            # may now come first, and only the new order up to `best` is needed.
            bound = best[0] if best is not None else None
            wanted = {
                name
                for name in hits
                if name in moved
                and name not in cuts.tails
                and (bound is None or (len(self.order_key[name]), self.order_key[name]) < bound)
            }
            if wanted:
                found = self._reorder(moved, cuts, bound, wanted, key, parents)
                if found is not None:
                    best = found
        if best is None:
            return None
        steps = [best[1]]
        name = best[1].importer
        while name not in self.sources:
            step = parents[name] if name in moved else self.parent[name]
            steps.append(step)
            name = step.importer
        return tuple(reversed(steps))

    def _hit(self, name: str, key: str, cuts: _Cuts) -> ImportEdge | None:
        search = self.search
        for edge in self.model.import_edges(self.model.index.modules[name]):
            hit = search.takes(edge) and search.key_of(edge) == key
            if hit and (name, edge.target) not in cuts.links:
                return edge
        return None

    def _cut(self, importer: str, target: str, cuts: _Cuts) -> bool:
        if importer in self.sources and target in cuts.heads:
            return True
        return (importer, target) in cuts.links

    def _moved(self, cuts: _Cuts) -> set[str]:
        """The modules whose walked way goes through an import `cuts` takes away."""
        roots = [h for h in cuts.heads if self._walked_through(h, cuts)]
        roots += [target for _, target in cuts.links if self._walked_through(target, cuts)]
        moved: set[str] = set()
        while roots:
            name = roots.pop()
            if name not in moved:
                moved.add(name)
                roots.extend(self.children.get(name, ()))
        return moved

    def _reorder(
        self,
        moved: set[str],
        cuts: _Cuts,
        bound: tuple[int, tuple[int, ...]] | None,
        wanted: set[str],
        key: str,
        parents: dict[str, ImportEdge],
    ) -> tuple[tuple[int, tuple[int, ...]], ImportEdge] | None:
        """The walk's order rebuilt over the `moved` modules without the imports `cuts`
        takes away, in order, until the first of `wanted` with a hit of `key` (returned
        with its place and hit) or `bound`; `parents` gets each placed module's last
        import on its new way."""
        waiting: list[tuple[int, tuple[int, ...], str, ImportEdge]] = []
        for name in moved:
            for importer, position, edge in self.backward.get(name, ()):
                if importer not in moved and not self._cut(importer, name, cuts):
                    place = (*self.order_key[importer], position)
                    if bound is None or (len(place), place) < bound:
                        heapq.heappush(waiting, (len(place), place, name, edge))
        placed: set[str] = set()
        while waiting:
            size, place, name, edge = heapq.heappop(waiting)
            if bound is not None and (size, place) >= bound:
                return None
            if name in placed:
                continue
            placed.add(name)
            parents[name] = edge
            if name in wanted:
                hit = self._hit(name, key, cuts)
                if hit is not None:
                    return (size, place), hit
            for target, position, step in self.forward.get(name, ()):
                if target in moved and target not in placed and not self._cut(name, target, cuts):
                    heapq.heappush(waiting, (size + 1, (*place, position), target, step))
        return None

    def _walked_through(self, name: str, cuts: _Cuts) -> bool:
        step = self.parent.get(name)
        return step is not None and self._cut(step.importer, name, cuts)


def walked_routes(walk: SourceWalk, key: str) -> Route | None:
    """`with_other_routes` of the first route to `key`, from one walk: the same routes."""
    route = walk.first_route(key)
    if route is None:
        return None
    cuts = _Cuts()
    cuts.take(route)
    others: list[Route] = []
    while len(others) < MAX_OTHER_ROUTES:
        steps = walk.shortest(key, cuts)
        if steps is None:
            break
        others.append(make_route(walk.model, steps, walk.into, key, walk.search))
        cuts.take(steps)
    if not others:
        return route
    return Route(route, route.heads, route.tails, tuple(others))
