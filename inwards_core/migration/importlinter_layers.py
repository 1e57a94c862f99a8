"""The `[tool.inwards]` layers a conversion writes: those of one converted layers contract.

A project whose table holds real layers gets the same diagram, module explanations and
brief as one configured by hand, so the layers of one layers contract become the table's
layers. They change no verdict: the conversion turns on only the contracts' rules
(`select`), so INW001 (direct imports between these layers) and INW006 (code outside
them) stay off, and the contract's own rule judges its layers (chains, ignored imports
and missing layers included), as lint-imports does.

Which contract: the one whose layers stand highest in the package (the fewest name
segments; then the first in the file). import-linter projects nest layers contracts
(usethis: a contract for the package, then one for each of several of its layers); the
outermost is the project's architecture, and the nested ones stay layerings of their rules,
which `diagram --rule`, `explain-module` and `context` show. A contract whose layers the
configuration loader refuses (a module in two layers, an entry that is no selector) is
passed over for the next one; without any, the table has one layer per root package.

How the entries map: an entry `a | b` (siblings that may not import each other) is a group
of sibling layers; `a : b` (siblings that may import each other) is one layer owning both,
named `a+b` (a name with `: ` in it would not come back from a drawn diagram's label);
`(a)` (a layer that may be missing) is the layer `a`. With containers, a layer owns its
name under every container (`shop.orders.domain`, `shop.billing.domain`), as a template
expands it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from inwards_core.config.load import build_config
from inwards_core.config.values import ConfigError, NoPositions

_INDEPENDENT = "|"
_TOGETHER = ":"
TOGETHER_JOINER = "+"


@attrs.frozen
class LayeredContract:
    """A converted layers contract: its rule's code, the contract's name (else its id),
    and the `layers` (innermost first, as the rule writes them) and `containers` options."""

    code: str
    label: str
    layers: tuple[str, ...]
    containers: tuple[str, ...]


@attrs.frozen
class TableLayers:
    """The `layers` value of the table and the contract they come from (None when no
    contract's layers load: the table then has one layer per root package) and, for each
    layers contract passed over, why."""

    layers: list[Any]
    source: LayeredContract | None
    passed_over: tuple[str, ...] = ()


def table_layers(contracts: Sequence[LayeredContract], root: str) -> TableLayers:
    """The layers of the first of `contracts` (in the order above) that loads as
    `[tool.inwards]` layers under `root`; `source` None (and `layers` empty) when none
    does."""
    passed_over: list[str] = []
    for contract in sorted(contracts, key=_height):
        layers = contract_layers(contract)
        problem = _load_problem(layers, root)
        if problem is None:
            return TableLayers(layers, contract, tuple(passed_over))
        passed_over.append(
            f"the layers of {contract.code} ({contract.label!r}) can't be [tool.inwards] "
            f"layers ({problem}); its rule checks them all the same"
        )
    return TableLayers([], None, tuple(passed_over))


def contract_layers(contract: LayeredContract) -> list[Any]:
    """The contract's layers as `[tool.inwards]` writes them, innermost first."""
    layers: list[Any] = []
    for entry in contract.layers:
        names = _names(entry)
        if _INDEPENDENT in entry and len(names) > 1:
            layers.append([_layer(name, (name,), contract.containers) for name in names])
        else:
            layers.append(_layer(TOGETHER_JOINER.join(names), names, contract.containers))
    return layers


def _layer(name: str, parts: Sequence[str], containers: Sequence[str]) -> dict[str, Any]:
    if containers:
        modules = [f"{container}.{part}" for container in containers for part in parts]
    else:
        modules = list(parts)
    return {"name": name, "modules": modules}


def _names(entry: str) -> tuple[str, ...]:
    """The layer names of an entry, as inw.layers reads them (`layer_entries.parse_entry`
    of the INW family, which the migration, a room below the families, can't import)."""
    separator = _TOGETHER if _TOGETHER in entry and _INDEPENDENT not in entry else _INDEPENDENT
    names = []
    for raw in entry.split(separator):
        name = raw.strip()
        if len(name) > 2 and name.startswith("(") and name.endswith(")"):
            name = name[1:-1].strip()
        names.append(name)
    return tuple(names)


def _height(contract: LayeredContract) -> int:
    """How deep the contract's highest layer stands: the fewest name segments of a module
    one of its layers owns."""
    modules = (
        module
        for entry in contract_layers(contract)
        for layer in (entry if isinstance(entry, list) else [entry])
        for module in layer["modules"]
    )
    return min((module.count(".") + 1 for module in modules), default=0)


def _load_problem(layers: list[Any], root: str) -> str | None:
    try:
        build_config({"root": root, "layers": layers}, file="", positions=NoPositions())
    except ConfigError as error:
        first = error.problems[0]
        message = first.message.rstrip(".")
        return f"{first.key}: {message}" if first.key else message
    return None
