"""inw.forbidden: the listed modules must not import the forbidden ones."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import (
    CheckKind,
    Fix,
    ImportEdge,
    KindDocs,
    ProjectModel,
    ReadScope,
    Violation,
    option,
    parse_module_pattern,
    quoted,
)
from inwards_core.families.inw.generic.chain_routes import MAX_OTHER_ROUTES
from inwards_core.families.inw.generic.ignored_imports import (
    IGNORED_IMPORT_PARAMS,
    IMPORT_OPTIONS_DOCS,
    dynamic_option,
    honours_import_options,
    ignore_imports_option,
    missing_modules_option,
    reads_ignored_importers,
    type_checking_option,
    unmatched_ignore_option,
)
from inwards_core.families.inw.generic.import_chains import (
    ROUTE_PARAMS,
    Chain,
    chain_violation,
    direct_params,
    pair_chains_from_each,
    via,
)
from inwards_core.families.inw.generic.kind_forbidden_examples import examples
from inwards_core.families.inw.module_entries import (
    DEAD_ENTRY_PARAMS,
    as_packages_option,
    checked_in,
    covers,
    dead_entries,
    first_cover,
    first_match,
    import_cover,
    module_list,
    pattern_of,
)

DOCS = KindDocs(
    what_it_does=f"""
Reports every import, in a module that an entry of `modules` covers, of something an entry of
`forbidden` covers. Entries of `modules` are prefixes (`shop.domain` covers `shop.domain` and
everything below it) or selectors (`shop.*.domain`, `shop.**.api`), as in
`[tool.inwards] layers`. Entries of `forbidden` name code of this project the same way, or
libraries (standard library or third-party) by import name or dotted prefix: `requests`,
`django.db`, `datetime`. Every import counts: at module level, in functions, under
`TYPE_CHECKING`, and dynamic imports whose target can be read.

`allow` lists exceptions, in two forms: `"shop.domain.clock -> datetime"` lets the modules
on the left import what is on the right (both sides prefixes or selectors), and a bare
`"django.utils.functional"` takes that name out of `forbidden` everywhere.

With `indirect = true` the rule also follows chains of imports through other first-party
modules, the other forbidden entries included: for each entry of `modules` and each
forbidden entry, the shortest chain is reported once, at the first import of the chain, with
every step (module, file and line). A chain to a library ends at the first-party module that
imports it. The message also lists the other imports of the chain's route, as import-linter
prints a layers contract's routes: every other import from the entry into the chain's first
module in the middle, and every other import from its last module in the middle into the
forbidden entry (module, file and line).

