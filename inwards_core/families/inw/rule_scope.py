"""Why an INW kind leaves a module out (`CheckKind.scope_of`, asked by `inwards check
--explain` only): outside the rule's `modules`, in no layer, in no context. The answers use
what the kinds and `inwards explain-module` use (the index's ownership, `first_match`)."""

from __future__ import annotations

from typing import Any

import attrs

from inwards_core import CheckKind, ModuleInfo, ProjectModel, quoted
from inwards_core.families.inw.module_entries import first_match, owner

# Kinds that judge the imports made from a module a layer owns (INW001).
_LAYER_KINDS = frozenset({"inw.layer-dependency"})
# Kinds that judge the imports made from a module a context owns (INW002).
_CONTEXT_KINDS = frozenset({"inw.context-independence"})
# Kinds whose `modules` are not where they report (inw.protected: who imports them).
_MODULES_NOT_SCOPE = frozenset({"inw.protected"})


def with_scope(kind: CheckKind) -> CheckKind:
    """`kind` with the INW family's `scope_of` when it has none of its own."""
    if kind.scope_of is not None:
        return kind
    if kind.id in _LAYER_KINDS:
        return attrs.evolve(kind, scope_of=_layer_scope)
    if kind.id in _CONTEXT_KINDS:
        return attrs.evolve(kind, scope_of=_context_scope)
    fields = attrs.fields_dict(kind.options_type) if attrs.has(kind.options_type) else {}
    if "modules" in fields and kind.id not in _MODULES_NOT_SCOPE:
        return attrs.evolve(kind, scope_of=_modules_scope)
    return kind


def _modules_scope(options: Any, info: ModuleInfo, model: ProjectModel) -> str | None:
    entries: tuple[str, ...] = options.modules
    if not entries or first_match(info.name, entries) is not None:
        return None
    listed = ", ".join(f'"{quoted(entry)}"' for entry in entries)
    return f"{info.name} is not covered by the rule's modules = [{listed}]"


def _layer_scope(options: Any, info: ModuleInfo, model: ProjectModel) -> str | None:
    if info.layer is not None:
        return None
    return (
        f"no layer of [tool.inwards] layers owns {info.name} (`inwards explain-module {info.name}`)"
    )


def _context_scope(options: Any, info: ModuleInfo, model: ProjectModel) -> str | None:
    contexts = model.config.contexts
    if owner(info.name, {m: c for c in contexts for m in c.modules}) is not None:
        return None
    return (
        f"no context of [tool.inwards] contexts owns {info.name} "
        f"(`inwards explain-module {info.name}`)"
    )
