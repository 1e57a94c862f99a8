"""inw.ports-abstract: a port module holds code that does work, not only interfaces."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    ClassFact,
    ContentFacts,
    FunctionFact,
    KindDocs,
    ModuleInfo,
    ProjectModel,
    ReadScope,
    Violation,
    option,
    quoted,
)
from inwards_core.families.inw.layering import ScopedOptions
from inwards_core.families.inw.module_entries import check_patterns
from inwards_core.families.inw.port_classes import (
    DEFAULT_ALLOW_BASES,
    DEFAULT_ALLOW_DECORATORS,
    Judge,
    Nature,
    Place,
    abstract_names,
    last_name,
    template_calls,
    working_methods,
)
from inwards_core.families.inw.ports_abstract_examples import examples

_NAME_LIMIT = 120  # a class or method name in a message


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


# `content_imports` narrows the engine's first batch of content reads to the modules that
# import one of them; no module imports "", so that batch is empty for this rule and
# `check` reads the port modules' content itself, in one batch of their own: a port
# module is found by its name, not by what it imports.
_NO_FIRST_BATCH = ("",)


def reads(options: PortsAbstractOptions) -> ReadScope:
    """The port modules `modules` names are read even outside every layer; content facts
    are read for the port modules only (and the modules of their first-party bases)."""
    return ReadScope(modules=options.modules, content=True, content_imports=_NO_FIRST_BATCH)


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
`NotImplementedError`): no finding. Exempt as values: exception classes (a built-in one, a
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


def _judge(model: ProjectModel, options: PortsAbstractOptions) -> Judge:
    return Judge(
        allow_bases=options.allow_bases + options.extend_allow_bases,
        allow_decorators=DEFAULT_ALLOW_DECORATORS + options.allow_decorators,
        find=lambda name: _find_class(model, name),
    )


def _place(model: ProjectModel, info: ModuleInfo) -> Place:
    from inwards_core.families.inw.content_names import Names

    # A module without content facts (no trigger: `from .mail import Mailer` alone) still
    # re-exports names through its imports.
    facts = model.content(info) or ContentFacts(parsed=False)
    return Place(info.name, facts, Names.of(model, info).qualify)


def _find_class(model: ProjectModel, name: str) -> tuple[Place, ClassFact] | None:
    """The first-party class `name` (canonical dotted) stands for, in the longest module
    prefix of it that the index knows; a name a package re-exports is followed through
    that package's imports (the place's `canonical`)."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        info = model.index.module(".".join(parts[:cut]))
        if info is None:
            continue
        place = _place(model, info)
        qualname = ".".join(parts[cut:])
        cls = place.class_named(qualname)
        if cls is not None:
            return place, cls
        elsewhere = place.canonical(qualname)
        if elsewhere != name and elsewhere != f"{info.name}.{qualname}":
            return _find_class(model, elsewhere)
        return None
    return None


def check(model: ProjectModel, options: PortsAbstractOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.content_names import is_test_module

    ports = [
        info
        for info in model.checked
        if options.is_port(info.name) and (options.check_tests or not is_test_module(info.name))
    ]
    model.read_content_of(ports)
    judge: Judge | None = None
    for info in ports:
        place = _place(model, info)
        if not place.facts.parsed:
            continue
        judge = judge or _judge(model, options)
        for cls in place.facts.classes:
            if "." not in cls.qualname:
                yield from _judge_class(judge, info, place, cls)


def _judge_class(
    judge: Judge, info: ModuleInfo, place: Place, cls: ClassFact
) -> Iterator[Violation]:
    nature = judge.nature(place, cls)
    if nature is Nature.EXEMPT:
        return
    working = working_methods(place, cls)
    if not working:
        return
    if nature is Nature.INTERFACE:
        abstract = abstract_names(place, cls) | _inherited_abstract(judge, place, cls)
        for method in working:
            yield _method_finding(info, cls, method, template_calls(method, abstract))
        return
    ports = tuple(judge.ports_among_bases(place, cls))
    yield _class_finding(info, cls, working, ports)


def _inherited_abstract(judge: Judge, place: Place, cls: ClassFact) -> frozenset[str]:
    names: set[str] = set()
    for base in judge.bases(place, cls):
        found = judge.find(base)
        if found is not None:
            names |= abstract_names(*found)
    return frozenset(names)


def _ticked(names: tuple[str, ...]) -> str:
    return quoted(", ".join(f"`{quoted(n, _NAME_LIMIT)}`" for n in names), LIST_LIMIT)


def _params(info: ModuleInfo, cls: ClassFact, **extra: str) -> dict[str, str]:
    params = {
        "class": quoted(cls.qualname, _NAME_LIMIT),
        "port_module": quoted(info.name),
        "methods": "",
        "method": "",
        "port": "",
        "calls": "",
    }
    params.update(extra)
    return params


def _class_finding(
    info: ModuleInfo, cls: ClassFact, working: tuple[FunctionFact, ...], ports: tuple[str, ...]
) -> Violation:
    name = quoted(cls.qualname, _NAME_LIMIT)
    methods = _ticked(tuple(last_name(m.qualname) for m in working))
    verb = "does" if len(working) == 1 else "do"
    if ports:
        port = _ticked(ports)
        message = (
            f"`{name}` in port module `{quoted(info.name)}` implements the port {port}: "
            f"{methods} {verb} work, which belongs in an adapter."
        )
        variant = "implements"
    else:
        port = ""
        message = (
            f"`{name}` in port module `{quoted(info.name)}` is a concrete class, neither an "
            f"interface nor a value type: {methods} {verb} work."
        )
        variant = ""
    return Violation(
        file=info.file,
        module=info.name,
        span=cls.span,
        message=message,
        variant=variant,
        params=_params(info, cls, methods=methods, port=port),
    )


def _method_finding(
    info: ModuleInfo, cls: ClassFact, method: FunctionFact, calls: tuple[str, ...]
) -> Violation:
    shown = f"{quoted(cls.qualname, _NAME_LIMIT)}.{quoted(last_name(method.qualname), _NAME_LIMIT)}"
    if calls:
        called = _ticked(calls)
        methods = "method" if len(calls) == 1 else "methods"
        message = (
            f"`{shown}` in port module `{quoted(info.name)}` is a template method of an "
            f"interface: its body only calls the abstract {methods} {called}, but that is work "
            "all the same."
        )
        variant = "template"
    else:
        called = ""
        message = (
            f"`{shown}` in port module `{quoted(info.name)}` is a method of an interface "
            "whose body does work."
        )
        variant = "method"
    return Violation(
        file=info.file,
        module=info.name,
        span=method.span,
        message=message,
        variant=variant,
        params=_params(
            info, cls, method=quoted(last_name(method.qualname), _NAME_LIMIT), calls=called
        ),
    )


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
