from acme.core.domain.order import Order


def as_json(order: Order) -> dict[str, object]:
    return {"number": order.number, "total": order.total_cents}
