"""Entry point of the FAPI family (`[project.entry-points.inwards] fapi`)."""

from __future__ import annotations

from collections.abc import Sequence

from inwards_core import Family, hookimpl
from inwards_rules_fastapi import family


@hookimpl
def inwards_register_rule_families() -> Sequence[Family]:
    return [family()]
