"""Notifications printed to the console."""

from shop.domain.ports import Notifier


class ConsoleNotifier(Notifier):
    def order_placed(self, order_id: int, customer: str) -> None:
        print(f"order {order_id} placed for {customer}")
