"""The rules of INW's generic kinds over one module, for `inwards explain-module`, and the
layering of an `inw.layers` rule (`inwards_core.RuleLayering`), for `inwards diagram
--rule` and `inwards context`.

A project converted from import-linter holds its contracts as such rules; so may any
project (`inwards rules new CODE --kind inw.layers`). What they say about a module is
read from their options with the functions their kinds check with (`rule_layers`,
`breach_of`, `first_cover`), so the explanation and `check` agree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inwards_core import ActiveRule, Layer, ModuleIndex, RuleLayering
from inwards_core.families.inw.generic.kind_acyclic import AcyclicOptions
from inwards_core.families.inw.generic.kind_forbidden import ForbiddenOptions
from inwards_core.families.inw.generic.kind_independence import IndependenceOptions
from inwards_core.families.inw.generic.kind_layers import LayersOptions
from inwards_core.families.inw.generic.kind_protected import ProtectedOptions
from inwards_core.families.inw.generic.layer_entries import (
    breach_of,
    owning_layer,
    parse_entry,
    rule_layers,
)
from inwards_core.families.inw.module_entries import expand_among, first_cover, pattern_of

TOGETHER = " : "  # how a layering names siblings that may import each other
CHAINS = "not even through other modules"


def layering_of(rule: ActiveRule) -> RuleLayering | None:
    """The layering of an `inw.layers` rule; None for a rule of another kind."""
    options = rule.options
    if not isinstance(options, LayersOptions):
        return None
    layers: list[Layer] = []
    for rank, text in enumerate(options.layers):
        entry = parse_entry(text)
        names = [f"({name})" if name in entry.optional else name for name in entry.names]
        key = f"options.layers[{rank}]"
        if entry.independent and len(names) > 1:
            layers += [
                Layer(name, _modules((part,), options.containers), rank, key)
                for name, part in zip(names, entry.names, strict=True)
            ]
        else:
            modules = _modules(entry.names, options.containers)
            layers.append(Layer(TOGETHER.join(names), modules, rank, key))
    return RuleLayering(rule.code, tuple(layers), options.containers, options.indirect)


def _modules(names: Sequence[str], containers: Sequence[str]) -> tuple[str, ...]:
    if not containers:
        return tuple(names)
    return tuple(f"{container}.{name}" for container in containers for name in names)


def rules_over(
    index: ModuleIndex, name: str, rules: Mapping[str, ActiveRule]
) -> list[dict[str, Any]]:
    """What each enabled rule of a generic kind says about the module `name`, in code
    order: `code`, `name`, `kind`, `says` (a sentence), and for `inw.layers` also `layer`,
    `container`, `may_import` and `may_not_import` (layer names of the rule)."""
    found: list[dict[str, Any]] = []
    for code, rule in sorted(rules.items()):
        facts = _facts(index, name, rule.options)
        if facts is not None:
            found.append({"code": code, "name": rule.name, "kind": rule.rule.kind.id, **facts})
    return found


def _facts(index: ModuleIndex, name: str, options: object) -> dict[str, Any] | None:
    if isinstance(options, LayersOptions):
        return _in_layers(index, name, options)
    if isinstance(options, IndependenceOptions):
        return _independent(name, options)
    if isinstance(options, ForbiddenOptions):
        return _forbidden(name, options)
    if isinstance(options, ProtectedOptions):
        return _protected(name, options)
    if isinstance(options, AcyclicOptions):
        return _acyclic(index, name, options)
    return None


def _in_layers(index: ModuleIndex, name: str, options: LayersOptions) -> dict[str, Any] | None:
    containers: Sequence[str | None] = [None]
    if options.containers:
        containers = sorted(
            {found for entry in options.containers for found in expand_among(index.modules, entry)}
        )
    for container in containers:
        layers = rule_layers(options.layers, container)
        layer = owning_layer(name, layers)
        if layer is None:
            continue
        may = [other.name for other in layers if other != layer and not breach_of(layer, other)]
        may_not = [other.name for other in layers if breach_of(layer, other)]
        of = f" of {container}" if container else ""
        says = f'layer "{layer.name}"{of}: may import {_listed(may, "no other layer")}'
        if may_not:
            says += _with_chains(f"; not {', '.join(may_not)}", options.indirect)
        return {
            "says": says,
            "layer": layer.name,
            "container": container,
            "may_import": may,
            "may_not_import": may_not,
        }
    return None


def _independent(name: str, options: IndependenceOptions) -> dict[str, Any] | None:
    entry = first_cover(name, options.modules)
    if entry is None:
        return None
    others = [other for other in options.modules if other != entry]
    says = f"{entry} and {_listed(others, 'nothing')} may not import each other"
    return {"says": _with_chains(says, options.indirect)}


def _forbidden(name: str, options: ForbiddenOptions) -> dict[str, Any] | None:
    parts: list[str] = []
    if first_cover(name, options.modules, as_packages=options.as_packages) is not None:
        parts.append(f"may not import {', '.join(options.forbidden)}")
    if any(pattern_of(entry).matches(name) for entry in options.forbidden):
        parts.append(f"{', '.join(options.modules)} may not import it")
    if not parts:
        return None
    return {"says": _with_chains("; ".join(parts), options.indirect)}


def _protected(name: str, options: ProtectedOptions) -> dict[str, Any] | None:
    if first_cover(name, options.modules, as_packages=options.as_packages) is None:
        return None
    return {"says": f"only {_listed(list(options.importers), 'its own code')} may import it"}


def _acyclic(index: ModuleIndex, name: str, options: AcyclicOptions) -> dict[str, Any] | None:
    for entry in options.packages:
        for package in expand_among(index.modules, entry):
            if name.startswith(package + "."):
                says = (
                    f"the packages below {package} (down to depth {options.depth}) may not "
                    "import each other in a cycle"
                )
                return {"says": says}
    return None


def _with_chains(says: str, chains: bool) -> str:
    return f"{says}, {CHAINS}" if chains else says


def _listed(names: Sequence[str], none: str) -> str:
    return ", ".join(names) if names else none
