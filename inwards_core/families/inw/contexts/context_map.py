"""What the context kinds (INW002, INW003, INW004) share: which context owns a module (the
longest prefix of any context), which of its modules are public, and the imports that
cross from one context into another (found once per run for the three)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from inwards_core import ImportFact, ModuleInfo, ProjectModel
from inwards_core.families.inw.layering.layer_relations import ScopedOptions

if TYPE_CHECKING:
    from inwards_core import Context


class ContextMap:
    """The owner of each module name among the declared contexts: the context with the
    longest prefix of the name (`shop.orders` owns `shop.orders.cart`, not `shop.ordersx`).
    Answers are kept, so that each imported name is looked up once per run."""

    def __init__(self, contexts: Sequence[Context]) -> None:
        self.contexts = tuple(contexts)
        self._by_prefix = {prefix: context for context in contexts for prefix in context.modules}
        self._owners: dict[str, Context | None] = {}

    def owner(self, name: str) -> Context | None:
        found = self._owners.get(name, _UNKNOWN)
        if found is not _UNKNOWN:
            return found  # type: ignore[return-value]
        return self._find(name)

    def _find(self, name: str) -> Context | None:
        owner = self._by_prefix.get(name)
        if owner is None and "." in name:
            owner = self.owner(name.rsplit(".", 1)[0])
        self._owners[name] = owner
        return owner


_UNKNOWN = object()


def is_public(context: Context, name: str) -> bool:
    """Whether `name` is one of the context's public modules (or below a public prefix)."""
    return any(entry.covers(name) for entry in context.public)


def undeclared(source: Context, target: Context) -> bool:
    """An import from `source` into another context `target` that `source` doesn't list in
    `depends-on` (dependencies are direct: what `target` depends on is not `source`'s)."""
    return target.name != source.name and target.name not in source.depends_on


class CrossingImport(NamedTuple):
    """A static import of a checked module into a context other than its own (or from code
    no context owns, `source` None, into a context), as a finding shows it."""

    info: ModuleInfo
    fact: ImportFact
    reached: str  # the module or name the import reaches
    source: Context | None
    target: Context


# One crossing import of a module: its fact, what it reaches, the context that owns that.
# A plain tuple: one is made for each such import of the project.
Crossing = tuple[ImportFact, str, "Context"]


class ModuleCrossings(NamedTuple):
    """A checked module, its context (None outside every context) and its static imports
    into another context, in source order."""

    info: ModuleInfo
    source: Context | None
    crossings: list[Crossing]


class ContextImports(NamedTuple):
    """The contexts, and each checked module with an import into another context (in
    `model.checked` order): one pass over every import of the project, made once per run
    for the three kinds that need it (`ProjectModel.shared(context_imports)`)."""

    contexts: ContextMap
    modules: tuple[ModuleCrossings, ...]


def context_imports(model: ProjectModel) -> ContextImports:
    """Every static first-party import, in any checked file (layered or not), that reaches
    a context other than the importer's."""
    contexts = ContextMap(model.config.contexts)
    owner = contexts.owner
    first_party = model.index.is_first_party
    # What each name reached is owned by, for the imports that count: None for a name no
    # context owns or that isn't first-party. Most names are reached many times.
    target_of: dict[str, Context | None] = {}
    found: list[ModuleCrossings] = []
    for info in model.checked:
        if info.file not in model.facts:
            continue
        source = owner(info.name)
        crossings: list[Crossing] = []
        for fact, reached in model.resolved_imports(info):
            if reached is None:
                continue
            try:
                target = target_of[reached]
            except KeyError:
                target = target_of[reached] = owner(reached) if first_party(reached) else None
            if target is not None and target is not source:
                crossings.append((fact, reached, target))
        if crossings:
            found.append(ModuleCrossings(info, source, crossings))
    return ContextImports(contexts, tuple(found))


def crossing_imports(model: ProjectModel, options: ScopedOptions) -> Iterator[ModuleCrossings]:
    """The modules the rule applies to with their imports into another context, in
    `model.checked` order (shared by the kinds of one run)."""
    modules = model.shared(context_imports).modules
    if not options.modules:
        return iter(modules)
    return (module for module in modules if options.applies_to(module.info.name))
