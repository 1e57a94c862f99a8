"""The texts of the scaffolded example files, as `str.format` templates: `{p}` is the
package, `{entities}`, `{ports}`, ... the dotted module of each role (see `scaffold.py`);
literal braces are doubled."""

from __future__ import annotations

ENTITIES = '''"""The domain: what an order is, with no framework and no I/O."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    """An order for a quantity of one item."""

    id: int
    item: str
    quantity: int

    def __post_init__(self) -> None:
        if self.quantity <= 0:
            raise ValueError("an order needs a positive quantity")
'''

CHECKED_ENTITIES = '''"""The domain: what an order is, with no framework and no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from {shared} import require_positive


@dataclass(frozen=True)
class Order:
    """An order for a quantity of one item."""

    id: int
    item: str
    quantity: int

    def __post_init__(self) -> None:
        require_positive(self.quantity, "quantity")
'''

SHARED = '''"""Shared by every part of the package: small checks, no business rules."""

from __future__ import annotations


def require_positive(value: int, what: str) -> int:
    if value <= 0:
        raise ValueError(f"{{what}} must be positive, not {{value}}")
    return value
'''

PORTS = '''"""The port the use case needs: where orders are kept. Adapters implement it."""

from __future__ import annotations

from typing import Protocol

from {entities} import Order


class OrderRepository(Protocol):
    def add(self, order: Order) -> None: ...

    def count(self) -> int: ...
'''

USE_CASES = '''"""A use case: place an order through the repository port it is given."""

from __future__ import annotations

from {entities} import Order
from {ports} import OrderRepository


def place_order(orders: OrderRepository, item: str, quantity: int) -> Order:
    order = Order(id=orders.count() + 1, item=item, quantity=quantity)
    orders.add(order)
    return order
'''

PORTS_AND_USE_CASE = '''"""The use case, and its port: where orders are kept (adapters implement it)."""

from __future__ import annotations

from typing import Protocol

from {entities} import Order


class OrderRepository(Protocol):
    def add(self, order: Order) -> None: ...

    def count(self) -> int: ...


def place_order(orders: OrderRepository, item: str, quantity: int) -> Order:
    order = Order(id=orders.count() + 1, item=item, quantity=quantity)
    orders.add(order)
    return order
'''

MEMORY_ADAPTER = '''"""An outbound adapter: orders kept in memory. A database one would implement the same
port; the use case would not change."""

from __future__ import annotations

from {entities} import Order


class InMemoryOrders:
    def __init__(self) -> None:
        self._orders: list[Order] = []

    def add(self, order: Order) -> None:
        self._orders.append(order)

    def count(self) -> int:
        return len(self._orders)
'''

CLI = '''"""An inbound adapter: the command line, calling the use case it is handed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from {entities} import Order


def run(place: Callable[[str, int], Order], argv: Sequence[str]) -> int:
    item, quantity = (argv[0], int(argv[1])) if len(argv) == 2 else ("book", 1)
    order = place(item, quantity)
    print(f"placed order {{order.id}}: {{order.quantity}} x {{order.item}}")
    return 0
'''

BOOTSTRAP = '''"""The composition root: the one place adapters are built and wired to the use cases."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial

from {adapter} import InMemoryOrders
from {inbound} import run
from {use_cases} import place_order


def main(argv: Sequence[str] | None = None) -> int:
    orders = InMemoryOrders()
    return run(partial(place_order, orders), sys.argv[1:] if argv is None else argv)
'''

SLICE_API = '''"""The public face of this part: code outside it imports this module only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from {adapter} import InMemoryOrders
from {entities} import Order
from {use_cases} import place_order


def order_placer() -> Callable[[str, int], Order]:
    """Place orders, kept in memory (a database adapter would be wired here instead)."""
    return partial(place_order, InMemoryOrders())


def run(argv: Sequence[str]) -> int:
    item, quantity = (argv[0], int(argv[1])) if len(argv) == 2 else ("book", 1)
    order = order_placer()(item, quantity)
    print(f"placed order {{order.id}}: {{order.quantity}} x {{order.item}}")
    return 0
'''

SLICE_BOOTSTRAP = '''"""The composition root: starts the program through each part's public api."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from {api} import run


def main(argv: Sequence[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)
'''

MAIN = '''"""`python -m {p}`."""

from {p}.bootstrap import main

raise SystemExit(main())
'''

CONFTEST = '''"""Puts the package's folder on the import path (src/, or the project itself), so
`pytest` runs without installing the package."""

import sys
from pathlib import Path

project = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(project / "src" if (project / "src").is_dir() else project))
'''

TEST_USE_CASES = """from {adapter} import InMemoryOrders
from {use_cases} import place_order


def test_place_order_keeps_the_order() -> None:
    orders = InMemoryOrders()
    order = place_order(orders, "book", 2)
    assert (order.id, order.quantity) == (1, 2)
    assert orders.count() == 1
"""
