"""Imports as the generic kinds report them: the shortest indirect chains (with
`indirect = true`, through any first-party module, found breadth-first in a fixed order),
each with the other imports of its route (as import-linter prints them: every import from
the source into the chain's first middle module, every import from its last middle module
into the target), and the wording and guidance parameters of direct imports and chains."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from inwards_core import (
    LIST_LIMIT,
    ChainStep,
    Fix,
    ImportEdge,
    ModuleInfo,
    ProjectModel,
    Violation,
    quoted,
)
from inwards_core.families.inw.generic.chain_routes import (
    MAX_OTHER_ROUTES,
    ChainSearch,
    Route,
    SourceWalk,
    make_route,
    pair_chains,
    path_to,
    walked_routes,
    with_other_routes,
)
from inwards_core.families.inw.generic.chain_routes import Chain as Chain  # the kinds take it here
from inwards_core.families.inw.generic.chain_routes import readable as readable
from inwards_core.families.inw.module_entries import checked_in, checked_in_each, covers


def shortest_chains(
    model: ProjectModel,
    sources: Iterable[ModuleInfo],
    hit: Callable[[ImportEdge], str | None],
    passable: Callable[[str], bool],
    follows: Callable[[ImportEdge], bool] | None = None,
) -> dict[str, Route]:
    """For each key `hit` gives, the shortest indirect chain (two imports or more) from a
    source module through `passable` first-party modules to an import that `hit` keys,
    as a `Route` with the other imports from the sources into its first middle module
    and from its last middle module to that key, and the other routes of that pair.

    Breadth-first from the sources in name order, imports in source order: the result
    depends only on the code. Imports straight from a source are the direct findings and
    start chains but never end one. `follows` leaves imports out of the graph (`allow`).
    """
    starts = sorted(sources, key=lambda info: info.name)
    source_names = {info.name for info in starts}
    reached_by: dict[str, ImportEdge] = {}
    seen = set(source_names)
    found: dict[str, Route] = {}
    into: dict[str, list[ImportEdge]] = {}  # imports from the sources, by what they import
    search = ChainSearch(hit, passable, follows)
    frontier = starts
    while frontier:
        following: list[ModuleInfo] = []
        for info in frontier:
            for edge in model.import_edges(info):
                if not search.takes(edge):
                    continue
                if info.name not in source_names:
                    key = search.key_of(edge)
                    if key is not None and key not in found:
                        steps = (*path_to(info.name, reached_by), edge)
                        found[key] = make_route(model, steps, into, key, search)
                else:
                    into.setdefault(edge.target, []).append(edge)
                target = edge.target
                if not edge.first_party or target in seen or not search.passes(target):
                    continue
                node = readable(model, target)
                if node is None:
                    continue
                seen.add(target)
                reached_by[target] = edge
                following.append(node)
        frontier = following
    return {
        key: with_other_routes(model, starts, route, key, (search, into))
        for key, route in found.items()
    }


def chains_from_each(
    model: ProjectModel,
    sources: Sequence[str],
    ends: Sequence[str],
    hit: Callable[[str, ImportEdge], str | None],
    passable: Callable[[str, str], bool],
    follows: Callable[[ImportEdge], bool] | None = None,
    *,
    as_packages: bool = True,
) -> Iterator[tuple[str, str, Chain]]:
    """`indirect = true` on a whole-project run: for each entry of `sources`, the shortest
    chain from the modules it covers to each key of `ends` that `hit` gives, as
    `(source, end, chain)` in the order of `sources` and then of `ends`. `hit` and
    `passable` take the source entry first (see `shortest_chains`). With `as_packages`
    false a chain starts only at the module an entry names; the modules below it are
    ordinary modules a chain may go through.

    One walk of the graph per entry of `sources` (`SourceWalk`) gives every end's chain
    and other routes: the same as `shortest_chains` and `with_other_routes` would, without
    a search of the whole graph per route."""
    if not model.whole_project:
        return
    members = checked_in_each(model, sources)
    takes = None if follows is None else _kept(follows)
    for source in sources:
        starts = members[source]
        if not as_packages:
            starts = [i for i in starts if covers(source, i.name, as_package=False)]
        search = ChainSearch(
            functools.partial(hit, source), functools.partial(passable, source), takes
        )
        walk = SourceWalk(model, starts, search)  # one walk for every end and route
        for end in ends:
            chain = walked_routes(walk, end)
            if chain is not None:
                yield source, end, chain


def _kept(follows: Callable[[ImportEdge], bool]) -> Callable[[ImportEdge], bool]:
    """`follows` asked once per import for every unit's search (edges by identity)."""
    known: dict[int, bool] = {}

    def takes(edge: ImportEdge) -> bool:
        found = known.get(id(edge))
        if found is None:
            found = known[id(edge)] = follows(edge)
        return found

    return takes


