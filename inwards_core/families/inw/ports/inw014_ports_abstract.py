"""inw.ports-abstract: a port module holds code that does work, not only interfaces."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import (
    CheckKind,
    KindDocs,
    ProjectModel,
    ReadScope,
    Violation,
    option,
)
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.module_entries import check_patterns
from inwards_core.families.inw.ports.inw014_examples import examples

# The bases and decorators that mark a value type, not a service: dotted import names, each
# covering the names below it (`pydantic` covers `pydantic.BaseModel`).
DEFAULT_ALLOW_BASES: tuple[str, ...] = (
    "pydantic",
    "pydantic_settings",
    "typing.NamedTuple",
    "typing_extensions.NamedTuple",
    "collections.namedtuple",
    "typing.TypedDict",
    "typing_extensions.TypedDict",
    "enum",
    "msgspec.Struct",
)
DEFAULT_ALLOW_DECORATORS: tuple[str, ...] = (
    "dataclasses.dataclass",
    "pydantic.dataclasses.dataclass",
    "attr.s",
    "attr.attrs",
    "attr.define",
    "attr.frozen",
    "attr.mutable",
    "attr.dataclass",
    "attrs.define",
    "attrs.frozen",
    "attrs.mutable",
)


@attrs.frozen
class PortsAbstractOptions(ScopedOptions):
    """Which modules are ports and which classes in them are values, not services."""

    modules: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description="Module prefixes or selectors of the port modules. When set it replaces "
        "the default: every module with a `ports` segment in its name.",
    )
    check_tests: bool = option(
        False,
        description="Judge test modules too (a `tests`/`test` segment, or a last segment "
        "`test_*`, `*_test` or `conftest`); they are skipped by default.",
    )
    allow_bases: tuple[str, ...] = option(
        DEFAULT_ALLOW_BASES,
        description="Bases that make a class a value type, exempt (dotted import names, each "
        "covering the names below it: `pydantic` covers `pydantic.BaseModel`). Replaces the "
        "default list; exception classes are always exempt.",
    )
    extend_allow_bases: tuple[str, ...] = option(
        (),
        description="More exempt bases, added to `allow-bases`.",
    )
    allow_decorators: tuple[str, ...] = option(
        (),
        description="More class decorators that make a class exempt (dotted import names), "
        "added to the built-in ones: `dataclasses.dataclass` and the attrs decorators.",
    )

    def is_port(self, module: str) -> bool:
        if self.modules:
            return self.applies_to(module)
        return "ports" in module.split(".")


def reads(options: PortsAbstractOptions) -> ReadScope:
    """The port modules `modules` names are read even outside every layer; content facts
    are read for the port modules only (and the modules of their first-party bases)."""
    # A port module is found by its name, not by what it imports: `check` reads the
    # content of the port modules itself, in one batch of their own.
    return ReadScope(modules=options.modules, content=True, content_batch=False)


DOCS = KindDocs(
    what_it_does="""
Looks at the port modules: by default every module with a `ports` segment in its name
(`shop.application.ports`, `shop.billing.ports.mail`); the `modules` option replaces that
with the prefixes or selectors it lists. A port module declares what the inner layers need
from the outside: interfaces (a `typing.Protocol`, an `abc.ABC`) and the values they
exchange. The rule reports, in such a module:

- a top-level class that does work and is neither an interface nor a value type: a
  *concrete class* (its methods with bodies are listed);
- a class that *implements a port* (one of its bases is an interface of the project) with
  methods that do work: an adapter, in the wrong place;
- a method of an interface whose body does work. When that body only calls the
  interface's own abstract methods (a *template method*), the message says so: many
  reviewers accept one, and a suppression comment with the reason is the honest answer.

A body does work when it holds anything but a docstring, `...`, `pass` and `raise
NotImplementedError(...)`. Some bodies never count: type machinery (`__class_getitem__`,
`__init_subclass__`, `__subclasshook__`); the dunders a value shows and compares itself
with (`__repr__`, `__str__`, `__eq__`, `__ne__`, `__hash__`, `__lt__`, `__le__`, `__gt__`,
`__ge__`); an `__init__` that only stores values (`self.name = name`: no call but
`super().__init__(...)`, no branch, loop or block), as a hand-written value class has. Nor
do class attributes (`__slots__`, annotations, constants).

A class none of whose methods does work is an interface by convention even without
`Protocol` or `ABC` (a `Generic` base class whose methods only raise
`NotImplementedError`): no finding. As a base it is a port only when it leaves a method to
implement (a body of `...`, `pass` or `raise NotImplementedError`, its own or a first-party
base's): a class whose only method stores values is a hand-written value, so a subclass
of it that does work is a concrete class, not an adapter. Exempt as values: exception classes (a built-in one, a
third-party base named `...Error`, `...Exception` or `...Warning`, and any class whose
first-party bases lead to one, read through the modules that define them); pydantic models,
`NamedTuple`, `TypedDict`, enums and msgspec structs (`allow-bases`); dataclasses and attrs
classes (`allow-decorators` adds more). Bases and decorators are resolved through the
module's imports, so an alias or a re-export is recognised and a first-party class that
happens to be called `BaseModel` is not.

Test modules are skipped unless `check-tests = true`.

```toml
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
]

[tool.inwards.rules]
extend-select = ["INW014"]

[tool.inwards.rules.ports-abstract]
modules = ["shop.application.ports", "shop.*.gateways"]
extend-allow-bases = ["shop.kernel.Value"]
allow-decorators = ["shop.kernel.value_object"]
```
""",
    why_is_this_bad="""
The point of a port is that the inner layers depend on a promise, not on a way to keep it.
Code in a port module makes every user of the port depend on that code and on whatever it
imports; the port stops being a seam where an adapter (or a test double) plugs in.
""",
    how_to_fix="""
Keep the interface in the port module and move the implementation to an adapter in an
outer layer, which the composition root passes in. For a method of an interface with a
body, make it abstract (or leave it out of the Protocol) and implement it in the adapters.
If the class is a value the port exchanges, make it one explicitly (a dataclass, an attrs
class, a pydantic model) or list its base in `extend-allow-bases`.
""",
    limitations="""
Only top-level classes are judged; functions, type aliases and `TypeVar`s in a port module
are not. Class attributes are never work, even one computed by a call. A third-party base
is not read: it is exempt only by the lists or by an exception-like name. First-party
bases are followed through at most 8 classes. Without `modules`, port modules are found
among the modules the rule reads (those of the layers). A file that does not parse is not
judged (INW020 reports it).
""",
)


def check(model: ProjectModel, options: PortsAbstractOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.ports.ports_abstract_check import judge_ports

    return judge_ports(model, options, DEFAULT_ALLOW_DECORATORS + options.allow_decorators)


KIND = CheckKind(
    id="inw.ports-abstract",
    summary="A port module holds a class or method that does work instead of an interface.",
    options_type=PortsAbstractOptions,
    check=check,
    reads=reads,
    guidance_params={
        "class": "the class, as defined in the port module",
        "port_module": "the port module",
        "methods": "its methods that do work, each in backquotes (a class finding)",
        "method": "the interface's method that does work (a method finding)",
        "port": "the ports the class implements, each in backquotes (`implements` variant)",
        "calls": "the abstract methods a template method calls, each in backquotes "
        "(`template` variant)",
    },
    docs=DOCS,
    examples=examples,
)
