"""How inw.construct-only-in (INW015) finds its findings: the role's modules imported, and
its classes built through re-exports, outside the composition root. Imported by the kind's
`check` on first use, so that a run without the rule never loads it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from inwards_core import (
    LIST_LIMIT,
    CallFact,
    ContentFacts,
    ImportFact,
    ImportStyle,
    ModuleFacts,
    ModuleInfo,
    ProjectModel,
    Violation,
    quoted,
)
from inwards_core.families.inw.content.content_names import is_test_module
from inwards_core.families.inw.content.role_classes import (
    Bindings,
    Reached,
    bindings_of,
    build_calls,
    defining_module,
    is_value_name,
    qualify,
    reach_class,
)
from inwards_core.families.inw.layering.layer_relations import outward_layer
from inwards_core.families.inw.module_entries import first_match

if TYPE_CHECKING:
    from inwards_core.families.inw.content.inw015_construct_only_in import ConstructOnlyInOptions


class _Reader:
    """Facts and content of any module of the project, read once per run on first need."""

    def __init__(self, model: ProjectModel) -> None:
        self._model = model
        self._facts: dict[str, ModuleFacts | None] = {}
        self._content: dict[str, ContentFacts | None] = {}
        self._bindings: dict[str, Bindings] = {}
        self._role_entries: dict[tuple[tuple[str, ...], str], str | None] = {}

    def role_entry(self, role: tuple[str, ...], name: str) -> str | None:
        """The entry of `role` that covers `name` (`first_match`), once per name and role:
        every import and call of the project asks."""
        key = (role, name)
        if key not in self._role_entries:
            self._role_entries[key] = first_match(name, role)
        return self._role_entries[key]

    def facts(self, name: str) -> ModuleFacts | None:
        if name not in self._facts:
            info = self._model.index.module(name)
            found = None
            if info is not None:
                found = self._model.facts.get(info.file)
                if found is None and self._model.read_more is not None:
                    found = self._model.read_more(info)
            self._facts[name] = found
        return self._facts[name]

    def bindings(self, name: str) -> Bindings:
        found = self._bindings.get(name)
        if found is None:
            facts = self.facts(name)
            found = self._bindings[name] = {} if facts is None else bindings_of(facts)
        return found

    def content(self, name: str) -> ContentFacts | None:
        if name not in self._content:
            info = self._model.index.module(name)
            self._content[name] = None if info is None else self._model.content(info)
        return self._content[name]


def _reader(model: ProjectModel) -> _Reader:
    return _Reader(model)


def find(model: ProjectModel, options: ConstructOnlyInOptions) -> Iterator[Violation]:
    """The findings of inw.construct-only-in (INW015) with these options."""
    if not options.role:
        return
    reader = model.shared(_reader)
    builders: list[ModuleInfo] = []
    for info in model.checked:
        if not _judged(info, options) or info.file not in model.facts:
            continue
        yield from _imports(model, info, options, reader)
        if _may_build(model, info, options, reader):
            builders.append(info)
    # Only the modules whose imports reach a class of the role have their calls read, in
    # one batch.
    model.read_content_of(builders)
    for info in builders:
        content = model.content(info)
        if content is not None and content.parsed:
            yield from _builds(model, info, content, options, reader)


def _judged(info: ModuleInfo, options: ConstructOnlyInOptions) -> bool:
    return (
        info.layer is not None
        and options.applies_to(info.name)
        and (options.check_tests or not is_test_module(info.name))
        and first_match(info.name, options.role) is None
        and first_match(info.name, options.allowed_in) is None
    )


def _statements(
    resolved: Sequence[tuple[ImportFact, str | None]],
) -> Iterator[list[tuple[ImportFact, str]]]:
    """The resolved runtime imports grouped by statement (consecutive facts of one text
    that start on one line: the same import written again in another function is another
    statement)."""
    group: list[tuple[ImportFact, str]] = []
    for fact, name in resolved:
        if name is None or fact.type_checking:
            continue
        if group and _statement_key(group[-1][0]) != _statement_key(fact):
            yield group
            group = []
        group.append((fact, name))
    if group:
        yield group


def _statement_key(fact: ImportFact) -> tuple[str, int]:
    return fact.statement, fact.statement_line or fact.span.line


def _imports(
    model: ProjectModel, info: ModuleInfo, options: ConstructOnlyInOptions, reader: _Reader
) -> Iterator[Violation]:
    layer = info.layer
    assert layer is not None  # _judged
    for group in _statements(model.resolved_imports(info)):
        used: list[tuple[ImportFact, str, str]] = []
        for fact, name in group:
            entry = reader.role_entry(options.role, name)
            if entry is None or outward_layer(model.index, layer, name) is not None:
                continue
            if info.is_package and name.startswith(info.name + "."):
                continue  # the package's re-export face
            if _value_import(fact, name, reader):
                continue
            used.append((fact, name, entry))
        if used:
            yield _import_violation(info, used, options)


def _value_import(fact: ImportFact, name: str, reader: _Reader) -> bool:
    """`from role.mod import SomeError` (or an enum, or a constant): a value, not a use of
    the adapter. `name` is what the import resolved to: the module for an attribute."""
    if fact.style is not ImportStyle.FROM or fact.name is None:
        return False
    if name == f"{fact.module}.{fact.name}":
        return False  # a submodule
    module, defined = defining_module(f"{name}.{fact.name}", reader.bindings, reader.content)
    return is_value_name(defined, reader.content(module))


def _allowed_text(options: ConstructOnlyInOptions) -> str:
    if not options.allowed_in:
        return "no module outside the role"
    return quoted(", ".join(f'"{quoted(entry)}"' for entry in options.allowed_in), LIST_LIMIT)


def _only(allowed: str, options: ConstructOnlyInOptions) -> str:
    """Who may: `only "app.main"`, or `no module outside the role` (no `only` before it)."""
    return f"only {allowed}" if options.allowed_in else allowed


def _import_violation(
    info: ModuleInfo, used: list[tuple[ImportFact, str, str]], options: ConstructOnlyInOptions
) -> Violation:
    fact, source, entry = used[0]
    if fact.style is ImportStyle.FROM and fact.name and source != f"{fact.module}.{fact.name}":
        shown = quoted(", ".join(dict.fromkeys(f.name or "*" for f, _, _ in used)))
    else:  # `import a.b`, a star import, or `from a import b` of the submodule `a.b`
        shown = quoted(source)
    allowed = _allowed_text(options)
    stable = (
        f'"{quoted(info.name)}" imports "{shown}" from "{quoted(source)}", a module of the '
        f'role "{quoted(entry)}".'
    )
    return Violation(
        file=info.file,
        module=info.name,
        span=fact.span,
        message=f"{stable[:-1]}, which {_only(allowed, options)} may import.",
        stable_message=stable,
        params={
            "imported": shown,
            "source": quoted(source),
            "role": quoted(entry),
            "allowed_in": allowed,
            "statement": fact.statement,
            "via": "",
        },
    )


def _may_build(
    model: ProjectModel, info: ModuleInfo, options: ConstructOnlyInOptions, reader: _Reader
) -> bool:
    """Whether a runtime import of the module reaches a class of the role through a
    re-export, or names a package above the role (whose attributes a call may reach)."""
    layer = info.layer
    assert layer is not None  # _judged

    def in_role(name: str) -> bool:
        return reader.role_entry(options.role, name) is not None

    for dotted, fact in reader.bindings(info.name).values():
        through = model.index.resolve_target(fact)
        if through is None or in_role(through):
            continue
        if outward_layer(model.index, layer, through) is not None:
            continue
        if through == dotted or fact.style is ImportStyle.IMPORT:  # a module object
            if any(fixed.startswith(through + ".") for fixed in _fixed_parts(options)):
                return True  # a package above the role: `pkg.Repo()`, `pkg.sub.Repo()`
        elif reach_class(model, dotted, in_role, reader.bindings, reader.content) is not None:
            return True
    return False


def _fixed_parts(options: ConstructOnlyInOptions) -> tuple[str, ...]:
    """Each role entry up to its first wildcard: the package every module it covers is in."""
    return tuple(entry.split("*")[0].rstrip(".") for entry in options.role)


def _builds(
    model: ProjectModel,
    info: ModuleInfo,
    content: ContentFacts,
    options: ConstructOnlyInOptions,
    reader: _Reader,
) -> Iterator[Violation]:
    layer = info.layer
    assert layer is not None  # _judged

    def in_role(name: str) -> bool:
        return reader.role_entry(options.role, name) is not None

    for call in build_calls(content):
        qualified = qualify(reader.bindings(info.name), call.callee)
        if qualified is None:
            continue
        dotted, fact = qualified
        through = model.index.resolve_target(fact)
        if through is None or in_role(through):
            continue  # an import from the role itself: its own finding
        if outward_layer(model.index, layer, through) is not None:
            continue  # layer-dependency's
        reached = reach_class(model, dotted, in_role, reader.bindings, reader.content)
        if reached is None or not reached.via:
            continue
        if is_value_name(reached.name, reader.content(reached.module)):
            continue
        yield _build_violation(info, call, reached, fact, options)


def _build_violation(
    info: ModuleInfo,
    call: CallFact,
    reached: Reached,
    fact: ImportFact,
    options: ConstructOnlyInOptions,
) -> Violation:
    entry = first_match(reached.module, options.role) or reached.module
    allowed = _allowed_text(options)
    via = quoted(" -> ".join(reached.via), LIST_LIMIT)
    stable = (
        f'"{quoted(info.name)}" builds "{quoted(reached.name)}", a class of '
        f'"{quoted(reached.module)}" (role "{quoted(entry)}"), imported through "{via}".'
    )
    return Violation(
        file=info.file,
        module=info.name,
        span=call.span,
        message=f"{stable[:-1]}; {_only(allowed, options)} may build it.",
        stable_message=stable,
        variant="build",
        params={
            "imported": quoted(reached.name),
            "source": quoted(reached.module),
            "role": quoted(entry),
            "allowed_in": allowed,
            "statement": fact.statement,
            "via": via,
        },
    )
