"""What the examples of the three diagram kinds (INW017-INW019) share: the configurations
and the code of their small projects, and the page that holds a Mermaid diagram. The first
example of each kind draws the diagram in the shape `inwards diagram` prints it: a
`flowchart TB` whose nodes are `name["prefix"]` and whose arrows point inward."""

from __future__ import annotations

LAYERS_CONFIG = """\
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

CONTEXTS_CONFIG = """\
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
LAYER_CODE = {
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

CONTEXT_CODE = {
    "shop/__init__.py": "",
    "shop/orders/__init__.py": "",
    "shop/orders/cart.py": "from shop.billing.api import invoice\n",
    "shop/billing/__init__.py": "",
    "shop/billing/api.py": "def invoice() -> None:\n    pass\n",
    "shop/billing/ledger.py": "",
}


def configured(template: str, code: str, diagrams: str = "docs/architecture.md") -> str:
    return template.replace("CODE", code).replace("DIAGRAMS", diagrams)


def mermaid_page(*lines: str) -> str:
    return "\n".join(("# Architecture", "", "```mermaid", *lines, "```", ""))
