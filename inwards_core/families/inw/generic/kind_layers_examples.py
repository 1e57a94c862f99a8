"""The examples of inw.layers: good and bad projects that its page shows with their real
output and the tests run (kept apart from the kind, which `inwards check` imports)."""

from __future__ import annotations

from inwards_core import Example
from inwards_core.families.inw.module_entries import ONE_LAYER_CONFIG

_PER_CONTEXT = """\
code = "ACME020"
name = "layered-contexts"
summary = "A context's inner layer imports an outer one."
check = "inw.layers"

[options]
layers = ["domain", "application", "adapters"]
containers = ["shop.orders", "shop.billing"]
indirect = true

[guidance]
summary = 'Let "{layer}" own an interface that "{target_layer}" implements.'
steps = [
  "Delete `{statement}` (the chain: {chain}).",
  "Declare a typing.Protocol in the layer \\"{layer}\\" of {container} and implement it in \\"{target_layer}\\".",
]
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="Every context keeps its own layers",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME020.toml": _PER_CONTEXT},
            files={
                "shop/orders/domain/order.py": (
                    "from shop.orders.adapters.db import save  # expect: ACME020\n"
                ),
                "shop/orders/application/place.py": "from shop.orders.domain.order import save\n",
                "shop/orders/adapters/db.py": "def save() -> None: ...\n",
                "shop/billing/domain/invoice.py": (
                    "from shop.tools.audit import record  # expect: ACME020\n"
                ),
                "shop/billing/application/bill.py": "from shop.billing.domain import invoice\n",
                "shop/billing/adapters/mail.py": "def send() -> None: ...\n",
                "shop/tools/audit.py": "from shop.billing.application.bill import invoice as record\n",
            },
        ),
        Example(
            title="A container without one of the layers",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME021.toml": (
                    'code = "ACME021"  # expect: ACME021\n'
                    'name = "layered-packages"\n'
                    'summary = "An inner layer imports an outer one."\n'
                    'check = "inw.layers"\n'
                    "\n"
                    "[options]\n"
                    'layers = ["domain", "adapters"]\n'
                    'containers = ["shop.*"]\n'
                ),
            },
            files={
                "shop/orders/domain/order.py": "class Order: ...\n",
                "shop/orders/adapters/db.py": "from shop.orders.domain.order import Order\n",
                "shop/billing/domain/invoice.py": "class Invoice: ...\n",
            },
        ),
        Example(
            title="An import let through, and an exception that excuses nothing",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME022.toml": (
                    'code = "ACME022"  # expect: ACME022\n'
                    'name = "layered-with-exceptions"\n'
                    'summary = "An inner layer imports an outer one."\n'
                    'check = "inw.layers"\n'
                    "\n"
                    "[options]\n"
                    'layers = ["shop.domain", "shop.adapters"]\n'
                    'allow = ["shop.domain.clock -> shop.adapters.time", "shop.domain -> shop.x"]\n'
                ),
            },
            files={
                "shop/domain/clock.py": "from shop.adapters.time import now\n",
                "shop/domain/order.py": "from shop.adapters.db import save  # expect: ACME022\n",
                "shop/adapters/time.py": "def now() -> None: ...\n",
                "shop/adapters/db.py": "def save() -> None: ...\n",
            },
        ),
        Example(
            title="Siblings that may import each other, and a layer that may be missing",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME023.toml": (
                    'code = "ACME023"  # expect: ACME023\n'
                    'name = "layered-strictly"\n'
                    'summary = "An inner layer imports an outer one."\n'
                    'check = "inw.layers"\n'
                    "\n"
                    "[options]\n"
                    'layers = ["shop.domain", "shop.orders : shop.billing", "(shop.tasks)", '
                    '"shop.api"]\n'
                    'missing-layers = "error"\n'
                ),
            },
            files={
                "shop/domain/money.py": "class Money: ...\n",
                "shop/orders/place.py": "from shop.billing.invoice import bill\n",
                "shop/billing/invoice.py": (
                    "from shop.orders.place import Order\nfrom shop.domain.money import Money\n"
                ),
            },
        ),
        Example(
            title="Every child of a container is a layer",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME024.toml": (
                    'code = "ACME024"\n'
                    'name = "layered-exhaustively"\n'
                    'summary = "A package of the shop is no layer."\n'
                    'check = "inw.layers"\n'
                    "\n"
                    "[options]\n"
                    'layers = ["domain", "adapters"]\n'
                    'containers = ["shop"]\n'
                    "exhaustive = true\n"
                    'exhaustive-ignores = ["_version"]\n'
                ),
            },
            files={
                "shop/domain/order.py": "class Order: ...\n",
                "shop/adapters/db.py": "from shop.domain.order import Order\n",
                "shop/_version.py": 'VERSION = "1.0"\n',
                "shop/helpers.py": "def tidy() -> None: ...  # expect: ACME024\n",
            },
        ),
        Example(
            title="One entry of siblings: independent packages",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME025.toml": (
                    'code = "ACME025"\n'
                    'name = "independent-contexts"\n'
                    'summary = "A context imports another one."\n'
                    'check = "inw.layers"\n'
                    "\n"
                    "[options]\n"
                    'layers = ["shop.orders | shop.billing | shop.catalog"]\n'
                ),
            },
            files={
                "shop/orders/place.py": (
                    "from shop.catalog.items import Item  # expect: ACME025\n"
                ),
                "shop/billing/invoice.py": "class Invoice: ...\n",
                "shop/catalog/items.py": "class Item: ...\n",
            },
        ),
        Example(
            title="Every route of a chain, as import-linter lists them",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME027.toml": (
                    'code = "ACME027"\n'
                    'name = "layered-with-routes"\n'
                    'summary = "The domain reaches the adapters."\n'
                    'check = "inw.layers"\n'
                    "\n"
                    "[options]\n"
                    'layers = ["shop.domain", "shop.adapters"]\n'
                    "indirect = true\n"
                ),
            },
            files={
                "shop/domain/order.py": (
                    "from shop.util.hub import link  # expect: ACME027\n"
                    "from shop.util.side import step\n"
                ),
                "shop/domain/price.py": "from shop.util.hub import link\n",
                "shop/util/hub.py": (
                    "from shop.adapters.db import save\nfrom shop.adapters.mail import send\n"
                ),
                "shop/util/side.py": "from shop.adapters.web import page\n",
                "shop/adapters/db.py": "def save() -> None: ...\n",
                "shop/adapters/mail.py": "def send() -> None: ...\n",
                "shop/adapters/web.py": "def page() -> None: ...\n",
            },
        ),
        Example(
            title="Outer layers import inner ones",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME020.toml": _PER_CONTEXT},
            files={
                "shop/orders/domain/order.py": "class Order: ...\n",
                "shop/orders/application/place.py": "from shop.orders.domain.order import Order\n",
                "shop/orders/adapters/db.py": "from shop.orders.application import place\n",
                "shop/billing/domain/invoice.py": "class Invoice: ...\n",
                "shop/billing/application/bill.py": "from shop.billing.domain import invoice\n",
                "shop/billing/adapters/mail.py": "from shop.billing.domain import invoice\n",
            },
        ),
        Example(
            title="An import on its way out ignored, and a plugin loaded by name left out",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME026.toml": (
                    'code = "ACME026"\n'
                    'name = "domain-inside"\n'
                    'summary = "The domain imports an outer layer."\n'
                    'check = "inw.layers"\n'
                    "\n"
                    "[options]\n"
                    'layers = ["shop.domain", "shop.adapters"]\n'
                    "indirect = true\n"
                    'ignore-imports = ["shop.domain.legacy -> shop.adapters.*"]\n'
                    'unmatched-ignore = "error"\n'
                    "dynamic = false\n"
                ),
            },
            files={
                "shop/domain/legacy.py": "from shop.adapters.db import connect\n",
                "shop/domain/plugins.py": (
                    "import importlib\n\n"
                    'def load() -> object:\n    return importlib.import_module("shop.adapters.mail")\n'
                ),
                "shop/adapters/db.py": "def connect() -> None: ...\n",
                "shop/adapters/mail.py": "def send() -> None: ...\n",
            },
        ),
    )
