"""Inclusion cycles among the project graph's nodes (FAPI003): routers that include each
other, directly or through others, or a router that includes itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inwards_rules_fastapi.graph import Graph, Inclusion


def cycles(graph: Graph) -> Iterator[tuple[tuple[str, ...], Inclusion]]:
    """Each cycle once, as (its nodes in inclusion order, starting at the child of the
    inclusion that closes it; that inclusion): the last inclusion of the cycle in source
    order (file, line) closes it. Strongly connected groups are found with Tarjan's
    algorithm, iteratively; a group of several cycles is reported by one of them."""
    edges: dict[str, list[Inclusion]] = {}
    for inclusion in graph.inclusions:
        if inclusion.parent is not None and inclusion.child is not None:
            edges.setdefault(inclusion.parent, []).append(inclusion)
    for group in _groups(edges):
        inside = [i for node in sorted(group) for i in edges.get(node, ()) if i.child in group]
        if not inside:
            continue
        closing = max(inside, key=lambda i: (i.file, i.call.span.line, i.call.span.column))
        assert closing.child is not None and closing.parent is not None
        yield _path(edges, group, closing.child, closing.parent), closing


def _path(
    edges: dict[str, list[Inclusion]], group: set[str], start: str, end: str
) -> tuple[str, ...]:
    """The shortest chain of inclusions from `start` to `end` inside the group."""
    previous: dict[str, str] = {start: start}
    todo = [start]
    while todo and end not in previous:
        following: list[str] = []
        for node in todo:
            for inclusion in edges.get(node, ()):
                child = inclusion.child
                if child in group and child not in previous:
                    assert child is not None
                    previous[child] = node
                    following.append(child)
        todo = following
    chain = [end]
    while chain[-1] != start:
        chain.append(previous[chain[-1]])
    return tuple(reversed(chain))


def _groups(edges: dict[str, list[Inclusion]]) -> Iterator[set[str]]:
    """Strongly connected groups with a cycle (several nodes, or a self-inclusion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = [i.child for i in edges.get(node, ()) if i.child is not None]
            if position < len(children):
                work.append((node, position + 1))
                child = children[position]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                group: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1 or node in children:
                    yield group
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
