from acme.core.domain.order import Order


def place(number: str, total_cents: int) -> Order:
    return Order(number, total_cents)
