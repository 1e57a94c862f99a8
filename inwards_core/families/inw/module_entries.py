"""Options that name modules, as the generic kinds (inw.forbidden, inw.independence,
inw.layers, inw.protected, inw.acyclic) take them: validating, matching and expanding the
entries, and the warnings about a definition whose entries match nothing.

The generic kinds exist for user and project rule definitions: their options name modules
by prefix (`shop.domain`) or selector (`shop.*.domain`), as `[tool.inwards] layers` does.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from inwards_core import (
    Fix,
    ModuleInfo,
    ModulePattern,
    ProjectModel,
    Severity,
    Span,
    Violation,
    option,
    parse_module_pattern,
    quoted,
)

T = TypeVar("T")


def check_patterns(value: tuple[str, ...]) -> str | None:
    """The problem with the first entry that is no module prefix or selector, or None."""
    for entry in value:
        try:
            parse_module_pattern(entry)
        except ValueError as error:
            return str(error) + "."
    return None


def _check_required_patterns(value: tuple[str, ...]) -> str | None:
    if not value:
        return "must list at least one module."
    return check_patterns(value)


def module_list(*, required: bool = False) -> Any:
    """An option holding module prefixes or selectors; a required one may not be empty."""
    return option(
        (), check=_check_required_patterns if required else check_patterns, required=required
    )


@functools.lru_cache(maxsize=4096)
def pattern_of(text: str) -> ModulePattern:
    """A validated `modules` entry, parsed once per process."""
    return parse_module_pattern(text)


def first_match(name: str, entries: Sequence[str]) -> str | None:
    """The first entry (prefix or selector) that covers `name`, or None."""
    for entry in entries:
        if pattern_of(entry).matches(name):
            return entry
    return None


def as_packages_option() -> Any:
    """The `as-packages` field of inw.forbidden's and inw.protected's options."""
    return option(
        True,
        description="Whether each module entry stands for that module and everything below "
        "it (the default), or for that module only (false, import-linter's "
        "`as_packages = false`). A library entry always covers what is imported from it.",
    )


def covers(entry: str, name: str, *, as_package: bool = True) -> bool:
    """Whether `entry` covers the module `name`: as a package (it or anything below it), or
    with `as_package` false only a module it names itself (`shop.*.db` names `shop.a.db`,
    not `shop.a.db.session`)."""
    match = pattern_of(entry).match(name)
    if match is None:
        return False
    return as_package or match.depth == name.count(".") + 1


def first_cover(name: str, entries: Sequence[str], *, as_packages: bool = True) -> str | None:
    """The first entry that `covers` `name`, or None."""
    for entry in entries:
        if covers(entry, name, as_package=as_packages):
            return entry
    return None


def import_cover(
    target: str, first_party: bool, entries: Sequence[str], *, as_packages: bool = True
) -> str | None:
    """The first entry that covers the imported `target`, or None. A library is one node for
    import-linter: an entry covers whatever is imported from it, whatever `as_packages`."""
    return first_cover(target, entries, as_packages=as_packages or not first_party)


def covers_some_module(model: ProjectModel, entry: str) -> bool:
    pattern = pattern_of(entry)
    return any(pattern.matches(name) for name in model.index.modules)


def expand(model: ProjectModel, entry: str) -> tuple[str, ...]:
    """The packages or modules an entry stands for, each one unit: a prefix stands for
    itself; a selector (`shop.*`) for every distinct name it matches (`shop.orders`,
    `shop.billing`), leaving out names inside another one."""
    return expand_among(model.index.modules, entry)


def expand_among(modules: Iterable[str], entry: str) -> tuple[str, ...]:
    """`expand` over the module names `modules`."""
    pattern = pattern_of(entry)
    if not pattern.is_selector:
        return (entry,)
    found: set[str] = set()
    for name in modules:
        match = pattern.match(name)
        if match is not None:
            found.add(".".join(name.split(".")[: match.depth]))
    return tuple(sorted(n for n in found if not any(p in found for p in _packages_above(n))))


def _packages_above(name: str) -> Iterator[str]:
    """`a.b.c` -> `a`, `a.b`."""
    cut = name.find(".")
    while cut != -1:
        yield name[:cut]
        cut = name.find(".", cut + 1)


def owner(name: str, owners: Mapping[str, T]) -> T | None:
    """The value of the longest key of `owners` that is `name` or a package above it."""
    probe = name
    while True:
        found = owners.get(probe)
        if found is not None:
            return found
        cut = probe.rfind(".")
        if cut < 0:
            return None
        probe = probe[:cut]


def checked_in(model: ProjectModel, entries: Sequence[str]) -> Iterator[ModuleInfo]:
    """Each checked file whose module an entry covers."""
    for info in model.checked:
        if info.file in model.facts and first_match(info.name, entries) is not None:
            yield info


def checked_in_each(model: ProjectModel, entries: Sequence[str]) -> dict[str, list[ModuleInfo]]:
    """`list(checked_in(model, (entry,)))` for each entry, in one pass over the modules when
    every entry is a prefix (a search per unit walks them all once, not once per unit)."""
    if any(pattern_of(entry).is_selector for entry in entries):
        return {entry: list(checked_in(model, (entry,))) for entry in entries}
    found: dict[str, list[ModuleInfo]] = {entry: [] for entry in entries}
    for info in model.checked:
        if info.file not in model.facts:
            continue
        for prefix in (*_packages_above(info.name), info.name):
            members = found.get(prefix)
            if members is not None:
                members.append(info)
    return found


def definition_warning(
    message: str,
    *,
    variant: str,
    summary: str,
    steps: tuple[str, ...],
    params: Mapping[str, str] | None = None,
) -> Violation:
    """A warning about the rule's own definition (an entry that matches nothing, a unit
    alone), which the engine locates in the definition file. `summary` and `steps` are the
    kind's fix, unless the definition words `variant` (its main guidance is about code)."""
    return Violation(
        file="",
        module=None,
        span=Span.start_of_file(),
        message=message,
        severity=Severity.WARNING,
        in_definition=True,
        params={} if params is None else params,
        variant=variant,
        fallback=Fix(summary, steps),
    )


