"""INW015 construct-only-in through the installed `inwards`: off by default, on with
`extend-select` and its options table, the same findings cold, from the cache and with
PATHS, a bad option is exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
  { name = "main", modules = ["shop.main"] },
]
"""
ON = """
[tool.inwards.rules]
extend-select = ["INW015"]

[tool.inwards.rules.construct-only-in]
role = ["shop.adapters.outbound"]
allowed-in = ["shop.main"]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/main.py": "from shop.adapters.outbound.sql import SqlOrders\n\nORDERS = SqlOrders()\n",
    "shop/adapters/__init__.py": "from shop.adapters.outbound import SqlOrders\n",
    "shop/adapters/outbound/__init__.py": "from .sql import OrderNotFound, SqlOrders\n",
    "shop/adapters/outbound/sql.py": (
        "class OrderNotFound(LookupError): ...\n\n\nclass SqlOrders:\n    pass\n"
    ),
    "shop/adapters/inbound/__init__.py": "",
    "shop/adapters/inbound/rest.py": (
        "from shop.adapters.outbound.sql import SqlOrders\n"
        "from shop.adapters.outbound import OrderNotFound\n"
    ),
    "shop/adapters/inbound/cli.py": (
        "from shop.adapters import SqlOrders\n\n\n"
        "class Command:\n"
        "    def run(self) -> None:\n"
        "        SqlOrders()\n"
    ),
}


def _findings(stdout: str) -> list[tuple[str, int, str]]:
    return [
        (d["file"], d["line"], d["message"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] == "INW015"
    ]


EXPECTED = [
    (
        "shop/adapters/inbound/cli.py",
        6,
        '"shop.adapters.inbound.cli" builds "SqlOrders", a class of "shop.adapters.outbound.sql" '
        '(role "shop.adapters.outbound"), imported through "shop.adapters -> '
        'shop.adapters.outbound"; only "shop.main" may build it.',
    ),
    (
        "shop/adapters/inbound/rest.py",
        1,
        '"shop.adapters.inbound.rest" imports "SqlOrders" from "shop.adapters.outbound.sql", a '
        'module of the role "shop.adapters.outbound", which only "shop.main" may import.',
    ),
]


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_on_cold_cached_and_with_paths(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, cold.stderr) == (1, ""), cold.stdout + cold.stderr
    assert _findings(cold.stdout) == EXPECTED
    for _ in range(2):  # fills the cache, then reads it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert _findings(warm.stdout) == EXPECTED
    one = run_inwards("check", "--format", "json", "shop/adapters/inbound/cli.py", cwd=project)
    assert _findings(one.stdout) == EXPECTED[:1]


def test_a_bad_role_entry_is_a_usage_error(tmp_path: Path) -> None:
    bad = ON.replace('role = ["shop.adapters.outbound"]', 'role = ["shop..adapters"]')
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + bad, **FILES})
    run = run_inwards("check", "--no-cache", cwd=project)
    assert run.code == 2, run.stdout + run.stderr
    assert "construct-only-in.role" in run.stderr
