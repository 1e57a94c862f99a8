"""tidy.import-fanout: a module that imports too many first-party modules."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import (
    CheckKind,
    Example,
    ImportFact,
    KindDocs,
    ModuleInfo,
    ProjectModel,
    Violation,
    option,
)

DOCS = KindDocs(
    what_it_does="""
Counts, for every module a layer owns, the distinct first-party modules it imports (each
import statement anywhere in the file, resolved the way inwards resolves imports: `from
shop.domain import money` counts `shop.domain.money` when that is a module, `shop.domain`
when `money` is a name in it). When the count passes `max-modules`, the finding stands on
the import that went over the limit. Imports under `if TYPE_CHECKING:` count unless
`count-type-checking` is false. Standard-library and third-party imports never count.
""",
    why_is_this_bad="""
A module that reaches into many parts of its own project knows too much: every change in
any of them may break it, it is hard to test alone, and it is usually two or three
responsibilities in one file. The fan-out is a cheap, early signal, long before the module
is hard to read.
""",
    how_to_fix="""
Split the module along its responsibilities, or let it depend on one facade (an application
service, a port) instead of on each module behind it.
""",
    limitations="""
A package counts as one module: `import shop.domain` and `from shop.domain import Money`
both count `shop.domain`. The limit is the same for every module: where a wide module is
deliberate (a composition root), suppress the finding inline, with a reason.
""",
)


def _at_least_one(value: int) -> str | None:
    return None if value >= 1 else f"must be at least 1, not {value}."


@attrs.frozen
class FanoutOptions:
    """`max-modules`: how many distinct first-party modules a module may import.
    `count-type-checking`: whether imports under `if TYPE_CHECKING:` count."""

    max_modules: int = option(8, check=_at_least_one)
    count_type_checking: bool = True


def first_party_imports(
    model: ProjectModel, info: ModuleInfo, options: FanoutOptions
) -> dict[str, ImportFact]:
    """Each distinct first-party module `info` imports, with its first import in the file."""
    found: dict[str, ImportFact] = {}
    resolved = sorted(model.resolved_imports(info), key=lambda pair: pair[0].span)
    for fact, name in resolved:
        if name is None or name == info.name or name in found:
            continue
        if fact.type_checking and not options.count_type_checking:
            continue
        if model.index.is_first_party(name):
            found[name] = fact
    return found


def check(model: ProjectModel, options: FanoutOptions) -> Iterator[Violation]:
    limit = options.max_modules
    for info in model.checked:
        # Other rules may have modules outside the layers read; this one judges layered code.
        if info.layer is None or info.file not in model.facts:
            continue
        imports = first_party_imports(model, info, options)
        if len(imports) <= limit:
            continue
        names = list(imports)
        over = imports[names[limit]]
        stable = f'"{info.name}" imports {len(names)} distinct first-party modules.'
        yield Violation(
            file=info.file,
            module=info.name,
            span=over.span,
            message=f"{stable} The limit is {limit}; this import is number {limit + 1}.",
            stable_message=stable,
            params={
                "count": str(len(names)),
                "limit": str(limit),
                "imported": ", ".join(f"`{name}`" for name in sorted(names)),
                "statement": over.statement,
            },
        )


# TIDY002 is opt-in: the examples turn it on, with a small limit to stay short.
_CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]

[tool.inwards.rules]
extend-select = ["TIDY002"]

[tool.inwards.rules.import-fanout]
max-modules = 3
"""

_DOMAIN = {
    "shop/domain/money.py": "class Money: ...\n",
    "shop/domain/order.py": "class Order: ...\n",
    "shop/domain/customer.py": "class Customer: ...\n",
    "shop/domain/stock.py": "class Stock: ...\n",
}


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="A use case that reaches into four domain modules",
            good=False,
            config=_CONFIG,
            files={
                **_DOMAIN,
                "shop/application/checkout.py": (
                    "from shop.domain.money import Money\n"
                    "from shop.domain.order import Order\n"
                    "import json\n"
                    "from shop.domain.customer import Customer\n"
                    "from shop.domain.money import Money as Cash\n"
                    "\n"
                    "def run(order: Order, customer: Customer) -> Money:\n"
                    "    from shop.domain.stock import Stock  # expect: TIDY002\n"
                    "    return Money()\n"
                ),
            },
        ),
        Example(
            title="Three first-party modules; the standard library doesn't count",
            good=True,
            config=_CONFIG,
            files={
                **_DOMAIN,
                "shop/application/checkout.py": (
                    "import json\n"
                    "import logging\n"
                    "from shop.domain.money import Money\n"
                    "from shop.domain.order import Order\n"
                    "from shop.domain.customer import Customer\n"
                    "from shop.domain import money\n"
                ),
            },
        ),
    )


KIND = CheckKind(
    id="tidy.import-fanout",
    summary="A module that imports more first-party modules than the limit.",
    options_type=FanoutOptions,
    check=check,
    guidance_params={
        "count": "how many distinct first-party modules the module imports",
        "limit": "the limit (`max-modules`)",
        "imported": "those modules, each in backticks, comma-separated",
        "statement": "the import over the limit, as one line",
    },
    docs=DOCS,
    examples=examples,
)
