"""inw.independence: packages that must not import one another."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from inwards_core import (
    CheckKind,
    Example,
    Fix,
    ImportEdge,
    KindDocs,
    ProjectModel,
    ReadScope,
    Violation,
    quoted,
)
from inwards_core.families.inw.generic.allowed_imports import (
    UNUSED_ALLOW_PARAMS,
    AllowedImports,
    allow_option,
)
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
    OTHER_ROUTES_DOCS,
    ROUTE_PARAMS,
    Chain,
    chain_violation,
    chains_from_each,
    direct_params,
    via,
)
from inwards_core.families.inw.module_entries import (
    DEAD_ENTRY_PARAMS,
    ONE_LAYER_CONFIG,
    checked_in,
    dead_entries,
    definition_warning,
    expand,
    module_list,
    owner,
)

DOCS = KindDocs(
    what_it_does="""
Each entry of `modules` is one unit: a prefix (`shop.orders`) stands for that package and
everything below it; a selector (`shop.contexts.*`) stands for one unit per package it
matches (`shop.contexts.billing`, `shop.contexts.orders`, ...). Reports every import, in
one unit, of code in another unit, in either direction. Imports within a unit, and of code
outside every unit, are fine.

With `indirect = true` the rule also follows chains of imports through modules outside the
units: for each ordered pair of units, the shortest chain is reported once, at its first
import, with every step (module, file and line). The message also lists the other imports of
the chain's route, as import-linter prints them: every other import from the unit into the
chain's first module in the middle, and every other import from its last module in the
middle into the other unit (module, file and line).
"""
    + OTHER_ROUTES_DOCS
    + """
`allow` lists the imports the rule lets through, as `"importer -> imported"` with module
prefixes or selectors on both sides (`"shop.contexts.billing.api -> shop.contexts.orders.events"`).
An allowed import is not reported and no chain goes through it; an entry that lets no import
through is reported as a warning in the rule's definition.
"""
    + IMPORT_OPTIONS_DOCS,
    why_is_this_bad="""
Independent packages (bounded contexts, plugins, features) can be changed, tested, owned
and eventually split out on their own. One import between them ties their releases
together, and the next ones follow more easily.
""",
    how_to_fix="""
Move what both need into a package outside the units (a shared kernel), or let the two
talk through an interface or an event that neither owns alone. For a chain, the module in
the middle usually belongs to one of the units or should be split.
""",
    limitations="""
Chains are followed only through modules inwards reads: code in `ignore` is not followed.
With `inwards check PATHS`, only direct imports are checked.
""",
)


@attrs.frozen
class IndependenceOptions:
    """Units that must not import each other.

    `modules` lists the units that must stay independent: each entry is a module prefix and
    everything below it, and a selector stands for one unit per package it matches.
    `indirect` also reports chains through other first-party modules (shortest per pair).
    `allow` lists imports the rule lets through, as `"importer -> imported"`.
    """

    modules: tuple[str, ...] = module_list(required=True)
    indirect: bool = False
    allow: tuple[str, ...] = allow_option()
    ignore_imports: tuple[str, ...] = ignore_imports_option()
    unmatched_ignore: str = unmatched_ignore_option()
    type_checking: bool = type_checking_option()
    dynamic: bool = dynamic_option()
    missing_modules: bool = missing_modules_option()


@reads_ignored_importers
def reads(options: IndependenceOptions) -> ReadScope:
    return ReadScope(modules=options.modules, import_graph=options.indirect)


GUIDANCE_PARAMS = {
    "module": "the module that imports (for a chain: the first one)",
    "imported": "what is imported (for a chain: the module at its end)",
    "statement": "the import statement (for a chain: the first one), as one line",
    "source": "the unit the module belongs to",
    "target": "the unit it reaches",
    "chain": "every step as `module:line`, ending with the imported module",
    "via": "the modules in the middle of a chain, joined by ` -> ` (empty for a direct import)",
    **ROUTE_PARAMS,
    **DEAD_ENTRY_PARAMS,
    **UNUSED_ALLOW_PARAMS,
    **IGNORED_IMPORT_PARAMS,
}


@honours_import_options
def check(model: ProjectModel, options: IndependenceOptions) -> Iterator[Violation]:
    units: dict[str, str] = {}
    for entry in options.modules:
        for unit in expand(model, entry):
            units.setdefault(unit, unit)
    ordered = sorted(units)
    allowed = AllowedImports(options.allow)

    for info in checked_in(model, ordered):
        source = owner(info.name, units)
        for edge in model.import_edges(info):
            target = owner(edge.target, units) if edge.first_party else None
            if source is None or target is None or target == source or allowed.permits(edge):
                continue
            shown_source, shown_target = quoted(source), quoted(target)
            stable = (
                f'"{quoted(info.name)}" imports "{quoted(edge.target)}" from "{shown_target}": '
                f'"{shown_source}" and "{shown_target}" must stay independent of each other.'
            )
            yield Violation(
                file=info.file,
                module=info.name,
                span=edge.span,
                message=stable,
                params={**direct_params(edge), "source": shown_source, "target": shown_target},
                fallback=Fix(
                    f'Keep "{shown_source}" and "{shown_target}" independent.',
                    (f"Delete `{edge.statement}`; move what both need outside the two units.",),
                ),
            )

    unit_of = _unit_finder(units)

    def hit(source: str, edge: ImportEdge) -> str | None:
        target = unit_of(edge.target) if edge.first_party else None
        return target if target != source else None

    if options.indirect:
        for source, target, chain in chains_from_each(
            model,
            ordered,
            ordered,
            hit=hit,
            passable=lambda _source, name: unit_of(name) is None,
            follows=allowed.follows,
        ):
            yield _chain_violation(source, target, chain)
    yield from dead_entries(model, "modules", options.modules)
    yield from allowed.unused(model)
    if model.whole_project and len(units) == 1:
        yield definition_warning(
            f'`options.modules` stands for one unit only ("{quoted(ordered[0])}"): '
            "independence needs two or more.",
            variant="one-unit",
            summary="List every package that must stay independent in `options.modules`.",
            steps=("Add the other units, or use a selector such as `shop.contexts.*`.",),
        )


def _unit_finder(units: dict[str, str]) -> Callable[[str], str | None]:
    """`owner` kept per module name: each unit's search asks for the same names."""
    known: dict[str, str | None] = {}

    def unit_of(name: str) -> str | None:
        if name not in known:
            known[name] = owner(name, units)
        return known[name]

    return unit_of


