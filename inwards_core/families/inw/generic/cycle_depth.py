"""inw.acyclic's `depth` and `skip-descendants`: the packages whose children are checked for
cycles, going down from each of `packages` as import-linter's acyclic_siblings does."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set

from inwards_core import ProjectModel


def check_depth(value: int) -> str | None:
    return None if value >= 0 else f"must be 0 or more, not {value}."


def _children(names: Iterable[str]) -> dict[str, set[str]]:
    """Each package with its direct children (modules or packages), from every module name."""
    children: dict[str, set[str]] = {}
    for name in names:
        parts = name.split(".")
        for cut in range(1, len(parts)):
            children.setdefault(".".join(parts[:cut]), set()).add(".".join(parts[: cut + 1]))
    return children


def packages_to_depth(
    model: ProjectModel, roots: Set[str], depth: int, skipped: Set[str]
) -> list[str]:
    """`roots` and, `depth` levels down, every package below them that has children and is
    not in `skipped` nor below a skipped one, in name order."""
    if depth == 0:
        return sorted(roots)
    children = _children(model.index.modules)
    found: set[str] = set()
    level = set(roots)
    for remaining in range(depth, -1, -1):
        found |= level
        if not remaining:
            break
        level = _next_level(level, children, skipped) - found
    return sorted(found)


def _next_level(level: Set[str], children: Mapping[str, set[str]], skipped: Set[str]) -> set[str]:
    return {
        child
        for package in level
        for child in children.get(package, ())
        if child not in skipped and child in children
    }
