"""Which layer owns a name, and which names `ignore` leaves out.

Every layer entry is a `ModulePattern`; among the entries that match a name the one with
the biggest `PatternMatch.precedence()` wins, ties going to the layer listed first and then
to its earlier entry. Answers are memoised, because the engine asks about the same imported
names over and over.
"""

from __future__ import annotations

import attrs

from inwards_core.config.patterns import ModulePattern, parse_module_pattern
from inwards_core.config.values import Config, Layer
from inwards_core.index.naming import parents
from inwards_core.index.segment_patterns import SegmentPatterns
from inwards_core.model.value_repr import value_repr


@attrs.frozen
class LayerEntry:
    """One `modules` entry of one layer, parsed."""

    __repr__ = value_repr

    layer_index: int
    entry_index: int
    layer: Layer
    pattern: ModulePattern


def layer_entries(layers: tuple[Layer, ...]) -> tuple[LayerEntry, ...]:
    """Every valid `modules` entry of every layer, in configuration order."""
    entries: list[LayerEntry] = []
    for layer_index, layer in enumerate(layers):
        for entry_index, text in enumerate(layer.modules):
            try:
                pattern = parse_module_pattern(text)
            except ValueError:
                continue  # reported by the config loader; such an entry owns nothing
            entries.append(LayerEntry(layer_index, entry_index, layer, pattern))
    return tuple(entries)


class Ownership:
    """The layer owning each dotted name, and whether `ignore` covers it."""

    __slots__ = ("_ignored", "_literals", "_owner_cache", "_selectors", "entries")

    def __init__(self, config: Config) -> None:
        self.entries = layer_entries(config.layers)
        # A literal entry matches exactly the names at or below it, so it is found by dict
        # lookups of a name's prefixes; only selectors need the pattern matcher.
        self._literals: dict[str, list[LayerEntry]] = {}
        self._selectors: dict[str, list[LayerEntry]] = {}
        for entry in self.entries:
            if entry.pattern.is_selector:
                self._selectors.setdefault(entry.pattern.top_level, []).append(entry)
            else:
                self._literals.setdefault(entry.pattern.text, []).append(entry)
        self._owner_cache: dict[str, tuple[Layer, int] | None] = {}
        self._ignored = SegmentPatterns(config.ignore, wildcards=False)

    def owning_pattern(self, name: str) -> tuple[Layer, int] | None:
        """The layer owning the dotted `name` (a module or anything below one, such as
        `shop.domain.order.Order`) and the index of the winning entry in its `modules`."""
        try:
            return self._owner_cache[name]
        except KeyError:
            owner = self._owner_cache[name] = self._find_owner(name)
            return owner

    def layer_of(self, name: str) -> Layer | None:
        """The layer owning the dotted `name`, or None."""
        owner = self.owning_pattern(name)
        return None if owner is None else owner[0]

    def _find_owner(self, name: str) -> tuple[Layer, int] | None:
        best: LayerEntry | None = None
        best_key: tuple[tuple[int, int, int], int, int] | None = None
        if self._literals:
            for depth, prefix in enumerate((*parents(name), name), start=1):
                for entry in self._literals.get(prefix, ()):
                    key = ((depth, depth, depth), -entry.layer_index, -entry.entry_index)
                    if best_key is None or key > best_key:
                        best, best_key = entry, key
        for entry in self._selectors.get(name.partition(".")[0], ()):
            found = entry.pattern.match(name)
            if found is None:
                continue
            key = (found.precedence(), -entry.layer_index, -entry.entry_index)
            if best_key is None or key > best_key:
                best, best_key = entry, key
        return None if best is None else (best.layer, best.entry_index)

    def is_ignored(self, name: str) -> bool:
        """Whether an `ignore` entry covers `name` (whole segments anywhere, or from the
        top level with a leading `/`)."""
        return bool(self._ignored) and self._ignored.covers(name)