def _chain_violation(source: str, target: str, chain: Chain) -> Violation:
    source, target = quoted(source), quoted(target)
    stable = (
        f'"{quoted(chain[0].importer)}" reaches "{target}" through {via(chain)}: "{source}" and '
        f'"{target}" must stay independent, not even through other modules.'
    )
    return chain_violation(chain, stable, source, target, {"source": source, "target": target})


_CONTEXTS = """\
code = "ACME010"
name = "independent-contexts"
summary = "Bounded contexts import each other."
check = "inw.independence"

[options]
modules = ["shop.contexts.*"]
indirect = true
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="Two contexts lean on each other, once through a helper",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME010.toml": _CONTEXTS},
            files={
                "shop/contexts/billing/invoice.py": (
                    "from shop.contexts.orders.model import Order  # expect: ACME010\n"
                ),
                "shop/contexts/orders/model.py": "class Order: ...\n",
                "shop/contexts/orders/service.py": (
                    "from shop.legacy.bridge import invoice_for  # expect: ACME010\n"
                ),
                "shop/legacy/bridge.py": (
                    "from shop.contexts.billing.invoice import Order as invoice_for\n"
                ),
            },
        ),
        Example(
            title="An import the rule lets through, and an exception that excuses nothing",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME011.toml": (
                    'code = "ACME011"  # expect: ACME011\n'
                    'name = "independent-with-exceptions"\n'
                    'summary = "Bounded contexts import each other."\n'
                    'check = "inw.independence"\n'
                    "\n"
                    "[options]\n"
                    'modules = ["shop.contexts.*"]\n'
                    "allow = [\n"
                    '  "shop.contexts.billing.listeners -> shop.contexts.orders.events",\n'
                    '  "shop.contexts.orders -> shop.contexts.billing.api",\n'
                    "]\n"
                ),
            },
            files={
                "shop/contexts/billing/listeners.py": (
                    "from shop.contexts.orders.events import OrderPlaced\n"
                ),
                "shop/contexts/billing/invoice.py": (
                    "from shop.contexts.orders.model import Order  # expect: ACME011\n"
                ),
                "shop/contexts/orders/events.py": "class OrderPlaced: ...\n",
                "shop/contexts/orders/model.py": "class Order: ...\n",
            },
        ),
        Example(
            title="Contexts share a kernel outside the units",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME010.toml": _CONTEXTS},
            files={
                "shop/contexts/billing/invoice.py": "from shop.kernel.money import Money\n",
                "shop/contexts/orders/model.py": "from shop.kernel.money import Money\n",
                "shop/kernel/money.py": "class Money: ...\n",
            },
        ),
        Example(
            title="A known import ignored, with import-linter's wildcards",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME012.toml": _CONTEXTS.replace("ACME010", "ACME012")
                + 'ignore-imports = ["shop.contexts.billing.** -> shop.contexts.orders.events"]\n'
                + 'unmatched-ignore = "error"\n',
            },
            files={
                "shop/contexts/billing/listeners/placed.py": (
                    "from shop.contexts.orders.events import OrderPlaced\n"
                ),
                "shop/contexts/orders/events.py": "class OrderPlaced: ...\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.independence",
    summary="Packages that must stay independent import one another.",
    options_type=IndependenceOptions,
    check=check,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
