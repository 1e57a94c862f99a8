from decimal import Decimal

from shop.domain.order import Line, Order


def test_total() -> None:
    order = Order("ada")
    order.add(Line("tea", 2, Decimal("1.50")))
    assert order.total() == Decimal("3.00")
