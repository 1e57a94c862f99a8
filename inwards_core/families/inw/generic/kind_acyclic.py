"""inw.acyclic: an import cycle among the children of a package."""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Iterator, Mapping, Sequence

import attrs

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Example,
    Fix,
    ImportEdge,
    KindDocs,
    ProjectModel,
    ReadScope,
    Scope,
    Violation,
    option,
    quoted,
)
from inwards_core.families.inw.generic.cycle_depth import check_depth, packages_to_depth
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
    Chain,
    chain_files,
    chain_modules,
    chain_steps,
)
from inwards_core.families.inw.module_entries import (
    DEAD_ENTRY_PARAMS,
    ONE_LAYER_CONFIG,
    check_patterns,
    dead_entries,
    expand,
    module_list,
)

DOCS = KindDocs(
    what_it_does="""
For each package of `packages` (a prefix, or a selector such as `shop.contexts.*` for each
package it matches), looks at its children: each direct subpackage or submodule, together
with everything below it. A child depends on another when any module in it imports any
module in the other. Reports every cycle of such dependencies once, at the import that
starts it, with the children in the cycle rotated to start at the first in name order, and
one import (module, file and line) for each step.

`depth` goes down into the packages below: with `depth = 1`, the children of each child
package are checked the same way too, and so on, as import-linter's `acyclic_siblings`
contract does (which goes 10 levels down unless told otherwise). `skip-descendants` names
packages that `depth` does not go into.

Cycles are found child by child: for each child in a cycle, the shortest cycle through it.
Imports of the package itself (its `__init__`) are not a child's.
"""
    + IMPORT_OPTIONS_DOCS,
    why_is_this_bad="""
Children that import each other can't be understood, tested or moved one at a time: the
cycle makes them one big package in all but name, and at run time it is a source of
half-initialised modules and import errors that depend on which module is imported first.
""",
    how_to_fix="""
Break one step of the cycle, usually the one that points from a lower-level child to a
higher-level one: move the code both need into a child of its own (or down into the lower
one), or invert the step with a `typing.Protocol` that the lower child owns.
""",
    limitations="""
Runs on whole-project checks only (a cycle is a property of the whole project), never with
`inwards check PATHS`. Only direct imports between children make a step; a cycle through
modules outside the package is not reported. When several cycles go through the same
children, fixing the reported ones may reveal the next ones.
""",
)


@attrs.frozen
class AcyclicOptions:
    """No import cycle among the children of each of the packages.

    `packages` lists the packages (prefixes or selectors) whose direct children, each with
    everything below it, must not import each other in a cycle.
    """

    depth: int = option(
        0,
        check=check_depth,
        description=(
            "How many levels of packages below each of `packages` are checked the same way, "
            "as import-linter's acyclic_siblings `depth`: 0 (the default) only the children "
            "of each package, 1 also the children of each child package, and so on."
        ),
    )
    skip_descendants: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description=(
            "Packages below `packages` (prefixes or selectors) that `depth` does not go "
            "into: their children, and everything below them, are not checked."
        ),
    )
    packages: tuple[str, ...] = module_list(required=True)
    ignore_imports: tuple[str, ...] = ignore_imports_option()
    unmatched_ignore: str = unmatched_ignore_option()
    type_checking: bool = type_checking_option()
    dynamic: bool = dynamic_option()
    missing_modules: bool = missing_modules_option()

    def check_together(self) -> tuple[str, str] | None:
        both = sorted(set(self.packages) & set(self.skip_descendants))
        if both:
            return (
                "skip-descendants",
                f'names "{quoted(both[0])}", which is also one of `packages`.',
            )
        return None


@reads_ignored_importers
def reads(options: AcyclicOptions) -> ReadScope:
    return ReadScope(modules=options.packages)


GUIDANCE_PARAMS = {
    "package": "the package whose children form the cycle",
    "cycle": "the children in the cycle, `a -> b -> a`",
    "module": "the module that makes the first step",
    "imported": "what that first step imports",
    "statement": "the import statement of the first step, as one line",
    "chain": "one import per step as `module:line -> imported`, runs separated by `; `",
    **DEAD_ENTRY_PARAMS,
    **IGNORED_IMPORT_PARAMS,
}


def _child(package: str, name: str) -> str | None:
    if not name.startswith(package + "."):
        return None
    rest = name[len(package) + 1 :]
    return f"{package}.{rest.split('.', 1)[0]}"


