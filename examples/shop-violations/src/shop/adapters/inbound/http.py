"""An HTTP adapter that reaches into its sibling, and doesn't parse yet."""

from shop.adapters.outbound.sql_orders import SqlOrders


def handle(request: dict) -> int:
    return SqlOrders().save(request["order"]
