"""What the domain needs from the outside world, as protocols it owns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from shop.domain.order import Order


class Orders(Protocol):
    def save(self, order: Order) -> int: ...


class Notifier(Protocol):
    def order_placed(self, order_id: int, customer: str) -> None: ...