@honours_import_options
def check(model: ProjectModel, options: AcyclicOptions) -> Iterator[Violation]:
    roots = {p for entry in options.packages for p in expand(model, entry)}
    skipped = {p for entry in options.skip_descendants for p in expand(model, entry)}
    packages = packages_to_depth(model, roots, options.depth, skipped)
    names = sorted(model.index.modules)
    for package in packages:
        steps = _steps(model, package, names)
        for cycle in _cycles(steps):
            chain: Chain = tuple(
                steps[(cycle[i], cycle[(i + 1) % len(cycle)])] for i in range(len(cycle))
            )
            first = chain[0]
            around = quoted(" -> ".join(map(quoted, (*cycle, cycle[0]))), LIST_LIMIT)
            stable = f'Import cycle among the children of "{quoted(package)}": {around}.'
            yield Violation(
                file=first.file,
                module=first.importer,
                span=first.span,
                message=f"{stable} Imports: {chain_files(chain)}.",
                stable_message=stable,
                chain=chain_steps(chain),
                params={
                    "package": quoted(package),
                    "cycle": around,
                    "module": quoted(first.importer),
                    "imported": quoted(first.target),
                    "statement": first.statement,
                    "chain": chain_modules(chain),
                },
                fallback=Fix(
                    f"Break the cycle {around}.",
                    (
                        f"Remove one step of the cycle, for example `{first.statement}` in "
                        f"{quoted(first.importer)}: move what both children need into one of "
                        "them or a new child.",
                    ),
                ),
            )
    yield from dead_entries(model, "packages", options.packages)
    yield from dead_entries(model, "skip-descendants", options.skip_descendants)


def _steps(
    model: ProjectModel, package: str, names: Sequence[str]
) -> dict[tuple[str, str], ImportEdge]:
    """For each dependency between two children, the import that stands for it: the
    first one in module-name and source order. `names`: every module name, sorted, where
    the modules below `package` stand together (one slice per package, with `depth`
    checking many packages)."""
    steps: dict[tuple[str, str], ImportEdge] = {}
    for position in range(bisect.bisect_left(names, package + "."), len(names)):
        name = names[position]
        source = _child(package, name)
        if source is None:
            break  # past the names below `package`
        info = model.index.modules[name]
        if info.file not in model.facts:
            continue
        for edge in model.import_edges(info):
            target = _child(package, edge.target) if edge.first_party else None
            if target is not None and target != source:
                steps.setdefault((source, target), edge)
    return steps


def _cycles(steps: Mapping[tuple[str, str], ImportEdge]) -> list[tuple[str, ...]]:
    """Each child's shortest cycle, rotated to start at its first child in name order,
    each cycle once, shortest first."""
    following: dict[str, list[str]] = {}
    for source, target in sorted(steps):
        following.setdefault(source, []).append(target)
    found: set[tuple[str, ...]] = set()
    for start in sorted(following):
        cycle = _shortest_cycle(start, following)
        if cycle is not None:
            smallest = cycle.index(min(cycle))
            found.add(cycle[smallest:] + cycle[:smallest])
    return sorted(found, key=lambda cycle: (len(cycle), cycle))


def _shortest_cycle(start: str, following: Mapping[str, list[str]]) -> tuple[str, ...] | None:
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in following.get(node, ()):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return tuple(reversed(path))
            if target not in came_from:
                came_from[target] = node
                queue.append(target)
    return None


_NO_CYCLES = """\
code = "ACME040"
name = "no-cycles-in-shop"
summary = "Packages of the shop import each other in a cycle."
check = "inw.acyclic"

[options]
packages = ["shop"]
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="Orders and billing import each other",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME040.toml": _NO_CYCLES},
            files={
                "shop/billing/invoice.py": (
                    "from shop.orders.model import Order  # expect: ACME040\n\nclass Invoice: ...\n"
                ),
                "shop/orders/model.py": "class Order: ...\n",
                "shop/orders/service.py": "from shop.billing.invoice import Invoice\n",
                "shop/catalog/items.py": "from shop.orders.model import Order\n",
            },
        ),
        Example(
            title="A cycle one level down, found with depth",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME042.toml": _NO_CYCLES.replace("ACME040", "ACME042")
                + 'depth = 2\nskip-descendants = ["shop.legacy"]\n'
            },
            files={
                "shop/orders/model.py": (
                    "from shop.orders.rules import check  # expect: ACME042\n\nclass Order: ...\n"
                ),
                "shop/orders/rules.py": "from shop.orders.model import Order\n",
                "shop/legacy/old/a.py": "from shop.legacy.old import b\n",
                "shop/legacy/old/b.py": "from shop.legacy.old import a\n",
            },
        ),
        Example(
            title="Dependencies point one way",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME040.toml": _NO_CYCLES},
            files={
                "shop/billing/invoice.py": "from shop.orders.model import Order\n",
                "shop/orders/model.py": "class Order: ...\n",
                "shop/catalog/items.py": "from shop.orders.model import Order\n",
            },
        ),
        Example(
            title="A cycle being taken apart, its last import ignored",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME041.toml": _NO_CYCLES.replace("ACME040", "ACME041")
                + 'ignore-imports = ["shop.orders.service -> shop.billing.invoice"]\n',
            },
            files={
                "shop/billing/invoice.py": "from shop.orders.model import Order\n",
                "shop/orders/model.py": "class Order: ...\n",
                "shop/orders/service.py": "from shop.billing.invoice import Invoice\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.acyclic",
    summary="Children of a package import each other in a cycle.",
    options_type=AcyclicOptions,
    check=check,
    scope=Scope.PROJECT,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
