"""The examples of inw.forbidden: good and bad projects that its page shows with their real
output and the tests run (kept apart from the kind, which `inwards check` imports)."""

from __future__ import annotations

from inwards_core import Example
from inwards_core.families.inw.module_entries import ONE_LAYER_CONFIG


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="The domain reads the clock",
            good=False,
            definitions={
                "ACME001.toml": """\
code = "ACME001"
name = "domain-without-clock"
summary = "The domain reads the system clock."
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["datetime", "time"]
allow = ["shop.domain.clock -> datetime"]

[guidance]
summary = 'Pass the time in instead of reading it in "{module}".'
steps = ["Delete `{statement}`.", "Take the time from `shop.domain.clock`, or as a parameter."]
""",
            },
            files={
                "shop/domain/clock.py": (
                    "from datetime import datetime, timezone\n\n"
                    "def now() -> datetime:\n    return datetime.now(timezone.utc)\n"
                ),
                "shop/domain/order.py": (
                    "import time  # expect: ACME001\n\ndef stamp() -> float:\n    return time.time()\n"
                ),
            },
        ),
        Example(
            title="Reports reach an HTTP client through a helper",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME002.toml": """\
code = "ACME002"
name = "reports-offline"
summary = "Reports talk HTTP."
check = "inw.forbidden"

[options]
modules = ["shop.reports"]
forbidden = ["requests", "httpx"]
indirect = true
""",
            },
            files={
                "shop/reports/export.py": "import requests  # expect: ACME002\n",
                "shop/reports/summary.py": (
                    "from shop.util.fetch import get_json  # expect: ACME002\n\n"
                    "def summary() -> dict[str, int]:\n    return get_json()\n"
                ),
                "shop/util/fetch.py": (
                    "import requests\n\n"
                    "def get_json() -> dict[str, int]:\n"
                    '    return requests.get("https://example.org").json()\n'
                ),
            },
        ),
        Example(
            title="Only the clock module reads the time",
            good=True,
            definitions={
                "ACME001.toml": """\
code = "ACME001"
name = "domain-without-clock"
summary = "The domain reads the system clock."
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["datetime", "time"]
allow = ["shop.domain.clock -> datetime"]
indirect = true
""",
            },
            files={
                "shop/domain/clock.py": (
                    "from datetime import datetime, timezone\n\n"
                    "def now() -> datetime:\n    return datetime.now(timezone.utc)\n"
                ),
                "shop/domain/order.py": (
                    "from shop.domain.clock import now\n\n"
                    "def stamp() -> str:\n    return now().isoformat()\n"
                ),
            },
        ),
        Example(
            title="Imports taken out: one ignored, the type-only and dynamic ones",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME003.toml": """\
code = "ACME003"
name = "domain-without-orm"
summary = "The domain uses the ORM."
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["shop.db"]
indirect = true
ignore-imports = ["shop.domain.legacy.* -> shop.db.session"]
type-checking = false
dynamic = false
""",
            },
            files={
                "shop/db/session.py": "def open_session() -> object: ...\n",
                "shop/db/models.py": "class Row: ...\n",
                "shop/domain/legacy/report.py": "from shop.db.session import open_session\n",
                "shop/domain/order.py": (
                    "from typing import TYPE_CHECKING\n\n"
                    "if TYPE_CHECKING:\n    from shop.db.models import Row\n"
                ),
                "shop/domain/plugins.py": (
                    "import importlib\n\n"
                    "def load() -> object:\n"
                    '    return importlib.import_module("shop.db.models")\n'
                ),
            },
        ),
        Example(
            title="An ignored import that no longer exists fails the run",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME004.toml": """\
code = "ACME004"  # expect: ACME004
name = "domain-without-orm"
summary = "The domain uses the ORM."
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["shop.db"]
ignore-imports = ["shop.domain.legacy.report -> shop.db.session"]
unmatched-ignore = "error"
""",
            },
            files={
                "shop/db/session.py": "def open_session() -> object: ...\n",
                "shop/domain/legacy/report.py": "from shop.domain.order import total\n",
                "shop/domain/order.py": "def total() -> int:\n    return 0\n",
            },
        ),
        Example(
            title="A package's own module may not import the database module; its children may",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME005.toml": """\
code = "ACME005"
name = "lean-package-init"
summary = "A package's __init__ imports the adapters."
check = "inw.forbidden"

[options]
modules = ["shop.orders"]
forbidden = ["shop.adapters.db"]
as-packages = false
""",
            },
            files={
                "shop/orders/__init__.py": "from shop.adapters.db import connect  # expect: ACME005\n",
                "shop/orders/repository.py": "from shop.adapters.db import connect\n",
                "shop/adapters/db.py": "def connect() -> None: ...\n",
            },
        ),
    )
