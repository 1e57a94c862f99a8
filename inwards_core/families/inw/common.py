"""What several INW check kinds share: the `modules` option, layer relations, wording."""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from inwards_core.config.patterns import ModulePattern, parse_module_pattern
from inwards_core.config.values import Config, Layer
from inwards_core.index.modules import ModuleIndex, ModuleInfo
from inwards_core.model.facts import ImportFact, ModuleFacts
from inwards_core.model.findings import Severity, Span
from inwards_core.model.quoting import LIST_LIMIT, quoted
from inwards_core.rules.kinds import Violation
from inwards_core.rules.options import option_name
from inwards_core.rules.project import ImportEdge, ProjectModel

T = TypeVar("T")


def _check_patterns(value: tuple[str, ...]) -> str | None:
    for entry in value:
        try:
            parse_module_pattern(entry)
        except ValueError as error:
            return str(error) + "."
    return None


@attrs.frozen
class ScopedOptions:
    """`modules`: module prefixes or selectors; when set, the rule reports only in them."""

    modules: tuple[str, ...] = attrs.field(default=(), metadata={"check": _check_patterns})

    def applies_to(self, module: str) -> bool:
        if not self.modules:
            return True
        return any(parse_module_pattern(entry).matches(module) for entry in self.modules)


class Relation(enum.Enum):
    SAME = "same"
    INNER = "inner"
    OUTER = "outer"
    SIBLING = "sibling"


def relation(source: Layer, target: Layer) -> Relation:
    if source.name == target.name:
        return Relation.SAME
    if target.rank < source.rank:
        return Relation.INNER
    if target.rank > source.rank:
        return Relation.OUTER
    return Relation.SIBLING


def forbidden(source: Layer, target: Layer) -> bool:
    return relation(source, target) in (Relation.OUTER, Relation.SIBLING)


def breach(source: Layer, target: Layer) -> str | None:
    """How an import from `source` into `target` breaks the layering, as a phrase for the
    message ("the outer layer ..."), or None when it doesn't."""
    kind = relation(source, target)
    if kind is Relation.OUTER:
        return f'the outer layer "{quoted(target.name)}"'
    if kind is Relation.SIBLING:
        return f'"{quoted(target.name)}", a sibling layer of "{quoted(source.name)}"'
    return None


def direction(config: Config) -> str:
    """`domain <- application <- outbound | inbound <- bootstrap`: who may import whom."""
    ranks: dict[int, list[str]] = {}
    for layer in config.layers:
        ranks.setdefault(layer.rank, []).append(quoted(layer.name))
    return quoted(" <- ".join(" | ".join(names) for _, names in sorted(ranks.items())), LIST_LIMIT)


def layered_files(
    model: ProjectModel, options: ScopedOptions
) -> Iterator[tuple[ModuleInfo, Layer, ModuleFacts]]:
    """Each checked file that a layer owns, that the rule applies to, and whose imports
    could be read (files with an encoding problem are INW000's alone)."""
    for info in model.checked:
        layer = info.layer
        if layer is None or not options.applies_to(info.name):
            continue
        facts = model.facts.get(info.file)
        if facts is None:
            continue
        yield info, layer, facts


def imported_name(fact: ImportFact) -> str:
    """The dotted name a reader sees as imported: `a.b` for `import a.b`, `a.b` for `from a import b`
    (as messages quote it)."""
    return quoted(fact.target or fact.raw_module or "?")


def outward_layer(index: ModuleIndex, source: Layer, name: str) -> Layer | None:
    """The layer owning `name` when importing it from `source` breaks the layering."""
    target = index.layer_of(name)
    if target is not None and forbidden(source, target):
        return target
    return None


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# -- the generic kinds (inw.forbidden, inw.independence, inw.layers, inw.protected, ...) --
#
# They exist for user and project rule definitions: their options name modules by prefix
# or selector, and with `indirect = true` they follow import chains through any
# first-party module (shortest chain per pair, found breadth-first in a fixed order).


def _check_required_patterns(value: tuple[str, ...]) -> str | None:
    if not value:
        return "must list at least one module."
    return _check_patterns(value)


def module_list(*, required: bool = False) -> Any:
    """An attrs field holding module prefixes or selectors. A required one may not be
    empty, and its absence is reported by `require_options`."""
    check = _check_required_patterns if required else _check_patterns
    return attrs.field(default=(), metadata={"check": check, "required": required})


def require_options(options: Any) -> None:
    """Raise for a required option that was not given (parse_options reports a TypeError
    under the `options` key)."""
    for field in attrs.fields(type(options)):
        if field.metadata.get("required") and not getattr(options, field.name):
            raise TypeError(f"has no `{option_name(field.name)}`: this option is required.")


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


def covers_some_module(model: ProjectModel, entry: str) -> bool:
    pattern = pattern_of(entry)
    return any(pattern.matches(name) for name in model.index.modules)


def expand(model: ProjectModel, entry: str) -> tuple[str, ...]:
    """The packages or modules an entry stands for, each one unit: a prefix stands for
    itself; a selector (`shop.*`) for every distinct name it matches (`shop.orders`,
    `shop.billing`), leaving out names inside another one."""
    pattern = pattern_of(entry)
    if not pattern.is_selector:
        return (entry,)
    found: set[str] = set()
    for name in model.index.modules:
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


def readable(model: ProjectModel, name: str) -> ModuleInfo | None:
    """The module named `name` when its file was read (a node a chain can go through)."""
    info = model.index.modules.get(name)
    if info is None or info.file not in model.facts:
        return None
    return info


Chain = tuple[ImportEdge, ...]