# The guidance parameters of the warnings `dead_entries` gives (about the definition itself).
DEAD_ENTRY_PARAMS = {
    "entry": "an entry of the rule's options that matches no module (warnings about the rule)",
    "option": "where that entry is in the definition, as `options.modules[0]`",
}


def dead_entries(
    model: ProjectModel, option: str, entries: Sequence[str], *, libraries: bool = False
) -> Iterator[Violation]:
    """A warning, in the rule's definition, for each entry matching no module (whole-project
    runs only): a rule that checks nothing there is usually a typo or a moved package.
    With `libraries`, an entry may name a library (which is no module of the project): only
    first-party entries are warned about."""
    if not model.whole_project:
        return
    for position, entry in enumerate(entries):
        if covers_some_module(model, entry):
            continue
        if libraries and not model.index.is_first_party(entry):
            continue
        key = f"options.{option}[{position}]"
        shown = quoted(entry)
        yield definition_warning(
            f'`{key}` is "{shown}", which matches no module of this project, so the '
            "rule checks nothing there.",
            params={"entry": shown, "option": key, "module": "", "statement": "", "chain": ""},
            variant="dead-entry",
            summary=f'Fix or remove "{shown}" in `{key}` of the rule definition.',
            steps=(
                f'Check the spelling of "{shown}" against the packages of this project.',
                "If the code moved, point the entry at its new package; if it is gone, "
                "delete the entry.",
            ),
        )


# One layer that owns the whole example project: the generic kinds' examples show their
# own rule alone, without the layer rules reporting on the same imports.
ONE_LAYER_CONFIG = """\
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]
"""
