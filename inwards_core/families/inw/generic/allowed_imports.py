"""The `allow` option of the generic kinds inw.independence, inw.layers and inw.protected:
imports the rule lets through, each written `"importer -> imported"` (as import-linter's
`ignore_imports`), and the warning for an entry that lets nothing through.

Both sides are module prefixes or selectors, as `modules` entries are: `shop.orders` covers
`shop.orders` and everything below it, `shop.*.api` one package per `*`. An allowed import is
not reported, and a chain (`indirect = true`) does not go through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from inwards_core import ImportEdge, ProjectModel, Violation, option, parse_module_pattern, quoted
from inwards_core.families.inw.module_entries import definition_warning, pattern_of

ARROW = "->"

# The guidance parameters of the warning `unused_allow` gives (about the definition itself).
UNUSED_ALLOW_PARAMS = {
    "allowed": "an `allow` entry that lets no import through (warnings about the rule)",
}


def _check_allow(value: tuple[str, ...]) -> str | None:
    """The problem with the first entry that is not `importer -> imported`, or None."""
    for entry in value:
        sides = [side.strip() for side in entry.split(ARROW)]
        if len(sides) != 2:
            return f'"{quoted(entry)}" must be written "importer {ARROW} imported".'
        for side in sides:
            try:
                parse_module_pattern(side)
            except ValueError as error:
                return f'"{quoted(entry)}": {error}.'
    return None


def allow_option() -> Any:
    """The `allow` field of an options class."""
    return option(
        (),
        check=_check_allow,
        description='Imports the rule lets through, each written "importer -> imported", both '
        "sides module prefixes or selectors (`shop.orders.api -> shop.billing.events`). An "
        "allowed import is not reported and no chain goes through it; an entry that lets no "
        "import through is a warning.",
    )


class AllowedImports:
    """The `allow` entries of one run of a rule, and which of them let an import through.
    Made afresh by each `check` call, so a kind stays a pure function of its inputs."""

    def __init__(self, entries: tuple[str, ...]) -> None:
        self._entries = entries
        self._pairs = [
            tuple(pattern_of(side.strip()) for side in entry.split(ARROW)) for entry in entries
        ]
        self._used = [False] * len(entries)

    def permits(self, edge: ImportEdge) -> bool:
        """Whether an entry allows this import (and note each one that does)."""
        found = False
        for position, (importer, imported) in enumerate(self._pairs):
            if importer.matches(edge.importer) and imported.matches(edge.target):
                self._used[position] = found = True
        return found

    def follows(self, edge: ImportEdge) -> bool:
        """Whether a chain may go through this import (it is not allowed)."""
        return not self.permits(edge)

    def unused(self, model: ProjectModel) -> Iterator[Violation]:
        """A warning, in the rule's definition, for each entry that let no import through
        (whole-project runs only): the import it excused is gone, or the entry is mistyped."""
        if not self._entries or not model.whole_project:
            return
        for position, entry in enumerate(self._entries):
            if self._used[position]:
                continue
            key = f"options.allow[{position}]"
            shown = quoted(entry)
            yield definition_warning(
                f'`{key}` is "{shown}", which lets no import through: no import the rule '
                "checks matches it.",
                params={"allowed": shown, "option": key, "module": "", "statement": ""},
                variant="unused-allow",
                summary=f'Remove "{shown}" from `{key}` of the rule definition, or fix it.',
                steps=(
                    "If the import it excused is gone, delete the entry: a stale exception "
                    "would let the same import back in unnoticed.",
                    f'Otherwise check both sides of "{shown}" against the importing module '
                    "and the module it imports.",
                ),
            )
