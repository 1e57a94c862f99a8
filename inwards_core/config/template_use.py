"""Whether a `[tool.inwards]` table uses templates at all: a cheap look that lets the
loader skip importing the template expander for the many configurations that have none."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TEMPLATE = "template"


def uses_templates(table: Any) -> bool:
    """Whether `table` declares `templates` or names a template in a layer, context or
    shape entry (a table that is not a mapping uses none: its reader refuses it)."""
    if not isinstance(table, Mapping):
        return False
    if "templates" in table:
        return True
    for name in ("layers", "contexts", "shape"):
        entries = table.get(name)
        if isinstance(entries, list | tuple) and any(names_template(e) for e in entries):
            return True
    return False


def names_template(entry: Any) -> bool:
    """Whether `entry` (or one of a group of sibling layers) names a template."""
    if isinstance(entry, list | tuple):
        return any(isinstance(sibling, Mapping) and TEMPLATE in sibling for sibling in entry)
    return isinstance(entry, Mapping) and TEMPLATE in entry
