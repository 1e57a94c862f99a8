"""What a dotted name written in a module stands for, for FAPI006, FAPI007 and FAPI009:
resolved through the module's imports to a canonical dotted name, and from there to a
function or a binding of a first-party module (re-exports followed a few hops).

Never by bare name alone: `Depends` is FastAPI's only in a module that imports it from
`fastapi`; a function of the module itself is `<module>.<name>`. What cannot be resolved
is None, and the rules stay silent on it.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core import (
    ContentFacts,
    FunctionFact,
    ModuleInfo,
    ProjectModel,
)

_TEST_SEGMENTS = frozenset({"tests", "test"})
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
class Names:
    """The names a module binds by import (bound name -> dotted target) and those it
    defines itself, to qualify a dotted name written in it."""

    module: str
    imported: Mapping[str, str]
    defined: frozenset[str]

    @classmethod
    def of(cls, model: ProjectModel, info: ModuleInfo) -> Names:
        """The names of `info`, computed once per run."""
        table = model.shared(_names_tables)
        found = table.get(info.file)
        if found is None:
            found = table[info.file] = _read_names(model, info)
        return found

    def qualify(self, dotted: str) -> str:
        """The canonical dotted name `dotted` stands for here: its first name replaced by
        what the module imported under it, or prefixed by the module for a name it defines;
        unchanged when neither (a builtin, a parameter, an unknown name)."""
        root, dot, rest = dotted.partition(".")
        target = self.imported.get(root)
        if target is not None:
            return target + dot + rest
        if root in self.defined:
            return f"{self.module}.{dotted}"
        return dotted


def _names_tables(model: ProjectModel) -> dict[str, Names]:
    return {}


def _read_names(model: ProjectModel, info: ModuleInfo) -> Names:
    facts = model.facts.get(info.file)
    if facts is None and model.read_more is not None:
        facts = model.read_more(info)
    imported: dict[str, str] = {}
    if facts is not None:
        for fact in facts.imports:
            bound = fact.binding()
            if bound is not None:
                imported.setdefault(*bound)
    content = model.content(info)
    defined: set[str] = set()
    if content is not None:
        defined.update(f.qualname for f in content.functions if "." not in f.qualname)
        defined.update(c.qualname for c in content.classes if "." not in c.qualname)
        defined.update(b.name for b in content.bindings)
    return Names(info.name, imported, frozenset(defined - set(imported)))


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
