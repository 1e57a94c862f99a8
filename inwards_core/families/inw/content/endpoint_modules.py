"""The modules inw.thin-endpoint judges and the endpoints found in each, with the functions
other modules register (Django's `urls.py` naming `views.index`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import attrs

from inwards_core import ContentFacts, ImportFact, ModuleInfo, ProjectModel
from inwards_core.families.inw.content.content_names import Names, is_test_module
from inwards_core.families.inw.content.endpoints import (
    Endpoint,
    Recognisers,
    RemoteView,
    find_endpoints,
    frameworks_imported,
)


@attrs.frozen
class JudgedModule:
    info: ModuleInfo
    facts: ContentFacts
    names: Names
    endpoints: tuple[Endpoint, ...]


@attrs.frozen
class Judging:
    """What decides which modules are read and judged (from the rule's options)."""

    packages: tuple[str, ...]  # a module importing none of these is not read
    frameworks: frozenset[str]
    decorators: tuple[str, ...]
    base_classes: tuple[str, ...]
    check_tests: bool
    applies_to: Callable[[str], bool]


def imports_under(imports: tuple[ImportFact, ...]) -> Callable[[str], bool]:
    """Whether the module imports `package` or a module under it."""
    targets = [t for fact in imports for t in (fact.target, fact.module) if t]

    def imported(package: str) -> bool:
        return any(t == package or t.startswith(package + ".") for t in targets)

    return imported


def _read(
    model: ProjectModel, info: ModuleInfo, scope: Judging, *, on_demand: bool = False
) -> tuple[JudgedModule, tuple[RemoteView, ...]] | None:
    # A checked module was read up front if its text may hold an endpoint (the rule's
    # `content_words`); a `urls` module is read here.
    content = model.content(info) if on_demand else model.content_held(info)
    if content is None or not content.parsed:
        return None
    facts = model.facts.get(info.file)
    if facts is None and model.read_more is not None:
        facts = model.read_more(info)
    if facts is None:
        return None
    imported = imports_under(facts.imports)
    if not any(imported(package) for package in scope.packages):
        return None
    names = Names.of(model, info)
    recognisers = Recognisers(
        frameworks=scope.frameworks,
        decorators=scope.decorators,
        base_classes=scope.base_classes,
        imported_frameworks=frameworks_imported(imported, scope.frameworks),
    )
    endpoints, remote = find_endpoints(content, names.qualify, recognisers, info.name)
    return JudgedModule(info, content, names, endpoints), remote


def judged_modules(model: ProjectModel, scope: Judging) -> list[JudgedModule]:
    """The checked modules the rule judges, each with its endpoints, including the
    functions registered elsewhere: by a checked module, or by the `urls` module of a
    package above a judged Django module (read on demand, so a run on one views file
    still knows its URL configuration)."""
    modules: list[JudgedModule] = []
    remote: list[RemoteView] = []
    seen: set[str] = set()
    for info in model.checked:
        seen.add(info.name)
        if not scope.check_tests and is_test_module(info.name):
            continue
        found = _read(model, info, scope)
        if found is None:
            continue
        remote.extend(found[1])
        if scope.applies_to(info.name):
            modules.append(found[0])
    if "django" in scope.frameworks:
        for info in _urls_modules(model, (m.info.name for m in modules), seen):
            found = _read(model, info, scope, on_demand=True)
            if found is not None:
                remote.extend(found[1])
    return _with_remote(modules, remote)


def _urls_modules(
    model: ProjectModel, judged: Iterable[str], seen: set[str]
) -> Iterator[ModuleInfo]:
    """The `<package>.urls` modules above the judged ones that were not checked."""
    wanted: set[str] = set()
    for name in judged:
        parts = name.split(".")
        wanted.update(".".join(parts[:end]) + ".urls" for end in range(1, len(parts)))
    for name in sorted(wanted - seen):
        info = model.index.module(name)
        if info is not None:
            yield info


def _with_remote(modules: list[JudgedModule], remote: list[RemoteView]) -> list[JudgedModule]:
    """Add the functions registered from other modules (`path("", views.index)`)."""
    by_name = {m.info.name: m for m in modules}
    wanted: dict[str, dict[str, str]] = {}
    for view in remote:
        owner, _, function = view.target.rpartition(".")
        if owner in by_name:
            wanted.setdefault(owner, {}).setdefault(function, view.framework)
    result = []
    for module in modules:
        extra = wanted.get(module.info.name, {})
        known = {e.function.qualname for e in module.endpoints}
        added = [
            Endpoint(f, extra[f.qualname])
            for f in module.facts.functions
            if f.qualname in extra and f.qualname not in known
        ]
        endpoints = tuple(sorted((*module.endpoints, *added), key=lambda e: e.function.span.line))
        result.append(attrs.evolve(module, endpoints=endpoints))
    return result
