"""What INW015 (construct-only-in) needs to know about names: the names a module's imports
bind, the class a dotted name reaches through re-exports, and which classes of a role are
plain values (exceptions, enums) that any module may use."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import attrs

from inwards_core import (
    CallFact,
    ClassFact,
    ContentFacts,
    ImportFact,
    ModuleFacts,
    ProjectModel,
)

# How many re-exports (`from .jwt import JWTStrategy` in a package's `__init__`) a name is
# followed through before it is given up on.
MAX_HOPS = 4

# Bases that make a class a value any layer may hold (exceptions, enums), also through
# bases of the same module. A class listing `Protocol` itself among its bases is an interface
# code types against; one inheriting from such a class implements it, and is no value.
_VALUE_BASES = frozenset(
    {
        "Exception",
        "BaseException",
        "Warning",
        "Enum",
        "IntEnum",
        "StrEnum",
        "Flag",
        "IntFlag",
        "ReprEnum",
        "TextChoices",
        "IntegerChoices",
        "Choices",
    }
)
_VALUE_SUFFIXES = ("Error", "Exception", "Warning")


def bound_name(fact: ImportFact) -> tuple[str, str] | None:
    """(the local name an import binds, the dotted name it stands for), or None for a star
    import or an import climbing above the top level."""
    return fact.binding()


# The names a module's runtime imports bind: local name -> (dotted target, the import).
Bindings = Mapping[str, tuple[str, ImportFact]]


def bindings_of(facts: ModuleFacts) -> dict[str, tuple[str, ImportFact]]:
    """What each name a module's imports bind stands for (the last binding wins, as at run
    time). Imports under TYPE_CHECKING bind nothing at run time."""
    found: dict[str, tuple[str, ImportFact]] = {}
    for fact in facts.imports:
        if fact.type_checking:
            continue
        bound = bound_name(fact)
        if bound is not None:
            found[bound[0]] = (bound[1], fact)
    return found


def qualify(bindings: Bindings, dotted: str) -> tuple[str, ImportFact] | None:
    """The dotted name `dotted` (`repo.SqlRepo`, `SqlRepo`) stands for in a module, through
    the import that binds its first part, with that import; None when no import binds it."""
    head, _, rest = dotted.partition(".")
    bound = bindings.get(head)
    if bound is None:
        return None
    return (f"{bound[0]}.{rest}" if rest else bound[0]), bound[1]


@attrs.frozen
class Reached:
    """A class a dotted name reaches: its module, its name, and the modules it was
    re-exported through on the way (empty when the name was the module's own)."""

    module: str
    name: str
    via: tuple[str, ...]


BindingsOf = Callable[[str], Bindings]
ContentOf = Callable[[str], ContentFacts | None]


def split_module(model: ProjectModel, dotted: str) -> tuple[str, str] | None:
    """(module, attribute) for `pkg.mod.Name`: the longest prefix that is a module of the
    project, and the one name after it; None otherwise."""
    module, _, name = dotted.rpartition(".")
    if not module or model.index.module(module) is None:
        return None
    return module, name


def reach_class(
    model: ProjectModel,
    dotted: str,
    in_role: Callable[[str], bool],
    bindings_of_module: BindingsOf,
    content_of: ContentOf,
) -> Reached | None:
    """The class of a role module that `dotted` names, followed through at most `MAX_HOPS`
    re-exports; None when it names no such class (a function, a constant, a class outside
    the role, or a name the files can't tell)."""
    via: list[str] = []
    current = dotted
    for _ in range(MAX_HOPS + 1):
        split = split_module(model, current)
        if split is None:
            return None
        module, name = split
        if in_role(module):
            content = content_of(module)
            if content is not None and _top_class(content, name) is not None:
                return Reached(module, name, tuple(via))
        following = _reexport(bindings_of_module(module), name)
        if following is None:
            return None
        via.append(module)
        current = following
    return None


def _reexport(bindings: Bindings, name: str) -> str | None:
    """What a module's import binding `name` (`from x import name`) stands for, or None."""
    bound = bindings.get(name)
    return None if bound is None else bound[0]


def _top_class(content: ContentFacts, name: str) -> ClassFact | None:
    for found in content.classes:
        if found.qualname == name:
            return found
    return None


def is_value_name(name: str, content: ContentFacts | None) -> bool:
    """A name any module may import from a role: an ALL_CAPS or `Final` constant, an
    exception or enum class of the module (bases read in the module's own classes, same-module
    bases followed), or an interface (`_is_interface`); without the module's content, a name
    ending in Error, Exception or Warning."""
    if name.upper() == name and any(c.isalpha() for c in name):
        return True
    if content is None or not content.parsed:
        return name.endswith(_VALUE_SUFFIXES)
    if any(
        b.name == name and any(a.rsplit(".", 1)[-1] == "Final" for a in b.annotation)
        for b in content.bindings
    ):
        return True
    return _is_value_class(content, name, depth=0)


def defining_module(
    dotted: str, bindings_of_module: BindingsOf, content_of: ContentOf
) -> tuple[str, str]:
    """(module, name) where `module.name` is defined, following the module's re-exports
    (`from .sql import OrderNotFound` in a package's `__init__`) at most `MAX_HOPS` times;
    the last module reached when the chain ends without a definition."""
    module, _, name = dotted.rpartition(".")
    for _ in range(MAX_HOPS):
        content = content_of(module)
        if content is not None and _top_class(content, name) is not None:
            break
        following = _reexport(bindings_of_module(module), name)
        if following is None:
            break
        module, _, name = following.rpartition(".")
    return module, name


def _is_value_class(content: ContentFacts, name: str, depth: int) -> bool:
    found = _top_class(content, name)
    if found is None:
        return False
    if depth == 0 and _is_interface(content, found):
        return True
    for base in found.bases:
        last = base.rsplit(".", 1)[-1]
        if last in _VALUE_BASES or last.endswith(_VALUE_SUFFIXES):
            return True
        if depth < MAX_HOPS and "." not in base and _is_value_class(content, base, depth + 1):
            return True
    return False


def _is_interface(content: ContentFacts, found: ClassFact) -> bool:
    """An interface code types against: `Protocol` or `ABC` among its own bases (or
    `metaclass=ABCMeta`), or methods that all do nothing (docstring, `...`, `pass`,
    `raise NotImplementedError`). A class inheriting from one is an implementation."""
    if any(base.rsplit(".", 1)[-1] in ("Protocol", "ABC") for base in found.bases):
        return True
    if any(key == "metaclass" and value.endswith("ABCMeta") for key, value in found.keywords):
        return True
    methods = set(found.methods)
    bodies = [f for f in content.functions if f.qualname in methods]
    return bool(bodies) and all(f.trivial for f in bodies)


def build_calls(content: ContentFacts) -> Iterator[CallFact]:
    """Every call of a module, once each (a call in a nested def is also its enclosing
    function's), leaving out calls of something that is no dotted name."""
    seen: set[tuple[int, int]] = set()
    calls = [*content.calls, *(call for function in content.functions for call in function.calls)]
    for call in calls:
        key = (call.span.line, call.span.column)
        if not call.callee or "(" in call.callee or key in seen:
            continue
        seen.add(key)
        yield call
