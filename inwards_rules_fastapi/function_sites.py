"""The project's functions as FAPI002 follows them: the canonical name a dotted name written
in a module stands for (through the module's imports, read once per run), and the project's
top-level function such a name reaches, re-exports followed."""

from __future__ import annotations

import attrs

from inwards_core import FunctionFact, ModuleInfo, ProjectModel
from inwards_rules_fastapi.graph_names import (
    REEXPORT_HOPS,
    ImportedNames,
    imported_names,
    split_module,
)


@attrs.frozen
class Site:
    """A top-level function of the project and its module."""

    info: ModuleInfo
    function: FunctionFact


def qualify(model: ProjectModel, info: ModuleInfo, dotted: str) -> str:
    """The canonical name `dotted` stands for in `info` ("" when unknown)."""
    table = model.shared(_name_tables)
    names = table.get(info.file)
    if names is None:
        facts = model.content(info)
        local: frozenset[str] = frozenset()
        if facts is not None:
            local = frozenset(
                [b.name for b in facts.bindings]
                + [f.qualname for f in facts.functions if "." not in f.qualname]
                + [c.qualname for c in facts.classes if "." not in c.qualname]
            )
        names = table[info.file] = (imported_names(model, info), local)
    return names[0].qualify(dotted, names[1]) or ""


def _name_tables(model: ProjectModel) -> dict[str, tuple[ImportedNames, frozenset[str]]]:
    return {}


def top_function(model: ProjectModel, canonical: str) -> tuple[ModuleInfo, FunctionFact] | None:
    """The project's top-level function `canonical` names and its module, re-exports
    followed; None when there is none."""
    site = function_site(model, canonical)
    return None if site is None else (site.info, site.function)


def function_site(model: ProjectModel, canonical: str) -> Site | None:
    """The project's top-level function `canonical` names, re-exports followed."""
    name = canonical
    for _ in range(REEXPORT_HOPS + 1):
        found = split_module(model, name)
        if found is None or not found[1] or "." in found[1]:
            return None
        info, last = found
        facts = model.content(info)
        if facts is None or not facts.parsed:
            return None
        for function in facts.functions:
            if function.qualname == last:
                return Site(info, function)
        target = imported_names(model, info).imported.get(last)
        if target is None or target == name:
            return None
        name = target
    return None