When more chains lead from one entry to the other, the finding lists them too (up to \
{MAX_OTHER_ROUTES}),
found as import-linter finds a forbidden contract's chains: the shortest one left once the
imports of the chains already listed are taken away. The finding names the same chains as
`lint-imports` wherever the shortest chain is unique at each search (among equally short
ones, import-linter's choice depends on the hash seed).
"""
    + """
With `as-packages = false` (import-linter's `as_packages = false`) each entry of `modules`,
and each entry of `forbidden` that names code of this project, stands for the module it
names only, not the modules below it: a chain then starts at that module and may go through
the modules below it.
"""
    + IMPORT_OPTIONS_DOCS,
    why_is_this_bad="""
A dependency that the architecture rules out creeps in one import at a time, often through a
helper module that looks harmless. Each one couples the listed code to something it should
not know about, and makes it harder to test, reuse or replace.
""",
    how_to_fix="""
Remove the import. When the code needs what the forbidden module offers, declare a
`typing.Protocol` for it next to the code, implement it where the forbidden module may be
used, and pass the implementation in. For a chain, cut the link that is cheapest to cut:
often the helper module in the middle should not import the forbidden module either.
""",
    limitations="""
Chains are followed only through modules inwards reads: code in `ignore` is not followed
unless an entry names it. Distribution names are not mapped to import names (write `yaml`,
not `PyYAML`). With `inwards check PATHS`, only direct imports are checked.
""",
)

ARROW = "->"


def _check_allow(value: tuple[str, ...]) -> str | None:
    for entry in value:
        sides = [side.strip() for side in entry.split(ARROW)]
        if len(sides) > 2:
            return (
                f'"{quoted(entry)}" has more than one "{ARROW}"; write "importer {ARROW} imported".'
            )
        for side in sides:
            try:
                parse_module_pattern(side)
            except ValueError as error:
                return f'"{quoted(entry)}": {error}.'
    return None


@attrs.frozen
class ForbiddenOptions:
    """What some modules must not import, and the exceptions.

    `modules` lists the importers: module prefixes or selectors, as in a layer's `modules`.
    `forbidden` lists what they may not import: first-party module prefixes, or libraries
    by top-level name or dotted prefix (`requests`, `django.db`). `allow` exempts imports:
    `"importer -> target"` permits one pair, a bare name takes that entry out of `forbidden`.
    `indirect` also reports chains through other first-party modules (shortest per pair).
    """

    modules: tuple[str, ...] = module_list(required=True)
    forbidden: tuple[str, ...] = module_list(required=True)
    allow: tuple[str, ...] = option((), check=_check_allow)
    indirect: bool = False
    ignore_imports: tuple[str, ...] = ignore_imports_option()
    unmatched_ignore: str = unmatched_ignore_option()
    type_checking: bool = type_checking_option()
    dynamic: bool = dynamic_option()
    missing_modules: bool = missing_modules_option()
    as_packages: bool = as_packages_option()

    @property
    def allowed_pairs(self) -> tuple[tuple[str, str], ...]:
        pairs: list[tuple[str, str]] = []
        for entry in self.allow:
            if ARROW in entry:
                left, right = (side.strip() for side in entry.split(ARROW))
                pairs.append((left, right))
        return tuple(pairs)

    @property
    def allowed_targets(self) -> tuple[str, ...]:
        return tuple(entry.strip() for entry in self.allow if ARROW not in entry)


@reads_ignored_importers
def reads(options: ForbiddenOptions) -> ReadScope:
    return ReadScope(modules=options.modules, import_graph=options.indirect)


GUIDANCE_PARAMS = {
    "module": "the module that imports (for a chain: the first one)",
    "imported": "what is imported (for a chain: the forbidden name at its end)",
    "statement": "the import statement (for a chain: the first one), as one line",
    "source": 'the `modules` entry that covers the module (`"shop.domain"`)',
    "forbidden": 'the `forbidden` entry that covers the import (`"requests"`)',
    "chain": "every step as `module:line`, ending with the imported name",
    "via": "the modules in the middle of a chain, joined by ` -> ` (empty for a direct import)",
    **ROUTE_PARAMS,
    **DEAD_ENTRY_PARAMS,
    **IGNORED_IMPORT_PARAMS,
}


@honours_import_options
def check(model: ProjectModel, options: ForbiddenOptions) -> Iterator[Violation]:
    pairs = options.allowed_pairs
    allowed_targets = options.allowed_targets
    as_packages = options.as_packages

    def forbidden_entry(name: str, first_party: bool = True) -> str | None:
        if first_match(name, allowed_targets) is not None:
            return None
        return import_cover(name, first_party, options.forbidden, as_packages=as_packages)

    def follows(edge: ImportEdge) -> bool:
        return not any(
            pattern_of(left).matches(edge.importer) and pattern_of(right).matches(edge.target)
            for left, right in pairs
        )

    for info in checked_in(model, options.modules):
        source = first_cover(info.name, options.modules, as_packages=as_packages)
        if source is None:
            continue
        for edge in model.import_edges(info):
            entry = forbidden_entry(edge.target, edge.first_party)
            if (
                entry is None
                or not follows(edge)
                or covers(entry, info.name, as_package=as_packages)
            ):
                continue  # code inside a forbidden entry may import its own subtree
            yield _direct_violation(source, entry, edge)

    def closed(entry: str, name: str, first_party: bool = True) -> bool:
        if first_match(name, allowed_targets) is not None:
            return False
        return import_cover(name, first_party, (entry,), as_packages=as_packages) is not None

    def passable(source: str, entry: str, name: str) -> bool:
        # As import-linter: only the pair's own two entries are closed to a chain; the
        # other forbidden entries are modules like any other.
        inside = covers(source, name, as_package=as_packages)
        return not inside and not closed(entry, name)

    if options.indirect:
        for source, entry, chain in pair_chains_from_each(
            model,
            options.modules,
            options.forbidden,
            hit=lambda _source, entry, edge: closed(entry, edge.target, edge.first_party),
            passable=passable,
            follows=follows,
            as_packages=as_packages,
        ):
            yield _chain_violation(source, entry, chain)
    yield from dead_entries(model, "modules", options.modules)


def _direct_violation(source: str, entry: str, edge: ImportEdge) -> Violation:
    shown_source, shown_entry = quoted(source), quoted(entry)
    return Violation(
        file=edge.file,
        module=edge.importer,
        span=edge.span,
        message=f'"{quoted(edge.importer)}" imports "{quoted(edge.target)}": '
        f'"{shown_source}" may not import "{shown_entry}".',
        params={**direct_params(edge), "source": shown_source, "forbidden": shown_entry},
        fallback=Fix(
            f'Keep "{shown_entry}" out of "{shown_source}".',
            (f"Delete `{edge.statement}`.",),
        ),
    )


def _chain_violation(source: str, entry: str, chain: Chain) -> Violation:
    source, entry = quoted(source), quoted(entry)
    stable = (
        f'"{quoted(chain[0].importer)}" reaches "{quoted(chain[-1].target)}" through '
        f'{via(chain)}: "{source}" may not import "{entry}", not even through other modules.'
    )
    return chain_violation(chain, stable, source, entry, {"source": source, "forbidden": entry})


KIND = CheckKind(
    id="inw.forbidden",
    summary="Listed modules import something they must not (directly, or through a chain).",
    options_type=ForbiddenOptions,
    check=check,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
