"""What the layer kinds (INW001 to INW011, and inw.layers) share: the `modules` option that
scopes a rule, how two layers relate, and how messages word the layering."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Protocol

import attrs

from inwards_core import (
    LIST_LIMIT,
    Config,
    ImportFact,
    Layer,
    ModuleFacts,
    ModuleIndex,
    ModuleInfo,
    ProjectModel,
    option,
    parse_module_pattern,
    quoted,
)
from inwards_core.families.inw.module_entries import check_patterns


@attrs.frozen
class ScopedOptions:
    """`modules`: module prefixes or selectors; when set, the rule reports only in them."""

    modules: tuple[str, ...] = option((), check=check_patterns)

    def applies_to(self, module: str) -> bool:
        if not self.modules:
            return True
        return any(parse_module_pattern(entry).matches(module) for entry in self.modules)


class RankedLayer(Protocol):
    """A layer of `[tool.inwards]` or of an `inw.layers` rule: 0 is the innermost rank,
    and siblings share one."""

    @property
    def name(self) -> str: ...

    @property
    def rank(self) -> int: ...


class Relation(enum.Enum):
    SAME = "same"
    INNER = "inner"
    OUTER = "outer"
    SIBLING = "sibling"


def relation(source: RankedLayer, target: RankedLayer) -> Relation:
    if source.name == target.name:
        return Relation.SAME
    if target.rank < source.rank:
        return Relation.INNER
    if target.rank > source.rank:
        return Relation.OUTER
    return Relation.SIBLING


def forbidden(source: RankedLayer, target: RankedLayer) -> bool:
    return relation(source, target) in (Relation.OUTER, Relation.SIBLING)


def breach(source: RankedLayer, target: RankedLayer) -> str | None:
    """How an import from `source` into `target` breaks the layering, as a phrase for the
    message ("the outer layer ..."), or None when it doesn't."""
    kind = relation(source, target)
    if kind is Relation.OUTER:
        return f'the outer layer "{quoted(target.name)}"'
    if kind is Relation.SIBLING:
        return f'"{quoted(target.name)}", a sibling layer of "{quoted(source.name)}"'
    return None


def direction(config: Config) -> str:
    """`domain <- application <- outbound | inbound <- bootstrap`: who may import whom."""
    ranks: dict[int, list[str]] = {}
    for layer in config.layers:
        ranks.setdefault(layer.rank, []).append(quoted(layer.name))
    return quoted(" <- ".join(" | ".join(names) for _, names in sorted(ranks.items())), LIST_LIMIT)


def layered_files(
    model: ProjectModel, options: ScopedOptions
) -> Iterator[tuple[ModuleInfo, Layer, ModuleFacts]]:
    """Each checked file that a layer owns, that the rule applies to, and whose imports
    could be read (files with an encoding problem are INW000's alone)."""
    for info in model.checked:
        layer = info.layer
        if layer is None or not options.applies_to(info.name):
            continue
        facts = model.facts.get(info.file)
        if facts is None:
            continue
        yield info, layer, facts


def imported_name(fact: ImportFact) -> str:
    """The dotted name a reader sees as imported: `a.b` for `import a.b`, `a.b` for `from a import b`
    (as messages quote it)."""
    return quoted(fact.target or fact.raw_module or "?")


def outward_layer(index: ModuleIndex, source: Layer, name: str) -> Layer | None:
    """The layer owning `name` when importing it from `source` breaks the layering."""
    target = index.layer_of(name)
    if target is not None and forbidden(source, target):
        return target
    return None
