"""The composition root: the only module that knows every adapter."""

from shop.adapters.inbound.cli import run
from shop.adapters.outbound.console_notifier import ConsoleNotifier
from shop.adapters.outbound.sql_orders import SqlOrders
from shop.application.place_order import PlaceOrder


def main() -> int:
    return run(PlaceOrder(SqlOrders(), ConsoleNotifier()))