def shortest_chains(
    model: ProjectModel,
    sources: Iterable[ModuleInfo],
    hit: Callable[[ImportEdge], str | None],
    passable: Callable[[str], bool],
    follows: Callable[[ImportEdge], bool] | None = None,
) -> dict[str, Chain]:
    """For each key `hit` gives, the shortest indirect chain (two imports or more) from a
    source module through `passable` first-party modules to an import that `hit` keys.

    Breadth-first from the sources in name order, imports in source order: the result
    depends only on the code. Imports straight from a source are the direct findings and
    start chains but never end one. `follows` leaves imports out of the graph (`allow`).
    """
    starts = sorted(sources, key=lambda info: info.name)
    source_names = {info.name for info in starts}
    reached_by: dict[str, ImportEdge] = {}
    seen = set(source_names)
    found: dict[str, Chain] = {}
    frontier = starts
    while frontier:
        following: list[ModuleInfo] = []
        for info in frontier:
            for edge in model.import_edges(info):
                if follows is not None and not follows(edge):
                    continue
                if info.name not in source_names:
                    key = hit(edge)
                    if key is not None and key not in found:
                        found[key] = (*_path_to(info.name, reached_by), edge)
                target = edge.target
                if not edge.first_party or target in seen or not passable(target):
                    continue
                node = readable(model, target)
                if node is None:
                    continue
                seen.add(target)
                reached_by[target] = edge
                following.append(node)
        frontier = following
    return found


def _path_to(name: str, reached_by: Mapping[str, ImportEdge]) -> Chain:
    steps: list[ImportEdge] = []
    while name in reached_by:
        edge = reached_by[name]
        steps.append(edge)
        name = edge.importer
    return tuple(reversed(steps))


def chain_modules(chain: Chain) -> str:
    """`shop.domain.order:3 -> shop.common.http:1 -> requests`: each step's importer and
    line; a step that starts elsewhere than the last one ended begins a new run (`; `)."""
    return _render_chain(chain, lambda edge: f"{quoted(edge.importer)}:{edge.span.line}")


def chain_files(chain: Chain) -> str:
    """The same chain with the file and line of each import, for messages."""
    return _render_chain(
        chain, lambda edge: f"{quoted(edge.importer)} ({quoted(edge.file)}:{edge.span.line})"
    )


def chain_names(chain: Chain) -> str:
    """The chain without lines (stable across edits): `a -> b -> requests`."""
    return _render_chain(chain, lambda edge: quoted(edge.importer))


def via(chain: Chain) -> str:
    """The modules in the middle of a chain: `shop.util.fetch -> shop.util.http`."""
    return quoted(" -> ".join(quoted(edge.target) for edge in chain[:-1]), LIST_LIMIT)


def _render_chain(chain: Chain, step: Callable[[ImportEdge], str]) -> str:
    parts: list[str] = []
    for position, edge in enumerate(chain):
        if position and chain[position - 1].target != edge.importer:
            parts.append(f"{quoted(chain[position - 1].target)}; ")
        parts.append(f"{step(edge)} -> ")
    return quoted("".join(parts) + (quoted(chain[-1].target) if chain else ""), LIST_LIMIT)


def chain_params(chain: Chain) -> dict[str, str]:
    """The guidance parameters every chain finding fills."""
    first = chain[0]
    return {
        "module": quoted(first.importer),
        "statement": first.statement,
        "chain": chain_modules(chain),
        "via": via(chain),
        "imported": quoted(chain[-1].target),
    }


def chain_violation(
    chain: Chain, stable: str, source: str, target: str, params: Mapping[str, str]
) -> Violation:
    """A finding for an indirect chain from `source` to `target`, located at its first
    import; the message ends with every step's file and line."""
    first = chain[0]
    return Violation(
        file=first.file,
        module=first.importer,
        span=first.span,
        message=f"{stable} Chain: {chain_files(chain)}.",
        stable_message=stable,
        params={**chain_params(chain), **params},
        fallback_summary=f'Cut the chain from "{quoted(source)}" to "{quoted(target)}".',
        fallback_steps=(
            f"Remove one import of the chain {chain_names(chain)}: `{first.statement}`, or "
            "one in a module in the middle.",
        ),
    )


def direct_params(edge: ImportEdge) -> dict[str, str]:
    return {
        "module": quoted(edge.importer),
        "statement": edge.statement,
        "chain": f"{quoted(edge.importer)}:{edge.span.line} -> {quoted(edge.target)}",
        "via": "",
        "imported": quoted(edge.target),
    }


# The guidance parameters of the warnings `dead_entries` gives (about the definition itself).
DEAD_ENTRY_PARAMS = {
    "entry": "an entry of the rule's options that matches no module (warnings about the rule)",
    "option": "where that entry is in the definition, as `options.modules[0]`",
}


def dead_entries(model: ProjectModel, option: str, entries: Sequence[str]) -> Iterator[Violation]:
    """A warning, in the rule's definition, for each entry matching no module (whole-project
    runs only): a rule that checks nothing there is usually a typo or a moved package."""
    if not model.whole_project:
        return
    for position, entry in enumerate(entries):
        if covers_some_module(model, entry):
            continue
        key = f"options.{option}[{position}]"
        shown = quoted(entry)
        yield Violation(
            file="",
            module=None,
            span=Span.start_of_file(),
            message=f'`{key}` is "{shown}", which matches no module of this project, so the '
            "rule checks nothing there.",
            severity=Severity.WARNING,
            in_definition=True,
            params={"entry": shown, "option": key, "module": "", "statement": "", "chain": ""},
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
