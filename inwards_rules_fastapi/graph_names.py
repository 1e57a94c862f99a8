"""Names as the project graph needs them: what a dotted name written in a module stands
for, through the module's imports (aliases too), and which graph node a canonical name
reaches once re-exports (`from .users import router` in a package's `__init__`) are
followed.

Never by bare name alone: `router` means `app.users.router` only in a module that imports
it from there or defines it. Written on `inwards_core`'s public API only.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core import ModuleInfo, ProjectModel

REEXPORT_HOPS = 4


@attrs.frozen
class ImportedNames:
    """The names a module binds by import: bound name -> the dotted name it stands for."""

    module: str
    imported: Mapping[str, str]

    def qualify(self, dotted: str, local: frozenset[str] = frozenset()) -> str | None:
        """The canonical dotted name `dotted` stands for in this module, or None when its
        first name is bound neither by an import nor by the module (`local`: the names
        the module itself binds at its top level)."""
        root, dot, rest = dotted.partition(".")
        target = self.imported.get(root)
        if target is not None:
            return target + dot + rest
        if root in local:
            return f"{self.module}.{dotted}"
        return None


def imported_names(model: ProjectModel, info: ModuleInfo) -> ImportedNames:
    """The import table of `info` (its import facts, read on demand)."""
    facts = model.facts.get(info.file)
    if facts is None and model.read_more is not None:
        facts = model.read_more(info)
    imported: dict[str, str] = {}
    if facts is not None:
        for fact in facts.imports:
            bound = fact.binding()
            if bound is not None:
                imported.setdefault(*bound)
    return ImportedNames(info.name, imported)


def split_module(model: ProjectModel, dotted: str) -> tuple[ModuleInfo, str] | None:
    """The longest first-party module `dotted` starts with, and the rest ("" for the
    module itself); None when no module of the project starts it."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        info = model.index.module(".".join(parts[:end]))
        if info is not None:
            return info, ".".join(parts[end:])
    return None
