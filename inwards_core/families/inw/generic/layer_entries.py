"""The layers of an inw.layers rule: the entries of its `layers` option, as import-linter
writes them (`"a | b"` siblings that may not import each other, `"a : b"` siblings that may,
`"(a)"` a layer that may be missing), how two of them relate, the layers that match no
module (`missing-layers`) and the children of a container that no layer names
(`exhaustive`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import attrs

from inwards_core import (
    Fix,
    ModuleInfo,
    ModulePattern,
    ProjectModel,
    Severity,
    Span,
    Violation,
    parse_module_pattern,
    quoted,
)
from inwards_core.families.inw.layering.layer_relations import breach
from inwards_core.families.inw.module_entries import covers_some_module, definition_warning

INDEPENDENT = "|"  # siblings that may not import each other
TOGETHER = ":"  # siblings that may import each other
MISSING_LAYERS = ("warning", "error")


@attrs.frozen
class Entry:
    """One entry of `layers`: its names (parentheses removed), which of them are optional,
    and whether its siblings are independent."""

    names: tuple[str, ...]
    optional: frozenset[str]
    independent: bool

    @property
    def separator(self) -> str:
        return INDEPENDENT if self.independent else TOGETHER


def parse_entry(text: str) -> Entry:
    separator = TOGETHER if TOGETHER in text and INDEPENDENT not in text else INDEPENDENT
    names: list[str] = []
    optional: set[str] = set()
    for raw in text.split(separator):
        name = raw.strip()
        if len(name) > 2 and name.startswith("(") and name.endswith(")"):
            name = name[1:-1].strip()
            optional.add(name)
        names.append(name)
    return Entry(tuple(names), frozenset(optional), separator == INDEPENDENT)


def entry_names(text: str) -> tuple[str, ...]:
    return parse_entry(text).names


def check_layers(value: tuple[str, ...]) -> str | None:
    """The problem with the `layers` option alone, or None (see `check_together`)."""
    seen: set[str] = set()
    for entry in value:
        if INDEPENDENT in entry and TOGETHER in entry:
            return (
                f'"{quoted(entry)}" mixes "|" (siblings that may not import each other) and '
                '":" (siblings that may); an entry uses one of the two.'
            )
        for name in entry_names(entry):
            try:
                parse_module_pattern(name)
            except ValueError as error:
                return f'"{quoted(entry)}": {error}.'
            if name in seen:
                return f'lists "{quoted(name)}" twice; a module belongs to one layer.'
            seen.add(name)
    return None


def check_missing_layers(value: str) -> str | None:
    if value in MISSING_LAYERS:
        return None
    return f'must be "warning" or "error", not "{quoted(value)}".'


def check_together(
    layers: Sequence[str], containers: Sequence[str], exhaustive: bool, checks_presence: bool
) -> tuple[str, str] | None:
    """What `layers`, `containers` and `exhaustive` can't be together, as (option, message).
    One layer alone checks something only with `checks_presence` (`exhaustive`, or
    `missing-layers = "error"`: import-linter takes such a contract)."""
    if exhaustive and not containers:
        return (
            "exhaustive",
            "needs `containers`: only the children of a container can all be layers.",
        )
    if len(layers) == 1 and len(entry_names(layers[0])) == 1 and not checks_presence:
        return (
            "layers",
            "must list at least two layers, innermost first, or one entry of siblings "
            '("a | b" or "a : b"); one layer alone checks only that it exists, with '
            '`exhaustive = true` or `missing-layers = "error"`.',
        )
    return None


def undeclared_children(
    model: ProjectModel, container: str, declared: Sequence[str]
) -> Iterator[Violation]:
    """`exhaustive = true`: a finding for each direct child (module or package) of
    `container` whose last segment is not in `declared`, at line 1 of the module that
    stands for it: its own (`__init__` or module file), else the first one below it."""
    prefix = container + "."
    known = set(declared)
    children: dict[str, ModuleInfo] = {}
    for name in sorted(model.index.modules):
        if name.startswith(prefix):
            child = name[len(prefix) :].split(".", 1)[0]
            children.setdefault(child, model.index.modules[name])
    for child, info in sorted(children.items()):
        if child in known:
            continue
        shown = quoted(f"{prefix}{child}")
        stable = (
            f'"{shown}" is a child of the container "{quoted(container)}" that is no layer: '
            "with `exhaustive = true`, every child of a container is a layer or is listed "
            "in `exhaustive-ignores`."
        )
        yield Violation(
            file=info.file,
            module=info.name,
            span=Span.start_of_file(),
            message=stable,
            stable_message=stable,
            params={"module": shown, "container": quoted(container), "layer": quoted(child)},
            variant="undeclared-child",
            fallback=Fix(
                f'Give "{shown}" a place in the layering.',
                (
                    f'Add "{quoted(child)}" to `layers` at its level, or to '
                    "`exhaustive-ignores` if it belongs to no layer.",
                    "If it is code of an existing layer, move it into that layer.",
                ),
            ),
        )


@attrs.frozen
class RuleLayer:
    """A layer of an inw.layers rule, in one container (or none)."""

    name: str  # as written in `layers`, without the parentheses of an optional one
    rank: int  # 0 is innermost: the index of its entry in `layers`
    pattern: ModulePattern
    independent: bool = True  # siblings of its entry may not import it ("a | b")
    optional: bool = False  # written "(a)": may be missing

    @property
    def shown(self) -> str:
        """The name as messages quote it."""
        return quoted(self.name)


def rule_layers(layers: Sequence[str], container: str | None) -> tuple[RuleLayer, ...]:
    """The layers of `layers` (the option), names made absolute inside `container`."""
    found: list[RuleLayer] = []
    for rank, text in enumerate(layers):
        entry = parse_entry(text)
        for name in entry.names:
            full = name if container is None else f"{container}.{name}"
            layer = RuleLayer(
                name, rank, parse_module_pattern(full), entry.independent, name in entry.optional
            )
            found.append(layer)
    return tuple(found)


def owning_layer(name: str, layers: Sequence[RuleLayer]) -> RuleLayer | None:
    """The layer of module `name`: the one whose pattern matches it most specifically."""
    best: RuleLayer | None = None
    best_key: tuple[int, int, int] | None = None
    for layer in layers:
        match = layer.pattern.match(name)
        if match is not None and (best_key is None or match.precedence() > best_key):
            best, best_key = layer, match.precedence()
    return best


def breach_of(source: RuleLayer, target: RuleLayer) -> str | None:
    """As `breach`, except that siblings of an `"a : b"` entry may import each other."""
    if source.rank == target.rank and not source.independent:
        return None
    return breach(source, target)


def missing_layers(
    model: ProjectModel, layers: Sequence[RuleLayer], container: str | None, *, as_error: bool
) -> Iterator[Violation]:
    """A finding in the definition for each layer that is not optional and matches no module
    (in `container`): a warning, or an error with `missing-layers = "error"`."""
    if container is not None and not covers_some_module(model, container):
        return  # the container itself matches nothing: one warning for its entry
    for layer in layers:
        if layer.optional or covers_some_module(model, layer.pattern.text):
            continue
        key = f"options.layers[{layer.rank}]"
        where = (
            f'container "{quoted(container)}" has no layer "{layer.shown}"'
            if container
            else (f'"{layer.shown}" matches no module of this project')
        )
        found = definition_warning(
            f"`{key}`: {where} (no module {quoted(layer.pattern.text)}), so the rule "
            "checks nothing there.",
            params={"layer": layer.shown, "container": quoted(container or ""), "option": key},
            variant="missing-layer",
            summary=f'Fix "{layer.shown}" in `{key}`, or the package it should name.',
            steps=(
                f'Check the spelling of "{layer.shown}" against the packages of this project.',
                "A container without this layer can be left out of `containers`.",
                f'A layer that may be missing is written "({layer.shown})".',
            ),
        )
        yield attrs.evolve(found, severity=Severity.ERROR) if as_error else found
