"""Reports: uses code outside every layer, loads plugins by name, and suppresses badly."""

from importlib import import_module

from shop.common.clock import now
from shop.adapters.outbound.console_notifier import ConsoleNotifier  # inwards: ignore[INW001]
import decimal  # inwards: ignore[INW005] reason="decimal is pure; kept for the example"


def load(plugin: str) -> object:
    return import_module(plugin)


def stamp() -> str:
    return f"{now()} {ConsoleNotifier.__name__} {decimal.Decimal(1)}"
