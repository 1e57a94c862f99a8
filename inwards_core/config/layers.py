"""The `layers` array of `[tool.inwards]`: each layer table (or group of sibling layers)
read into a `Layer`, then the checks across layers (unique names, no module entry in two
layers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inwards_core.config.entries import library_entry, module_entry
from inwards_core.config.problems import (
    PREFIX,
    ProblemCollector,
    known_keys,
    name_problem,
    sub_key,
    type_name,
)
from inwards_core.config.values import Layer

# `template` is expanded away before this module reads a layer (`templates.py`).
LAYER_KEYS = (
    "name",
    "modules",
    "allow-libraries",
    "deny-libraries",
    "extend-deny-libraries",
    "template",
)


def read_layers(problems: ProblemCollector, table: Mapping[str, Any]) -> tuple[Layer, ...]:
    key = f"{PREFIX}.layers"
    if "layers" not in table:
        problems.add(
            PREFIX,
            "has no `layers`. List the layers innermost first, such as "
            'layers = [{ name = "domain", modules = ["shop.domain"] }].',
        )
        return ()
    value = table["layers"]
    if not isinstance(value, list | tuple) or not value:
        shown = "an empty array" if isinstance(value, list | tuple) else type_name(value)
        problems.add(key, f"must be a non-empty array of layer tables, not {shown}.")
        return ()
    layers: list[Layer] = []
    for rank, element in enumerate(value):
        element_key = f"{key}[{rank}]"
        if isinstance(element, Mapping):
            layer = _layer(problems, element, element_key, rank)
            if layer is not None:
                layers.append(layer)
        elif isinstance(element, list | tuple):
            layers.extend(_group(problems, element, element_key, rank))
        else:
            problems.add(
                element_key,
                f"must be a layer table or an array of sibling layer tables, "
                f"not {type_name(element)}.",
            )
    _check_layers_together(problems, layers)
    return tuple(layers)


def _group(
    problems: ProblemCollector, group: list[Any] | tuple[Any, ...], key: str, rank: int
) -> list[Layer]:
    if len(group) < 2:
        problems.add(
            key,
            "is a group of sibling layers with fewer than two layers; "
            "write a single layer as a table on its own, not inside an array.",
        )
    layers: list[Layer] = []
    for index, element in enumerate(group):
        element_key = f"{key}[{index}]"
        if not isinstance(element, Mapping):
            problems.add(
                element_key,
                f"must be a layer table, not {type_name(element)}; sibling groups can't be nested.",
            )
            continue
        layer = _layer(problems, element, element_key, rank)
        if layer is not None:
            layers.append(layer)
    return layers


def _layer(
    problems: ProblemCollector, table: Mapping[str, Any], key: str, rank: int
) -> Layer | None:
    for unknown in table:
        if unknown not in LAYER_KEYS:
            problems.add(
                sub_key(key, unknown), f"is not a layer key. {known_keys(LAYER_KEYS, unknown)}"
            )
    name = table.get("name")
    if "name" not in table:
        problems.add(key, "has no `name`.")
    elif not isinstance(name, str):
        problems.add(f"{key}.name", f"must be a string, not {type_name(name)}.")
    elif not name.strip():
        problems.add(f"{key}.name", "must not be empty.")
    elif "|" in name:
        problems.add(f"{key}.name", f'"{name}" must not contain "|".')
    elif message := name_problem(name):
        problems.add(f"{key}.name", message)
    modules: tuple[str, ...] | None = None
    if "modules" not in table:
        problems.add(
            key,
            'has no `modules`; list the module prefixes the layer owns, such as ["shop.domain"]'
            " (an empty array is allowed).",
        )
    else:
        modules = problems.string_list(table, "modules", module_entry, f"{key}.modules")
    libraries = {
        option: problems.string_list(table, option, library_entry, f"{key}.{option}")
        for option in ("allow-libraries", "deny-libraries", "extend-deny-libraries")
    }
    if not isinstance(name, str) or not name.strip():
        return None
    # A layer with other problems is still returned, with its valid entries, so the
    # checks across layers (names, shared entries) report on it too.
    return Layer(
        name=name,
        modules=modules or (),
        rank=rank,
        key=key,
        allow_libraries=libraries["allow-libraries"],
        deny_libraries=libraries["deny-libraries"],
        extend_deny_libraries=libraries["extend-deny-libraries"] or (),
    )


def _check_layers_together(problems: ProblemCollector, layers: list[Layer]) -> None:
    """Unique names; no module entry in two layers (or twice in one)."""
    names: dict[str, Layer] = {}
    owners: dict[str, Layer] = {}
    for layer in layers:
        first = names.setdefault(layer.name, layer)
        if first is not layer:
            problems.add(
                f"{layer.key}.name",
                f'"{layer.name}" is already the name of the layer at '
                f"{problems.key_in_file(first.key)}; layer names must be unique.",
            )
        for index, module in enumerate(layer.modules):
            owner = owners.setdefault(module, layer)
            entry_key = f"{layer.key}.modules[{index}]"
            if owner is layer and layer.modules.index(module) != index:
                problems.add(entry_key, f'"{module}" is listed twice in layer "{layer.name}".')
            elif owner is not layer:
                problems.add(
                    entry_key,
                    f'"{module}" is in two layers, "{owner.name}" and "{layer.name}"; '
                    "a module entry belongs to one layer.",
                )
