"""The examples of the three diagram kinds (INW017-INW019): small projects with a marked
diagram in `docs/`. The first example of each draws the diagram in the shape `inwards
diagram` prints it: a `flowchart TB` whose nodes are `name["prefix"]` and whose arrows
point inward."""

from __future__ import annotations

from inwards_core import Example

_LAYERS = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
diagrams = ["DIAGRAMS"]

[tool.inwards.rules]
extend-select = ["CODE"]
"""

_CONTEXTS = """\
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]
diagrams = ["DIAGRAMS"]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing.api"]

[tool.inwards.rules]
extend-select = ["CODE"]
"""

# The code of the three layers: infrastructure imports application and domain,
# application imports domain.
_CODE = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/order.py": "class Order:\n    pass\n",
    "shop/application/__init__.py": "",
    "shop/application/checkout.py": "from shop.domain.order import Order\n",
    "shop/infrastructure/__init__.py": "",
    "shop/infrastructure/db.py": (
        "from shop.application.checkout import Order\nfrom shop.domain import order\n"
    ),
}

_CONTEXT_CODE = {
    "shop/__init__.py": "",
    "shop/orders/__init__.py": "",
    "shop/orders/cart.py": "from shop.billing.api import invoice\n",
    "shop/billing/__init__.py": "",
    "shop/billing/api.py": "def invoice() -> None:\n    pass\n",
    "shop/billing/ledger.py": "",
}


def _config(template: str, code: str, diagrams: str = "docs/architecture.md") -> str:
    return template.replace("CODE", code).replace("DIAGRAMS", diagrams)


def _markdown(*lines: str) -> str:
    return "\n".join(("# Architecture", "", "```mermaid", *lines, "```", ""))


def unknown_name_examples() -> tuple[Example, ...]:
    return (
        Example(
            title="A node that is no layer, and a label with a typo",
            good=False,
            config=_config(_LAYERS, "INW017"),
            files={
                **_CODE,
                "docs/architecture.md": _markdown(
                    "%% inwards: layers",
                    "flowchart TB",
                    '  infra["shop.infrastructure"] --> application["shop.application"]'
                    ' & domain["shop.domian"]  # expect: INW017',
                    "  application --> domain",
                ),
            },
        ),
        Example(
            title="A PlantUML component named after a package that is not there",
            good=False,
            config=_config(_LAYERS, "INW017", "docs/layers.puml"),
            files={
                **_CODE,
                "docs/layers.puml": (
                    "@startuml\n"
                    "' inwards: layers\n"
                    "[shop.infrastructure] as infrastructure\n"
                    "[shop.application] as application\n"
                    "[shop.domain] as domain\n"
                    "[shop.api] as api  # expect: INW017\n"
                    "api --> application\n"
                    "infrastructure --> application\n"
                    "application --> domain\n"
                    "@enduml\n"
                ),
            },
        ),
        Example(
            title="External systems and captions are not names to check",
            good=True,
            config=_config(_LAYERS, "INW017"),
            files={
                **_CODE,
                "docs/architecture.md": _markdown(
                    "%% inwards: layers",
                    "flowchart LR",
                    '  customer(("Customer")):::external --> infrastructure',
                    '  infrastructure["shop.infrastructure"] --> application["Use cases"]',
                    '  application --> domain["shop.domain"]',
                    '  infrastructure --> postgres[("PostgreSQL")]',
                    "  class postgres external",
                ),
            },
        ),
    )


def forbidden_edge_examples() -> tuple[Example, ...]:
    return (
        Example(
            title="An arrow from the domain out to the infrastructure",
            good=False,
            config=_config(_LAYERS, "INW018"),
            files={
                **_CODE,
                "docs/architecture.md": _markdown(
                    "%% inwards: layers",
                    "flowchart TB",
                    '  infrastructure["shop.infrastructure"] --> application["shop.application"]'
                    ' & domain["shop.domain"]',
                    "  application --> domain",
                    "  domain --> infrastructure  # expect: INW018",
                ),
            },
        ),
        Example(
            title="Contexts: an arrow depends-on does not allow, and one to a private module",
            good=False,
            config=_config(_CONTEXTS, "INW018", "docs/contexts.mmd"),
            files={
                **_CONTEXT_CODE,
                "docs/contexts.mmd": (
                    "%% inwards: contexts\n"
                    "flowchart LR\n"
                    '  orders --> billing["shop.billing.ledger"]  # expect: INW018\n'
                    "  billing --> orders  # expect: INW018\n"
                ),
            },
        ),
        Example(
            title="Dotted links are not imports",
            good=True,
            config=_config(_LAYERS, "INW018"),
            files={
                **_CODE,
                "docs/architecture.md": _markdown(
                    "%% inwards: layers",
                    "flowchart TB",
                    "  infrastructure --> application --> domain",
                    "  domain -. calls through a port .-> infrastructure",
                ),
            },
        ),
    )


def missing_dependency_examples() -> tuple[Example, ...]:
    return (
        Example(
            title="The code imports the domain from the application; no arrow says so",
            good=False,
            config=_config(_LAYERS, "INW019"),
            files={
                **_CODE,
                "docs/architecture.md": _markdown(
                    "%% inwards: layers",
                    "flowchart TB",
                    '  infrastructure["shop.infrastructure"] --> application["shop.application"]'
                    ' & domain["shop.domain"]  # expect: INW019',
                ),
            },
        ),
        Example(
            title="A path of arrows covers an import that skips a layer",
            good=True,
            config=_config(_LAYERS, "INW019"),
            files={
                **_CODE,
                "docs/architecture.md": _markdown(
                    "%% inwards: layers",
                    "flowchart TB",
                    "  infrastructure --> application --> domain",
                ),
            },
        ),
        Example(
            title="PlantUML: a dotted arrow does not stand for an import",
            good=False,
            config=_config(_LAYERS, "INW019", "docs/layers.puml"),
            files={
                **_CODE,
                "docs/layers.puml": (
                    "@startuml\n"
                    "' inwards: layers\n"
                    "[shop.infrastructure] as infrastructure  # expect: INW019\n"
                    "[shop.application] as application\n"
                    "[shop.domain] as domain\n"
                    "infrastructure ..> application\n"
                    "infrastructure --> domain\n"
                    "application --> domain\n"
                    "@enduml\n"
                ),
            },
        ),
    )
