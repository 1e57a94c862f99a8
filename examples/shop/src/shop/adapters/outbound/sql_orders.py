"""Orders kept in SQLite."""

from __future__ import annotations

import sqlite3

from shop.domain.order import Order
from shop.domain.ports import Orders


class SqlOrders(Orders):
    def __init__(self, path: str = ":memory:") -> None:
        self._db = sqlite3.connect(path)
        self._db.execute("create table if not exists orders (customer text, total text)")

    def save(self, order: Order) -> int:
        cursor = self._db.execute(
            "insert into orders values (?, ?)", (order.customer, str(order.total()))
        )
        return int(cursor.lastrowid or 0)
