"""Entry point of the INW family (`[project.entry-points.inwards] inw`)."""

from __future__ import annotations

from collections.abc import Sequence

from inwards_core.families.inw import family
from inwards_core.plugins import hookimpl
from inwards_core.rules.kinds import Family


@hookimpl
def inwards_register_rule_families() -> Sequence[Family]:
    return [family()]
