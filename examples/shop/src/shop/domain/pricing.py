"""Pricing rules: pure computations."""

from decimal import Decimal

BULK_THRESHOLD = 10
BULK_DISCOUNT = Decimal("0.9")


def line_total(quantity: int, unit_price: Decimal) -> Decimal:
    total = unit_price * quantity
    if quantity >= BULK_THRESHOLD:
        total *= BULK_DISCOUNT
    return total.quantize(Decimal("0.01"))
