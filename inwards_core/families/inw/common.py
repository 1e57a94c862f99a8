"""What several INW check kinds share: the `modules` option, layer relations, wording."""

from __future__ import annotations

import enum
from collections.abc import Iterator

import attrs

from inwards_core.config.model import Config, Layer
from inwards_core.config.patterns import parse_module_pattern
from inwards_core.facts import ImportFact, ModuleFacts
from inwards_core.index import ModuleIndex, ModuleInfo
from inwards_core.project import ProjectModel


def _check_patterns(value: tuple[str, ...]) -> str | None:
    for entry in value:
        try:
            parse_module_pattern(entry)
        except ValueError as error:
            return str(error) + "."
    return None


@attrs.frozen
class ScopedOptions:
    """`modules`: module prefixes or selectors; when set, the rule reports only in them."""

    modules: tuple[str, ...] = attrs.field(default=(), metadata={"check": _check_patterns})

    def applies_to(self, module: str) -> bool:
        if not self.modules:
            return True
        return any(parse_module_pattern(entry).matches(module) for entry in self.modules)


class Relation(enum.Enum):
    SAME = "same"
    INNER = "inner"
    OUTER = "outer"
    SIBLING = "sibling"


def relation(source: Layer, target: Layer) -> Relation:
    if source.name == target.name:
        return Relation.SAME
    if target.rank < source.rank:
        return Relation.INNER
    if target.rank > source.rank:
        return Relation.OUTER
    return Relation.SIBLING


def forbidden(source: Layer, target: Layer) -> bool:
    return relation(source, target) in (Relation.OUTER, Relation.SIBLING)


def breach(source: Layer, target: Layer) -> str | None:
    """How an import from `source` into `target` breaks the layering, as a phrase for the
    message ("the outer layer ..."), or None when it doesn't."""
    kind = relation(source, target)
    if kind is Relation.OUTER:
        return f'the outer layer "{target.name}"'
    if kind is Relation.SIBLING:
        return f'"{target.name}", a sibling layer of "{source.name}"'
    return None


def direction(config: Config) -> str:
    """`domain <- application <- outbound | inbound <- bootstrap`: who may import whom."""
    ranks: dict[int, list[str]] = {}
    for layer in config.layers:
        ranks.setdefault(layer.rank, []).append(layer.name)
    return " <- ".join(" | ".join(names) for _, names in sorted(ranks.items()))


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
    """The dotted name a reader sees as imported: `a.b` for `import a.b`, `a.b` for `from a import b`."""
    return fact.target or fact.raw_module or "?"


def outward_layer(index: ModuleIndex, source: Layer, name: str) -> Layer | None:
    """The layer owning `name` when importing it from `source` breaks the layering."""
    target = index.layer_of(name)
    if target is not None and forbidden(source, target):
        return target
    return None


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