def pair_chains_from_each(
    model: ProjectModel,
    sources: Sequence[str],
    ends: Sequence[str],
    hit: Callable[[str, str, ImportEdge], bool],
    passable: Callable[[str, str, str], bool],
    follows: Callable[[ImportEdge], bool] | None = None,
    *,
    as_packages: bool = True,
) -> Iterator[tuple[str, str, Chain]]:
    """`chains_from_each` for a forbidden contract, searched pair by pair as import-linter
    does: `hit` and `passable` take the source entry and the end first, so a chain may go
    through the modules of the other ends (see `pair_chains` for the chains it lists)."""
    if not model.whole_project:
        return
    takes = (lambda _edge: True) if follows is None else _kept(follows)
    for source in sources:
        starts = list(checked_in(model, (source,)))
        if not as_packages:
            starts = [i for i in starts if covers(source, i.name, as_package=False)]
        reached = _ends_in_reach(model, starts, ends, (source, hit, passable), takes)
        for end in ends:
            if end not in reached:
                continue  # no chain to it: spare the pair its search

            def hit_end(edge: ImportEdge, source: str = source, end: str = end) -> str | None:
                return end if hit(source, end, edge) else None

            search = ChainSearch(hit_end, functools.partial(passable, source, end), takes)
            chain = pair_chains(model, starts, end, search)
            if chain is not None:
                yield source, end, chain


def _ends_in_reach(
    model: ProjectModel,
    starts: Sequence[ModuleInfo],
    ends: Sequence[str],
    rule: tuple[
        str, Callable[[str, str, ImportEdge], bool], Callable[[str, str, str], bool]
    ],  # the source entry, `hit` and `passable` of `pair_chains_from_each`
    takes: Callable[[ImportEdge], bool],
) -> set[str]:
    """The ends some chain from `starts` may reach: one walk through every module that
    some pair lets a chain pass (as import-linter first looks which forbidden modules a
    source reaches at all), so that a pair with no chain costs no search of its own."""
    source, hit, passable = rule
    names = {info.name for info in starts}
    seen = set(names)
    found: set[str] = set()
    frontier = list(starts)
    while frontier:
        following: list[ModuleInfo] = []
        for info in frontier:
            for edge in model.import_edges(info):
                if not takes(edge):
                    continue
                if info.name not in names:
                    found.update(end for end in ends if hit(source, end, edge))
                target = edge.target
                if not edge.first_party or target in seen:
                    continue
                if not any(passable(source, end, target) for end in ends):
                    continue
                node = readable(model, target)
                if node is not None:
                    seen.add(target)
                    following.append(node)
        frontier = following
    return found


def chain_modules(chain: Chain) -> str:
    """`shop.domain.order:3 -> shop.common.http:1 -> requests`: each step's importer and
    line; a step that starts elsewhere than the last one ended begins a new run (`; `)."""
    return _render_chain(chain, lambda edge: f"{quoted(edge.importer)}:{edge.line}")


def chain_files(chain: Chain) -> str:
    """The same chain with the file and line of each import, for messages."""
    return _render_chain(
        chain, lambda edge: f"{quoted(edge.importer)} ({quoted(edge.file)}:{edge.line})"
    )


def chain_names(chain: Chain) -> str:
    """The chain without lines (stable across edits): `a -> b -> requests`."""
    return _render_chain(chain, lambda edge: quoted(edge.importer))


def via(chain: Chain) -> str:
    """The modules in the middle of a chain: `shop.util.fetch -> shop.util.http`."""
    return quoted(" -> ".join(quoted(edge.target) for edge in chain[:-1]), LIST_LIMIT)


def _render_chain(chain: Chain, step: Callable[[ImportEdge], str]) -> str:
    parts: list[str] = []
    for position, edge in enumerate(chain):
        if position and chain[position - 1].target != edge.importer:
            parts.append(f"{quoted(chain[position - 1].target)}; ")
        parts.append(f"{step(edge)} -> ")
    return quoted("".join(parts) + (quoted(chain[-1].target) if chain else ""), LIST_LIMIT)


def _heads(chain: Chain) -> tuple[ImportEdge, ...]:
    return chain.heads if isinstance(chain, Route) else ()


def _tails(chain: Chain) -> tuple[ImportEdge, ...]:
    return chain.tails if isinstance(chain, Route) else ()


def _others(chain: Chain) -> tuple[Route, ...]:
    return chain.others if isinstance(chain, Route) else ()


