"""INW005's examples: good and bad projects that its docs page shows with their real
output and the tests run."""

from __future__ import annotations

from inwards_core import Example


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="The domain opens a database session",
            good=False,
            files={
                "shop/domain/pricing.py": (
                    "from sqlalchemy.orm import Session  # expect: INW005\n\n"
                    "def price(session: Session) -> int:\n    return 0\n"
                ),
            },
        ),
        Example(
            title="An allowlist on the application layer",
            good=False,
            config=(
                "[tool.inwards]\n"
                "layers = [\n"
                '  { name = "domain", modules = ["shop.domain"] },\n'
                '  { name = "application", modules = ["shop.application"], allow-libraries = ["attrs"] },\n'
                '  { name = "infrastructure", modules = ["shop.infrastructure"] },\n'
                "]\n"
            ),
            files={
                "shop/application/service.py": (
                    "import json\nimport attrs\nimport requests  # expect: INW005\n"
                ),
            },
        ),
        Example(
            title="Libraries kept out of some modules, whatever their layer",
            good=False,
            config=(
                "[tool.inwards]\n"
                "layers = [\n"
                '  { name = "domain", modules = ["shop.domain"] },\n'
                '  { name = "application", modules = ["shop.application"] },\n'
                '  { name = "infrastructure", modules = ["shop.infrastructure"] },\n'
                "]\n"
                "\n"
                "[tool.inwards.rules.pure-domain]\n"
                "deny = [\n"
                '  { modules = ["shop.*.reports"], libraries = ["subprocess", "requests"] },\n'
                "]\n"
            ),
            files={
                "shop/application/reports/monthly.py": (
                    "import csv\nimport requests  # expect: INW005\n"
                ),
                "shop/infrastructure/reports/pdf.py": ("import subprocess  # expect: INW005\n"),
                "shop/infrastructure/http.py": "import requests\n",
            },
        ),
        Example(
            title="The standard library's pure modules are fine",
            good=True,
            files={
                "shop/domain/money.py": (
                    "from dataclasses import dataclass\nfrom decimal import Decimal\n\n"
                    "@dataclass(frozen=True)\nclass Money:\n    amount: Decimal\n"
                ),
                "shop/infrastructure/db.py": "import sqlalchemy\n",
            },
        ),
    )
