"""Entry point of the INW family (`[project.entry-points.inwards] inw`)."""

from __future__ import annotations

from collections.abc import Sequence

from inwards_core import Family, hookimpl
from inwards_core.families.inw import family


@hookimpl
def inwards_register_rule_families() -> Sequence[Family]:
    return [family()]
