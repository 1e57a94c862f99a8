"""The configuration against the tree: layer entries and layers that own nothing (dead
configuration), and the packages that no layer owns (INW006)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from inwards_core.config.patterns import ModulePattern
from inwards_core.config.values import Layer
from inwards_core.index.naming import ModuleInfo, ModuleTree, parents
from inwards_core.index.ownership import LayerEntry


class DeadConfiguration:
    """The layer entries that match no module of the tree, found on first need."""

    __slots__ = ("_dead", "_entries", "_layers", "_tree")

    def __init__(
        self, layers: tuple[Layer, ...], entries: tuple[LayerEntry, ...], tree: ModuleTree
    ) -> None:
        self._layers = layers
        self._entries = entries
        self._tree = tree
        self._dead: tuple[LayerEntry, ...] | None = None

    def unmatched_patterns(self) -> tuple[tuple[Layer, int], ...]:
        """Layer entries that match no module of the project (dead prefixes/selectors),
        in configuration order, each as the layer and the index in its `modules`."""
        return tuple((entry.layer, entry.entry_index) for entry in self._dead_entries())

    def empty_layers(self) -> tuple[Layer, ...]:
        """Layers none of whose entries matches a module (including layers without any)."""
        dead = set(self._dead_entries())
        alive = {entry.layer_index for entry in self._entries if entry not in dead}
        return tuple(layer for index, layer in enumerate(self._layers) if index not in alive)

    def _dead_entries(self) -> tuple[LayerEntry, ...]:
        if self._dead is None:
            by_top: dict[str, list[str]] = {}
            for name in self._tree.module_files:
                by_top.setdefault(name.partition(".")[0], []).append(name)
            self._dead = tuple(
                entry
                for entry in self._entries
                if not self._matches_some_module(entry.pattern, by_top)
            )
        return self._dead

    def _matches_some_module(self, pattern: ModulePattern, by_top: dict[str, list[str]]) -> bool:
        if not pattern.is_selector:
            return pattern.text in self._tree.prefixes
        return any(pattern.matches(name) for name in by_top.get(pattern.top_level, ()))


def unassigned_packages(
    modules: Mapping[str, ModuleInfo], is_ignored: Callable[[str], bool]
) -> tuple[ModuleInfo, ...]:
    """The highest modules and packages that no layer owns, that are not ignored, and
    that hold no layer-owned module: `shop.common` once, never its children, and never
    `shop` when it holds the layers. For a namespace package (no `__init__`) the info
    points at the first file below it."""
    holding: set[str] = set()
    first_file: dict[str, str] = {}
    for info in modules.values():
        if info.layer is not None:
            holding.add(info.name)
            holding.update(parents(info.name))
        for parent in parents(info.name):
            if parent not in first_file or info.file < first_file[parent]:
                first_file[parent] = info.file

    found: list[ModuleInfo] = []
    pending = [""]
    children = _children((*modules, *first_file))
    while pending:
        parent = pending.pop()
        for child in children.get(parent, ()):
            name = f"{parent}.{child}" if parent else child
            if is_ignored(name):
                continue
            if name in holding:
                pending.append(name)
            elif name in modules:
                found.append(modules[name])
            else:
                found.append(ModuleInfo(name, first_file[name], True, None))
    return tuple(sorted(found, key=_name))


def _children(names: Iterable[str]) -> dict[str, set[str]]:
    children: dict[str, set[str]] = {}
    for name in names:
        parent, _, child = name.rpartition(".")
        children.setdefault(parent, set()).add(child)
    return children


def _name(info: ModuleInfo) -> str:
    return info.name


def misplaced_root(entries: Iterable[LayerEntry], tree: ModuleTree) -> str | None:
    """The directory just under the root that holds the layers' packages when the root
    itself holds none of them (`src` for a src layout checked from "."), or None. Cheap when
    the configuration fits the tree: the first plain entry that names a module ends it."""
    plain = [entry.pattern.text for entry in entries if not entry.pattern.is_selector]
    if not plain or any(text in tree.prefixes for text in plain):
        return None
    for top in sorted(tree.children.get("", ())):
        if any(f"{top}.{text}" in tree.prefixes for text in plain):
            return top
    return None
