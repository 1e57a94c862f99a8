"""What a dotted name written in a module stands for, for FAPI006, FAPI007 and FAPI009:
resolved through the module's imports to a canonical dotted name, and from there to a
function or a binding of a first-party module (re-exports followed a few hops).

Never by bare name alone: `Depends` is FastAPI's only in a module that imports it from
`fastapi`; a function of the module itself is `<module>.<name>`. What cannot be resolved
is None, and the rules stay silent on it.
"""

from __future__ import annotations

import attrs

from inwards_core import (
    ContentFacts,
    FunctionFact,
    ModuleInfo,
    ModuleNames,
    ProjectModel,
)

Names = ModuleNames  # the name the family's rules use

_REEXPORT_HOPS = 3

DEPENDS = frozenset(
    {
        "fastapi.Depends",
        "fastapi.Security",
        "fastapi.params.Depends",
        "fastapi.params.Security",
        "fastapi.param_functions.Depends",
        "fastapi.param_functions.Security",
    }
)


@attrs.frozen
class Found:
    """A top-level function (or, with `function` None, a top-level class or binding) of a
    first-party module, as a canonical name reached it."""

    info: ModuleInfo
    facts: ContentFacts
    name: str
    function: FunctionFact | None


def find_definition(model: ProjectModel, canonical: str) -> Found | None:
    """The first-party top-level definition `canonical` names (`app.deps.get_db`),
    following re-exports (`from .session import get_db` in `app/deps.py`) a few hops; None
    when it is not first-party or not found."""
    name = canonical
    for _ in range(_REEXPORT_HOPS + 1):
        module, _, last = name.rpartition(".")
        info = model.index.module(module) if module and last else None
        if info is None:
            return None
        facts = model.content(info)
        if facts is not None and facts.parsed:
            for function in facts.functions:
                if function.qualname == last:
                    return Found(info, facts, last, function)
            if any(c.qualname == last for c in facts.classes) or any(
                b.name == last for b in facts.bindings
            ):
                return Found(info, facts, last, None)
        names = Names.of(model, info)
        target = names.imported.get(last)
        if target is None or target == name:
            return None
        name = target
    return None
