"""The layering a rule checks, described by its family for the pictures and the brief.

`[tool.inwards]` layers are one layering; a rule of a kind that layers modules (INW's
`inw.layers`, such as the rules `inwards import-config` writes for import-linter's layers
contracts) checks another, often inside some packages only. `inwards diagram --rule`,
`inwards context` and `inwards explain-module` show those too, from this value, which the
rule's family gives (`inwards_core.plugins`: the core reads no kind's options).
"""

from __future__ import annotations

import attrs

from inwards_core.config.values import Layer
from inwards_core.model.value_repr import value_repr


@attrs.frozen
class RuleLayering:
    """The layering of the rule `code`. `layers`, innermost first, are `Layer` values:
    rank 0 innermost, siblings that may not import each other sharing a rank, siblings that
    may import each other one layer (named as the rule writes them, `a : b`); each layer's
    name is the rule's and its modules are prefixes or selectors under every container.
    `containers` are the packages the layering repeats in (each checked on its own; none:
    the layers are module names); `chains` says whether the rule also follows chains of
    imports through other modules."""

    __repr__ = value_repr

    code: str
    layers: tuple[Layer, ...]
    containers: tuple[str, ...] = ()
    chains: bool = False

    def ranks(self) -> list[list[Layer]]:
        """The layers grouped by rank, innermost first."""
        grouped: dict[int, list[Layer]] = {}
        for layer in self.layers:
            grouped.setdefault(layer.rank, []).append(layer)
        return [grouped[rank] for rank in sorted(grouped)]

    def same_layers(self, layers: tuple[Layer, ...]) -> bool:
        """Whether `layers` (`[tool.inwards]`'s) are this layering: rank for rank, the same
        layers owning the same modules, whatever their names."""
        return _shape(self.layers) == _shape(layers)


def _shape(layers: tuple[Layer, ...]) -> tuple[frozenset[frozenset[str]], ...]:
    grouped: dict[int, set[frozenset[str]]] = {}
    for layer in layers:
        grouped.setdefault(layer.rank, set()).add(frozenset(layer.modules))
    return tuple(frozenset(grouped[rank]) for rank in sorted(grouped))
