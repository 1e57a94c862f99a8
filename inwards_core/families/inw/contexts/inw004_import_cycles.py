"""inw.import-cycles: modules, or contexts, that import each other in a cycle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Config,
    Example,
    ImportEdge,
    KindDocs,
    ProjectModel,
    Reach,
    Scope,
    Violation,
    quoted,
)
from inwards_core.families.inw.generic.import_chains import (
    chain_files,
    chain_modules,
    chain_steps,
)
from inwards_core.families.inw.layering.layer_relations import ScopedOptions

if TYPE_CHECKING:
    from inwards_core.families.inw.contexts.cycle_graph import Graph

# The graph helpers are imported by `check`: a project that looks for no cycle (no contexts,
# no `cycles = ["modules"]`) never loads them.

MODULE_CYCLES, CONTEXT_CYCLES = "modules", "contexts"

DOCS = KindDocs(
    what_it_does="""
Finds the groups of modules that import each other in a cycle (with `"modules"` in
`cycles`) and the groups of bounded contexts that do (with `"contexts"`, the default): each
strongly connected component of the import graph, over the imports the check reads anyway.
A module's node is the module itself; an import points at the longest read module that
prefixes what it reaches. A context's node gathers every module the context owns.

Each group is reported once, at the import that makes the first step of the shortest cycle
through its first member in name order. The message shows that cycle, how many members and
links the group has, and a hash of its links: a baseline entry stays valid while the group
stays the same, and fails as soon as a module or an import joins or leaves it.

Imports inside functions and dynamic imports with a readable target are steps (they run
sooner or later); imports in the body of `if TYPE_CHECKING:` are not (they never run).
""",
    why_is_this_bad="""
Modules in a cycle can't be imported, tested or understood one at a time, and which one
Python happens to import first decides whether a name is defined yet: the source of
half-initialised modules and import errors that come and go. Contexts in a cycle are no
longer separate: neither can change or ship without the other.
""",
    how_to_fix="""
Break one step of the reported cycle, usually the one that goes from lower-level code to
higher-level code: move what both sides need into a module (or context) both may import, or
turn the step around with a `typing.Protocol` the lower side owns. Moving the import into a
function hides the cycle from Python's import system only: it still runs, and still counts
here. A group may hold more cycles than the one shown; the next run reports the next.
""",
    limitations="""
Runs on whole-project checks only, never with `inwards check PATHS`, and can't be
suppressed inline: record a group you accept for now in a baseline. The package `__init__`
that Python runs before a submodule is not a step unless the code imports it. Without
contexts only the modules layers own are read, so a cycle through code no layer owns is not
seen; with contexts declared every module is read.
""",
)

GUIDANCE_PARAMS = {
    "cycle": "the cycle, `a -> b -> a`",
    "members": "how many modules or contexts the group holds",
    "links": "how many links join them",
    "group": "the hash of the group's links",
    "module": "the module that makes the first step",
    "imported": "what that first step imports",
    "statement": "the import statement of the first step, as one line",
    "chain": "one import per step as `module:line -> imported`",
}


def applies(config: Config) -> bool:
    """Module cycles are looked for when asked; context cycles when contexts exist."""
    return MODULE_CYCLES in config.cycles or (
        CONTEXT_CYCLES in config.cycles and bool(config.contexts)
    )


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    if not applies(model.config):
        return
    from inwards_core.families.inw.contexts.context_map import context_imports
    from inwards_core.families.inw.contexts.cycle_graph import context_graph, module_graph

    cycles = model.config.cycles
    if MODULE_CYCLES in cycles:
        yield from _reports(model, options, module_graph(model), "modules", "")
    if CONTEXT_CYCLES in cycles and model.config.contexts:
        graph = context_graph(model, model.shared(context_imports))
        yield from _reports(model, options, graph, "contexts", "contexts")


def _reports(
    model: ProjectModel, options: ScopedOptions, graph: Graph, nodes: str, variant: str
) -> Iterator[Violation]:
    from inwards_core.families.inw.contexts.cycle_graph import (
        component_links,
        components,
        links_hash,
        shortest_cycle,
    )

    for members in components(graph):
        cycle = shortest_cycle(graph, members)
        steps = tuple(
            graph.step(node, cycle[(position + 1) % len(cycle)])
            for position, node in enumerate(cycle)
        )
        first = steps[0]
        if not options.applies_to(first.importer):
            continue
        links = component_links(graph, members)
        yield _violation(
            first, steps, cycle, len(members), len(links), links_hash(links), nodes, variant
        )


def _violation(
    first: ImportEdge,
    steps: tuple[ImportEdge, ...],
    cycle: tuple[str, ...],
    members: int,
    links: int,
    group: str,
    nodes: str,
    variant: str,
) -> Violation:
    around = quoted(" -> ".join(map(quoted, (*cycle, cycle[0]))), LIST_LIMIT)
    stable = (
        f"The {nodes} {around} import each other in a cycle. It belongs to a group of "
        f"{members} {nodes} and {links} links where each reaches every other "
        f"(group {group})."
    )
    return Violation(
        file=first.file,
        module=first.importer,
        span=first.span,
        message=f"{stable} Steps: {chain_files(steps)}.",
        stable_message=stable,
        params={
            "cycle": around,
            "members": str(members),
            "links": str(links),
            "group": group,
            "module": quoted(first.importer),
            "imported": quoted(first.target),
            "statement": first.statement,
            "chain": chain_modules(steps),
        },
        variant=variant,
        chain=chain_steps(steps),
    )


_MODULE_CYCLES = """\
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]
cycles = ["modules"]
"""

_CONTEXT_CYCLES = """\
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
public = ["shop.orders"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing"]
depends-on = ["orders"]
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="Pricing and discounts import each other, once inside a function",
            good=False,
            config=_MODULE_CYCLES,
            files={
                "shop/discounts.py": "from shop.pricing import price  # expect: INW004\n",
                "shop/pricing.py": (
                    "def price() -> int:\n"
                    "    from shop.discounts import rebate\n"
                    "    return rebate()\n"
                ),
            },
        ),
        Example(
            title="Two contexts that declare each other still make a cycle",
            good=False,
            config=_CONTEXT_CYCLES,
            files={
                "shop/billing/invoice.py": "from shop.orders.cart import Cart  # expect: INW004\n",
                "shop/orders/cart.py": "from shop.billing.invoice import Invoice\n",
            },
        ),
        Example(
            title="A type-only import back is no step",
            good=True,
            config=_MODULE_CYCLES,
            files={
                "shop/discounts.py": "from shop.pricing import price\n",
                "shop/pricing.py": (
                    "from typing import TYPE_CHECKING\n"
                    "if TYPE_CHECKING:\n"
                    "    from shop.discounts import Rebate\n"
                    "\n"
                    "def price() -> int:\n"
                    "    return 0\n"
                ),
            },
        ),
    )


KIND = CheckKind(
    id="inw.import-cycles",
    reach=Reach.IMPORT_GRAPH,
    summary="Modules or contexts that import each other in a cycle.",
    options_type=ScopedOptions,
    check=check,
    scope=Scope.PROJECT,
    applies=applies,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
