"""The place-order use case: talks to the outside only through the domain's ports."""

from __future__ import annotations

from decimal import Decimal

from shop.domain.order import Line, Order
from shop.domain.ports import Notifier, Orders


class PlaceOrder:
    def __init__(self, orders: Orders, notifier: Notifier) -> None:
        self._orders = orders
        self._notifier = notifier

    def __call__(self, customer: str, items: list[tuple[str, int, str]]) -> int:
        order = Order(customer)
        for sku, quantity, price in items:
            order.add(Line(sku, quantity, Decimal(price)))
        order_id = self._orders.save(order)
        self._notifier.order_placed(order_id, customer)
        return order_id
