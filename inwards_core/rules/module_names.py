"""Names as the kinds that read content facts need them: what a dotted name written in a
module stands for (`db.add`, `Session`, `sa.Column`), resolved through the module's imports
to a canonical dotted name, and which modules are tests. Public (`inwards_core.ModuleNames`,
`inwards_core.is_test_module`), so every family resolves names the same way.

Never by bare name alone: `Session` means `sqlalchemy.orm.Session` only in a module that
imports it from there; a class of the module itself is `<module>.Session`.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core.index.modules import ModuleInfo
from inwards_core.rules.project import ProjectModel

_TEST_SEGMENTS = frozenset({"tests", "test"})


def is_test_module(name: str) -> bool:
    """A module of a test suite: a segment `tests` or `test`, or a last segment `test_*`,
    `*_test` or `conftest`."""
    segments = name.split(".")
    last = segments[-1]
    return (
        any(segment in _TEST_SEGMENTS for segment in segments)
        or last.startswith("test_")
        or last.endswith("_test")
        or last == "conftest"
    )


@attrs.frozen
class ModuleNames:
    """The names a module binds by import (bound name -> dotted target) and those it
    defines itself, to qualify a dotted name written in it."""

    module: str
    imported: Mapping[str, str]
    defined: frozenset[str]

    @classmethod
    def of(cls, model: ProjectModel, info: ModuleInfo) -> ModuleNames:
        """The names of `info`, computed once per run."""
        table = model.shared(_names_tables)
        found = table.get(info.file)
        if found is None:
            found = table[info.file] = _read_names(model, info)
        return found

    def qualify(self, dotted: str) -> str:
        """The canonical dotted name `dotted` stands for in this module: its first name
        replaced by what the module imported under it, or prefixed by the module for a name
        it defines; unchanged when neither (a builtin, a parameter, an unknown name)."""
        root, dot, rest = dotted.partition(".")
        target = self.imported.get(root)
        if target is not None:
            return target + dot + rest
        if root in self.defined:
            return f"{self.module}.{dotted}"
        return dotted


def _names_tables(model: ProjectModel) -> dict[str, ModuleNames]:
    return {}


def _read_names(model: ProjectModel, info: ModuleInfo) -> ModuleNames:
    facts = model.facts.get(info.file)
    if facts is None and model.read_more is not None:
        facts = model.read_more(info)
    imported: dict[str, str] = {}
    if facts is not None:
        for fact in facts.imports:
            bound = fact.binding()
            if bound is None:
                continue
            name, target = bound
            imported.setdefault(name, target)
    content = model.content(info)
    defined: set[str] = set()
    if content is not None:
        defined.update(f.qualname for f in content.functions if "." not in f.qualname)
        defined.update(c.qualname for c in content.classes if "." not in c.qualname)
        defined.update(b.name for b in content.bindings)
    return ModuleNames(info.name, imported, frozenset(defined - set(imported)))
