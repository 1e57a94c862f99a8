"""An order and its lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from shop.domain.pricing import line_total


@dataclass(frozen=True)
class Line:
    sku: str
    quantity: int
    unit_price: Decimal


@dataclass
class Order:
    customer: str
    lines: list[Line] = field(default_factory=list)

    def add(self, line: Line) -> None:
        self.lines.append(line)

    def total(self) -> Decimal:
        return sum((line_total(l.quantity, l.unit_price) for l in self.lines), Decimal(0))
