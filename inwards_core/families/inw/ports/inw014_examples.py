"""The examples of INW014 (`inw.ports-abstract`): its page shows them with their real
output, the tests run them."""

from __future__ import annotations

from inwards_core import Example

_ON = '[tool.inwards.rules]\nextend-select = ["INW014"]\n'
_LAYERS = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "application", modules = ["shop.application"] },\n'
    '  { name = "infrastructure", modules = ["shop.infrastructure"] },\n'
    "]\n\n"
)
_CONFIG = _LAYERS + _ON


def examples() -> tuple[Example, ...]:
    """Good and bad port modules: the page shows them with their real output, the tests
    run them."""
    return (
        Example(
            title="A mailer implemented in the port module",
            good=False,
            config=_CONFIG,
            files={
                "shop/application/ports/orders.py": (
                    "from typing import Protocol\n\n\n"
                    "class Mailer(Protocol):\n"
                    "    def send(self, to: str, body: str) -> None: ...\n\n\n"
                    "class SmtpMailer:  # expect: INW014\n"
                    "    def send(self, to: str, body: str) -> None:\n"
                    '        print(f"mail to {to}")\n'
                ),
            },
        ),
        Example(
            title="An abstract base class with a method that does work",
            good=False,
            config=_CONFIG,
            files={
                "shop/application/ports/payments.py": (
                    "import abc\n\n\n"
                    "class PaymentGateway(abc.ABC):\n"
                    "    @abc.abstractmethod\n"
                    "    def charge(self, cents: int) -> str:\n"
                    '        """Charge the card; the payment id."""\n\n'
                    "    def refund(self, payment: str) -> None:  # expect: INW014\n"
                    "        self.log = [payment]\n"
                ),
            },
        ),
        Example(
            title="Interfaces and the values they exchange",
            good=True,
            config=_CONFIG,
            files={
                "shop/application/ports/__init__.py": "",
                "shop/application/ports/errors.py": (
                    "class PortError(Exception):\n"
                    "    def __init__(self, reason: str) -> None:\n"
                    "        super().__init__(reason)\n"
                    "        self.reason = reason\n"
                ),
                "shop/application/ports/repository.py": (
                    "from dataclasses import dataclass\n"
                    "from typing import Generic, Protocol, TypeVar\n\n"
                    "from shop.application.ports.errors import PortError\n\n"
                    'ID = TypeVar("ID")\n\n\n'
                    "class NotFound(PortError):\n"
                    "    def describe(self) -> str:\n"
                    "        return f'missing: {self.reason}'\n\n\n"
                    "@dataclass(frozen=True)\n"
                    "class Order:\n"
                    "    id: str\n"
                    "    cents: int\n\n"
                    "    def total(self) -> int:\n"
                    "        return self.cents\n\n\n"
                    "class Orders(Protocol):\n"
                    "    def get(self, id: str) -> Order: ...\n\n\n"
                    "class BaseStore(Generic[ID]):\n"
                    '    """An interface by convention: no method does work."""\n\n'
                    "    def get(self, id: ID) -> Order:\n"
                    "        raise NotImplementedError()\n"
                ),
            },
        ),
        Example(
            title="Port modules named by the `modules` option",
            good=False,
            config=_CONFIG
            + '\n[tool.inwards.rules.ports-abstract]\nmodules = ["shop.application.gateways"]\n',
            files={
                "shop/application/gateways.py": (
                    "import abc\n\n\n"
                    "class Exporter(abc.ABC):\n"
                    "    @abc.abstractmethod\n"
                    "    def rows(self) -> list[str]: ...\n\n"
                    "    @abc.abstractmethod\n"
                    "    def write(self, rows: list[str]) -> None: ...\n\n"
                    "    def run(self) -> None:  # expect: INW014\n"
                    "        self.write(self.rows())\n"
                ),
                "shop/application/ports.py": (
                    "class NotJudged:\n    def work(self) -> int:\n        return 1\n"
                ),
            },
        ),
    )