def _also(chain: Chain) -> list[str]:
    """`also into m: a (file:line), ...` and `also from m: ...` for a route's other heads and
    tails."""
    parts = []
    if heads := _heads(chain):
        listed = ", ".join(f"{quoted(e.importer)} ({quoted(e.file)}:{e.line})" for e in heads)
        parts.append(f"also into {quoted(chain[0].target)}: {quoted(listed, LIST_LIMIT)}")
    if tails := _tails(chain):
        listed = ", ".join(f"{quoted(e.target)} ({quoted(e.file)}:{e.line})" for e in tails)
        parts.append(f"also from {quoted(chain[-1].importer)}: {quoted(listed, LIST_LIMIT)}")
    return parts


def route_files(chain: Chain) -> str:
    """The rest of a chain's routes, with file and line, as sentences for messages (empty
    when there is none): its other heads and tails, then the pair's other routes."""
    text = "".join(f" {part[0].upper()}{part[1:]}." for part in _also(chain))
    if others := _others(chain):
        listed = "; ".join(
            chain_files(route) + "".join(f" ({part})" for part in _also(route)) for route in others
        )
        text += f" Other routes ({len(others)}): {listed}."
    return text


def chain_params(chain: Chain) -> dict[str, str]:
    """The guidance parameters every chain finding fills."""
    first, last = chain[0], chain[-1]
    heads = (first, *_heads(chain))
    tails = (last, *_tails(chain))
    return {
        "module": quoted(first.importer),
        "statement": first.statement,
        "chain": chain_modules(chain),
        "via": via(chain),
        "imported": quoted(last.target),
        "routes": str(1 + len(_others(chain))),
        "heads": quoted(", ".join(f"{quoted(e.importer)}:{e.line}" for e in heads), LIST_LIMIT),
        "tails": quoted(
            ", ".join(f"{quoted(e.importer)}:{e.line} -> {quoted(e.target)}" for e in tails),
            LIST_LIMIT,
        ),
    }


# The paragraph of each chain-following kind's "What it does" about a pair's other routes.
OTHER_ROUTES_DOCS = f"""
When more routes lead from one to the other, the finding lists them too (up to \
{MAX_OTHER_ROUTES}), each
found as import-linter finds its routes: the shortest one left once the imports that start,
link and end the routes already listed are taken away.
"""


# The guidance parameters of a chain's route that `chain_params` adds (`direct_params` too).
ROUTE_PARAMS = {
    "heads": "every import that starts the route, as `module:line` (for a direct import: it)",
    "tails": "every import that ends the route, as `module:line -> imported`",
    "routes": "how many routes lead from the source to the target (1 for a direct import)",
}


def chain_steps(chain: Sequence[ImportEdge]) -> tuple[ChainStep, ...]:
    """The imports of a chain as the finding carries them (`Finding.chain`)."""
    return tuple(ChainStep(edge.importer, edge.target, edge.file, edge.span) for edge in chain)


def chain_violation(
    chain: Chain, stable: str, source: str, target: str, params: Mapping[str, str]
) -> Violation:
    """A finding for an indirect chain from `source` to `target`, located at its first
    import; the message ends with every step's file and line."""
    first = chain[0]
    return Violation(
        file=first.file,
        module=first.importer,
        span=first.span,
        message=f"{stable} Chain: {chain_files(chain)}.{route_files(chain)}",
        stable_message=stable,
        params={**chain_params(chain), **params},
        chain=chain_steps(chain),
        fallback=Fix(
            f'Cut the chain from "{quoted(source)}" to "{quoted(target)}".',
            (
                f"Remove one import of the chain {chain_names(chain)}: `{first.statement}`, or "
                "one in a module in the middle.",
                *(
                    (
                        f"Other imports into {quoted(first.target)} start the same route (the "
                        "message lists them): remove them too, or cut the route in the middle.",
                    )
                    if _heads(chain)
                    else ()
                ),
                *(
                    (
                        f"Cut the {len(_others(chain))} other route(s) the message lists as "
                        "well: each leads to the same place.",
                    )
                    if _others(chain)
                    else ()
                ),
            ),
        ),
    )


def direct_params(edge: ImportEdge) -> dict[str, str]:
    """The guidance parameters of a direct import, filled as for a chain of one step."""
    step = f"{quoted(edge.importer)}:{edge.line}"
    return {
        "module": quoted(edge.importer),
        "statement": edge.statement,
        "chain": f"{step} -> {quoted(edge.target)}",
        "via": "",
        "imported": quoted(edge.target),
        "heads": step,
        "tails": f"{step} -> {quoted(edge.target)}",
        "routes": "1",
    }
