"""What the context kinds (INW002, INW003, INW004) share: which context owns a module (the
longest prefix of any context), which of its modules are public, and the imports that
cross from one context into another."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from inwards_core import Context, ImportFact, ModuleInfo, ProjectModel
from inwards_core.families.inw.layering import ScopedOptions


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
    no context owns, `source` None, into a context). A named tuple: one is made for each
    such import, and an attrs instance costs several times more to build."""

    info: ModuleInfo
    fact: ImportFact
    reached: str  # the module or name the import reaches
    source: Context | None
    target: Context


def crossing_imports(
    model: ProjectModel, options: ScopedOptions, contexts: ContextMap
) -> Iterator[CrossingImport]:
    """Every static import, in any checked file the rule applies to (layered or not), that
    reaches a context other than the importer's, in module and source order."""
    owner = contexts.owner
    first_party = model.index.is_first_party
    everywhere = not options.modules
    for info in model.checked:
        if info.file not in model.facts or not (everywhere or options.applies_to(info.name)):
            continue
        source = owner(info.name)
        for fact, reached in model.resolved_imports(info):
            if reached is None:
                continue
            target = owner(reached)
            if target is None or target is source or not first_party(reached):
                continue
            yield CrossingImport(info, fact, reached, source, target)
