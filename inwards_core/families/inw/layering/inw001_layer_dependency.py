"""inw.layer-dependency: an import that points outwards, or sideways into a sibling layer."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import CheckKind, Example, KindDocs, ProjectModel, Reach, Violation, quoted
from inwards_core.families.inw.layering.layer_relations import (
    ScopedOptions,
    breach,
    direction,
    imported_name,
    layered_files,
)
from inwards_core.families.inw.layering.port_module import PortModules

DOCS = KindDocs(
    what_it_does="""
Reports every import, in a module that a layer owns, of first-party code that belongs to an
outer layer, or to a sibling layer of the same group. Every import counts: at module level,
inside functions and classes, under `if TYPE_CHECKING:`, in `try` blocks; relative imports
are resolved against their package, and `from shop import infrastructure` is read as an
import of the subpackage `shop.infrastructure`.
""",
    why_is_this_bad="""
Layers are listed innermost first, and code may only depend on its own layer and the ones
inside it. An inner layer that imports an outer one can no longer be reused, tested or
reasoned about without everything outside it: the architecture is then only a folder layout.
""",
    how_to_fix="""
Invert the dependency. Declare what the inner code needs as a `typing.Protocol` that the
inner layer owns, type the inner code against it, implement it in the outer layer, and wire the
implementation in the composition root. Moving the import into a function, behind
`TYPE_CHECKING` or into `importlib` does not help: inwards reads all of those.

The fix names a module for the Protocol that the inner layer owns, so following it makes no
new finding: the layer's package's `ports` module (`shop.domain.ports`); where another layer
owns that name, an existing `ports` module of the layer, or a new one in a package the layer
owns, or else the importing module itself.
""",
    limitations="""
Imports used only for type annotations are reported too. Code that no layer owns is not
checked here (see unassigned-module).
""",
)


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    flow = direction(model.config)
    ports = PortModules(model)
    for info, layer, _facts in layered_files(model, options):
        for fact, name in model.resolved_imports(info):
            if name is None:
                continue
            target = model.index.layer_of(name)
            if target is None:
                continue
            where = breach(layer, target)
            if where is None:
                continue
            shown = imported_name(fact)
            stable = f'Layer "{quoted(layer.name)}" imports "{shown}" from {where}.'
            yield Violation(
                file=info.file,
                module=info.name,
                span=fact.span,
                message=f"{stable} Imports may only point inwards: {flow}.",
                stable_message=stable,
                params={
                    "layer": quoted(layer.name),
                    "target_layer": quoted(target.name),
                    "imported": shown,
                    "statement": fact.statement,
                    "module": quoted(info.name),
                    "ports": quoted(ports.for_module(info.name, layer)),
                },
            )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="The domain imports an adapter",
            good=False,
            files={
                "shop/domain/order.py": (
                    "from shop.infrastructure.db import SqlOrders  # expect: INW001\n"
                    "\n"
                    "def total(orders: SqlOrders) -> int:\n"
                    "    return 0\n"
                ),
                "shop/infrastructure/db.py": "class SqlOrders: ...\n",
            },
        ),
        Example(
            title="Deferred and type-only imports count too",
            good=False,
            files={
                "shop/application/checkout.py": (
                    "from typing import TYPE_CHECKING\n"
                    "if TYPE_CHECKING:\n"
                    "    from shop.infrastructure import db  # expect: INW001\n"
                    "\n"
                    "def run() -> None:\n"
                    "    from shop.infrastructure.db import SqlOrders  # expect: INW001\n"
                ),
                "shop/infrastructure/db.py": "class SqlOrders: ...\n",
            },
        ),
        Example(
            title="The domain owns a port; the adapter implements it",
            good=True,
            files={
                "shop/domain/ports.py": (
                    "from typing import Protocol\n\nclass Orders(Protocol):\n    def count(self) -> int: ...\n"
                ),
                "shop/domain/order.py": (
                    "from shop.domain.ports import Orders\n\n"
                    "def total(orders: Orders) -> int:\n    return orders.count()\n"
                ),
                "shop/infrastructure/db.py": (
                    "from shop.domain.ports import Orders\n\nclass SqlOrders:\n"
                    "    def count(self) -> int:\n        return 0\n"
                ),
            },
        ),
    )


KIND = CheckKind(
    id="inw.layer-dependency",
    reach=Reach.FILE,
    summary="An import from a layer into an outer or sibling layer.",
    options_type=ScopedOptions,
    check=check,
    guidance_params={
        "layer": "the layer of the importing module",
        "target_layer": "the outer or sibling layer it imports from",
        "imported": "what is imported, as the statement names it",
        "statement": "the import statement, as one line",
        "module": "the importing module",
        "ports": "a module the importing layer owns where its ports could live: "
        "`<the layer's package>.ports`, else an existing ports module of the layer, else a "
        "new one in a package it owns, else the importing module",
    },
    docs=DOCS,
    examples=examples,
)
