"""Entry point of the INW family (`[project.entry-points.inwards] inw`)."""

from __future__ import annotations

from collections.abc import Sequence

from inwards_core import Family, hookimpl
from inwards_core.families.inw import family
from inwards_core.families.inw.contributions import (  # hook implementations, registered here
    inwards_brief_layer_lines,
    inwards_brief_lines,
    inwards_explain_module,
    inwards_import_linter_kinds,
    inwards_rule_layering,
)

__all__ = [
    "inwards_brief_layer_lines",
    "inwards_brief_lines",
    "inwards_explain_module",
    "inwards_import_linter_kinds",
    "inwards_register_rule_families",
    "inwards_rule_layering",
]


@hookimpl
def inwards_register_rule_families() -> Sequence[Family]:
    return [family()]
