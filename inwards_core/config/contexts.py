"""The `contexts` array and the `cycles` list of `[tool.inwards]`.

Each `[[tool.inwards.contexts]]` table is read into a `Context`; then the checks that need
every context: unique names, no module prefix in two contexts, `public` entries the
context itself owns (the longest prefix of any context owns a module), and `depends-on`
naming other, declared contexts once each. `template` is a known key: templates are
expanded into the raw tables before this module reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from inwards_core.config.entries import module_entry
from inwards_core.config.feature_values import Context, PublicEntry
from inwards_core.config.problems import (
    PREFIX,
    ProblemCollector,
    known_keys,
    name_problem,
    sub_key,
    type_name,
)
from inwards_core.config.values import CONTEXT_CYCLES, DEFAULT_CYCLES, MODULE_CYCLES

CONTEXT_KEYS = ("name", "modules", "public", "depends-on", "template")
CYCLES_VALUES = (MODULE_CYCLES, CONTEXT_CYCLES)
EXACT_MARK = "="

_WILDCARD_CHARACTERS = "*?[]"


def context_module_entry(text: str) -> str | None:
    """Why `text` is not a literal module prefix, or None when it is one."""
    if any(character in text for character in _WILDCARD_CHARACTERS):
        return (
            f'"{text}" is a pattern; a context owns literal module prefixes such as '
            '"shop.orders" (everything below a prefix is the context\'s already).'
        )
    return module_entry(text)


def public_entry(text: str) -> str | None:
    """Why `text` is not a `public` entry (a prefix, or `=` and an exact module)."""
    module = text.removeprefix(EXACT_MARK)
    if not module:
        return (
            f'"{text}" names no module; write a module prefix such as "shop.orders.api", '
            'or "=shop.orders" for that module alone.'
        )
    return context_module_entry(module)


@attrs.frozen
class _Entries:
    """The valid entries of one array, each with its index there (for the messages)."""

    items: tuple[tuple[int, str], ...] = ()

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for _, value in self.items)


@attrs.frozen
class _Draft:
    context: Context
    modules: _Entries
    public: _Entries
    depends_on: _Entries


def read_contexts(problems: ProblemCollector, table: Mapping[str, Any]) -> tuple[Context, ...]:
    """The contexts of `table` (none when the key is absent), every problem added."""
    drafts = list(problems.table_array(table, "contexts", "context", _context))
    owners = _check_names_and_modules(problems, drafts)
    return tuple(_finished(problems, draft, owners, drafts) for draft in drafts)


def read_cycles(problems: ProblemCollector, table: Mapping[str, Any]) -> tuple[str, ...]:
    """`cycles`: which import cycles INW004 reports; the default when absent."""
    if "cycles" not in table:
        return DEFAULT_CYCLES
    key = f"{PREFIX}.cycles"
    value = table["cycles"]
    allowed = " and ".join(f'"{choice}"' for choice in CYCLES_VALUES)
    if not isinstance(value, list | tuple):
        problems.add(
            key,
            f'must be an array of {allowed}, such as ["contexts"] ([] reports no cycle), '
            f"not {type_name(value)}.",
        )
        return DEFAULT_CYCLES
    chosen: list[str] = []
    for index, item in enumerate(value):
        item_key = f"{key}[{index}]"
        if item not in CYCLES_VALUES:
            shown = f'"{item}"' if isinstance(item, str) else type_name(item)
            problems.add(item_key, f"must be {allowed.replace(' and ', ' or ')}, not {shown}.")
        elif item in chosen:
            problems.add(item_key, f'"{item}" is listed twice.')
        else:
            chosen.append(item)
    return tuple(chosen)


def _entries(
    problems: ProblemCollector,
    table: Mapping[str, Any],
    name: str,
    key: str,
    check: Callable[[str], str | None],
) -> _Entries:
    """The valid entries of the string array `name`, with their indices."""
    if name not in table:
        return _Entries()
    value = table[name]
    if not isinstance(value, list | tuple):
        problems.add(f"{key}.{name}", f"must be an array of strings, not {type_name(value)}.")
        return _Entries()
    items: list[tuple[int, str]] = []
    for index, item in enumerate(value):
        item_key = f"{key}.{name}[{index}]"
        if not isinstance(item, str):
            problems.add(item_key, f"must be a string, not {type_name(item)}.")
            continue
        message = check(item)
        if message:
            problems.add(item_key, message)
            continue
        items.append((index, item))
    return _Entries(tuple(items))


def _context(problems: ProblemCollector, table: Mapping[str, Any], key: str) -> _Draft | None:
    for unknown in table:
        if unknown not in CONTEXT_KEYS:
            problems.add(
                sub_key(key, unknown), f"is not a context key. {known_keys(CONTEXT_KEYS, unknown)}"
            )
    name = table.get("name")
    if "name" not in table:
        problems.add(key, "has no `name`; every context needs one, used in messages.")
    elif not isinstance(name, str):
        problems.add(f"{key}.name", f"must be a string, not {type_name(name)}.")
    elif not name.strip():
        problems.add(f"{key}.name", "must not be empty.")
    elif message := name_problem(name):
        problems.add(f"{key}.name", message)
    if "modules" not in table:
        problems.add(
            key,
            'has no `modules`; list the module prefixes the context owns, such as ["shop.orders"].',
        )
    elif isinstance(table["modules"], list | tuple) and not table["modules"]:
        problems.add(
            f"{key}.modules",
            'must list at least one module prefix, such as ["shop.orders"]; '
            "a context that owns nothing has nothing to check.",
        )
    modules = _entries(problems, table, "modules", key, context_module_entry)
    public = _entries(problems, table, "public", key, public_entry)
    depends_on = _entries(problems, table, "depends-on", key, name_problem)
    if not isinstance(name, str) or not name.strip():
        return None
    # A context with other problems is still read, with its valid entries, so the checks
    # across contexts report on it too.
    context = Context(name=name, modules=modules.values, key=key)
    return _Draft(context, modules, public, depends_on)


def _check_names_and_modules(
    problems: ProblemCollector, drafts: Sequence[_Draft]
) -> dict[str, Context]:
    """Unique names; no module prefix in two contexts (or twice in one). Returns the owner
    of each prefix."""
    names: dict[str, Context] = {}
    owners: dict[str, Context] = {}
    for draft in drafts:
        context = draft.context
        first = names.setdefault(context.name, context)
        if first is not context:
            problems.add(
                f"{context.key}.name",
                f'"{context.name}" is already the name of the context at {first.key}; '
                "context names must be unique.",
            )
        for index, module in draft.modules.items:
            owner = owners.setdefault(module, context)
            entry_key = f"{context.key}.modules[{index}]"
            if owner is context and _first_index(draft.modules, module) != index:
                problems.add(entry_key, f'"{module}" is listed twice in context "{context.name}".')
            elif owner is not context:
                problems.add(
                    entry_key,
                    f'"{module}" is in two contexts, "{owner.name}" and "{context.name}"; '
                    "a module prefix belongs to one context (a longer prefix may belong to "
                    "another, nested context).",
                )
    return owners


def _first_index(entries: _Entries, value: str) -> int:
    return next(index for index, item in entries.items if item == value)


def owning_context(owners: Mapping[str, Context], module: str) -> Context | None:
    """The context whose longest prefix covers `module`, or None."""
    name = module
    while True:
        owner = owners.get(name)
        if owner is not None:
            return owner
        cut = name.rfind(".")
        if cut < 0:
            return None
        name = name[:cut]


def _finished(
    problems: ProblemCollector,
    draft: _Draft,
    owners: Mapping[str, Context],
    drafts: Sequence[_Draft],
) -> Context:
    """The context with its `public` and `depends-on`, each entry checked against the
    other contexts."""
    context = draft.context
    public: list[PublicEntry] = []
    for index, text in draft.public.items:
        entry = PublicEntry(text.removeprefix(EXACT_MARK), exact=text.startswith(EXACT_MARK))
        entry_key = f"{context.key}.public[{index}]"
        owner = owning_context(owners, entry.module)
        if owner is not None and owner.name != context.name:
            problems.add(
                entry_key,
                f'"{entry.module}" belongs to context "{owner.name}", not "{context.name}"; '
                "a context's public modules are modules it owns.",
            )
        elif owner is None:
            problems.add(
                entry_key,
                f'"{entry.module}" belongs to no context; a context\'s public modules are '
                f"modules it owns (below one of its prefixes: {_listed(context.modules)}).",
            )
        elif entry in public:
            problems.add(entry_key, f'"{text}" is listed twice.')
        else:
            public.append(entry)
    declared = {other.context.name for other in drafts}
    depends_on: list[str] = []
    for index, name in draft.depends_on.items:
        entry_key = f"{context.key}.depends-on[{index}]"
        if name == context.name:
            problems.add(
                entry_key,
                f'is the context itself ("{name}"); a context may always import its own '
                "modules, so leave it out.",
            )
        elif name not in declared:
            problems.add(
                entry_key,
                f'"{name}" is not the name of a context. The contexts are '
                f"{_listed(sorted(declared))}.",
            )
        elif name in depends_on:
            problems.add(entry_key, f'"{name}" is listed twice.')
        else:
            depends_on.append(name)
    return attrs.evolve(context, public=tuple(public), depends_on=tuple(depends_on))


def _listed(names: Sequence[str]) -> str:
    return ", ".join(f'"{name}"' for name in names) if names else "none"
