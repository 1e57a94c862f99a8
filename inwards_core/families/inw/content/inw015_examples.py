"""The examples of inw.construct-only-in (INW015): good and bad projects that
its page shows with their real output and the tests run."""

from __future__ import annotations

from inwards_core import Example

_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "application", modules = ["shop.application"] },\n'
    '  { name = "adapters", modules = ["shop.adapters"] },\n'
    '  { name = "main", modules = ["shop.main"] },\n'
    "]\n"
    "\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["INW015"]\n'
    "\n"
    "[tool.inwards.rules.construct-only-in]\n"
    'role = ["shop.adapters.outbound"]\n'
    'allowed-in = ["shop.main"]\n'
)
_ADAPTERS = {
    "shop/adapters/__init__.py": "from shop.adapters.outbound import SqlOrders\n",
    "shop/adapters/outbound/__init__.py": (
        "from shop.adapters.outbound.sql import OrderNotFound, SqlOrders\n"
    ),
    "shop/adapters/outbound/sql.py": (
        "class OrderNotFound(Exception): ...\n\n"
        "class SqlOrders:\n    def count(self) -> int:\n        return 0\n"
    ),
}


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="An endpoint imports the repository it should be given",
            good=False,
            config=_CONFIG,
            files={
                **_ADAPTERS,
                "shop/adapters/inbound/orders.py": (
                    "from shop.adapters.outbound.sql import SqlOrders  # expect: INW015\n\n"
                    "def count() -> int:\n    return SqlOrders().count()\n"
                ),
            },
        ),
        Example(
            title="An endpoint builds a repository reached through a re-export",
            good=False,
            config=_CONFIG,
            files={
                **_ADAPTERS,
                "shop/adapters/inbound/orders.py": (
                    "from shop.adapters import SqlOrders\n\n"
                    "async def count() -> int:\n"
                    "    orders = SqlOrders()  # expect: INW015\n"
                    "    return orders.count()\n"
                ),
            },
        ),
        Example(
            title="Built in the composition root, passed in; exceptions and type-only imports pass",
            good=True,
            config=_CONFIG,
            files={
                **_ADAPTERS,
                "shop/main.py": (
                    "from shop.adapters.inbound.orders import count\n"
                    "from shop.adapters.outbound.sql import SqlOrders\n\n"
                    "def main() -> int:\n    return count(SqlOrders())\n"
                ),
                "shop/adapters/inbound/orders.py": (
                    "from typing import TYPE_CHECKING\n\n"
                    "from shop.adapters.outbound.sql import OrderNotFound\n\n"
                    "if TYPE_CHECKING:\n"
                    "    from shop.adapters.outbound.sql import SqlOrders\n\n\n"
                    "def count(orders: SqlOrders) -> int:\n"
                    "    try:\n        return orders.count()\n"
                    "    except OrderNotFound:\n        return 0\n"
                ),
            },
        ),
    )
