"""Closest-name suggestions for a module that does not exist ("did you mean", INW010).

Ranked by edit distance (Levenshtein), ties by name, with no cut-off: the few children of
one package are all plausible, and a one-letter slip (`pricng`) ranks first. difflib's
similarity ratio, which the rule lookups use, ranks differently (`module_numbr_5` among
`module_number_0..199`: `_5, _0, _1` by edit distance, `_5, _95, _85` by ratio).
"""

from __future__ import annotations

from collections.abc import Mapping, Set

# How much comparing (characters of the missing name times characters of a candidate,
# summed) one index spends on suggesting close modules: each unknown import compared with
# every module of its package, in pure Python, took seconds per thousand findings. Past
# it, findings suggest none; a name longer than any module's is not a typo of one.
_CLOSEST_BUDGET = 5_000_000
_CLOSEST_MAX_LENGTH = 100


def edit_distance(left: str, right: str, limit: int | None = None) -> int:
    """Levenshtein distance; with `limit`, any answer over it may come back as `limit + 1`
    (the rows stop once every cell is past it)."""
    if limit is not None and abs(len(left) - len(right)) > limit:
        return limit + 1
    previous = list(range(len(right) + 1))
    for i, left_char in enumerate(left, start=1):
        current = [i]
        for j, right_char in enumerate(right, start=1):
            current.append(
                min(
                    previous[j] + 1,
                    current[j - 1] + 1,
                    previous[j - 1] + (left_char != right_char),
                )
            )
        previous = current
        if limit is not None and min(previous) > limit:
            return limit + 1
    return previous[-1]


class ClosestNames:
    """The children of a package closest to a missing segment, within one budget of
    comparing per index (per run), each answer kept."""

    __slots__ = ("_cache", "_children", "_spent")

    def __init__(self, children: Mapping[str, Set[str]]) -> None:
        self._children = children
        self._cache: dict[tuple[str, str, int], tuple[str, ...]] = {}
        self._spent = 0

    def closest(self, parent: str, segment: str, limit: int) -> tuple[str, ...]:
        """The `limit` dotted names below `parent` closest to `segment`."""
        key = (parent, segment, limit)
        known = self._cache.get(key)
        if known is None:
            known = self._cache[key] = self._closest(parent, segment, limit)
        return known

    def _closest(self, parent: str, segment: str, limit: int) -> tuple[str, ...]:
        # Only names an import statement can write: `0001_initial` or `my-script` are
        # modules importlib loads, never a spelling to suggest.
        children = sorted(c for c in self._children.get(parent, ()) if c.isidentifier())
        cost = len(segment) * sum(map(len, children))
        if len(segment) > _CLOSEST_MAX_LENGTH or self._spent + cost > _CLOSEST_BUDGET:
            return ()
        self._spent += cost
        best: list[tuple[int, str]] = []  # the `limit` closest so far, in order
        for child in children:
            bound = best[-1][0] if len(best) == limit else None
            distance = edit_distance(segment, child, bound)
            if bound is None or distance <= bound:
                best.append((distance, child))
                best.sort()
                del best[limit:]
        return tuple(f"{parent}.{child}" if parent else child for _, child in best)
