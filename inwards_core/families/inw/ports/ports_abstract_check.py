"""How INW014 (`inw.ports-abstract`) judges the port modules: imported when the rule runs,
not with the family."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core import (
    LIST_LIMIT,
    ClassFact,
    ContentFacts,
    FunctionFact,
    ModuleInfo,
    ProjectModel,
    Violation,
    quoted,
)
from inwards_core.families.inw.content.content_names import Names, is_test_module
from inwards_core.families.inw.ports.port_classes import (
    Judge,
    Nature,
    Place,
    abstract_names,
    last_name,
    template_calls,
    working_methods,
)

if TYPE_CHECKING:
    from inwards_core.families.inw.ports.inw014_ports_abstract import PortsAbstractOptions


_NAME_LIMIT = 120  # a class or method name in a message


def _judge(
    model: ProjectModel, options: PortsAbstractOptions, decorators: tuple[str, ...]
) -> Judge:
    return Judge(
        allow_bases=options.allow_bases + options.extend_allow_bases,
        allow_decorators=decorators,
        find=lambda name: _find_class(model, name),
    )


def _place(model: ProjectModel, info: ModuleInfo) -> Place:
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


def judge_ports(
    model: ProjectModel, options: PortsAbstractOptions, decorators: tuple[str, ...]
) -> Iterator[Violation]:
    """The findings of INW014 (`inw.ports-abstract`) over the checked port modules, with
    `decorators` the exempt class decorators (built-in ones and `allow-decorators`)."""
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
        judge = judge or _judge(model, options, decorators)
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
