"""An HTTP adapter that reaches into its sibling, and is half-written."""

from shop.adapters.outbound.sql_orders import SqlOrders


def handle(request: dict) -> int:
    from shop.application.place_order import
    return SqlOrders().save(request["order"])
