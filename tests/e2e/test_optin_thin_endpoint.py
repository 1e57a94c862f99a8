"""INW012 thin-endpoint through the installed `inwards`: off by default, on with
`extend-select`, options from its table (an int|false limit among them), a warning (exit
0), the same findings cold and from the cache."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.e2e.helpers import assert_valid, run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "api", modules = ["shop.api"] },
]
"""
ON = """
[tool.inwards.rules]
extend-select = ["INW012"]

[tool.inwards.rules.thin-endpoint]
max-statements = 4
max-nesting = false
extend-deny-calls = ["shop.api.mailer"]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/application/__init__.py": "",
    "shop/application/orders.py": "def place(lines):\n    return lines\n",
    "shop/api/__init__.py": "",
    "shop/api/mailer.py": "def send(to):\n    return to\n",
    "shop/api/orders.py": (
        "from fastapi import APIRouter, HTTPException\n"
        "from shop.api import mailer\n"
        "from shop.application.orders import place\n\n"
        "router = APIRouter()\n\n\n"
        "@router.post('/orders')\n"
        "def create(lines: list):\n"
        "    if not lines:\n"
        "        raise HTTPException(422)\n"
        "    return place(lines)\n\n\n"
        "@router.get('/report')\n"
        "def report(rows: list):\n"
        "    total = 0\n"
        "    count = 0\n"
        "    for row in rows:\n"
        "        total += row\n"
        "        count += 1\n"
        "    mailer.send('boss')\n"
        "    return total / count\n"
    ),
    "shop/api/tests/__init__.py": "",
    "shop/api/tests/test_orders.py": (
        "from fastapi import FastAPI\nfrom shop.api import mailer\n\napp = FastAPI()\n\n\n"
        "@app.get('/x')\ndef x():\n    mailer.send('a')\n    return 1\n"
    ),
}
MESSAGE = (
    "HTTP endpoint `report` does work that belongs behind it: 7 statements (at most 4), "
    "1 loop over data and direct calls to `mailer.send`."
)


def _findings(stdout: str) -> list[tuple[str, int, str, str]]:
    return [
        (d["file"], d["line"], d["severity"], d["message"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] == "INW012"
    ]


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert _findings(run.stdout) == [], run.stdout + run.stderr


def test_on_with_extend_select_a_warning_and_the_same_from_the_cache(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    expected = [("shop/api/orders.py", 16, "warning", MESSAGE)]
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, cold.stderr) == (0, ""), cold.stdout + cold.stderr
    assert _findings(cold.stdout) == expected
    for _ in range(2):  # fills the cache, then reads from it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert (warm.code, _findings(warm.stdout)) == (0, expected), warm.stdout + warm.stderr


def test_check_tests_judges_test_modules(tmp_path: Path) -> None:
    config = PYPROJECT + ON + "check-tests = true\n"
    project = write_tree(tmp_path, {"pyproject.toml": config, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert [f[:2] for f in _findings(run.stdout)] == [
        ("shop/api/orders.py", 16),
        ("shop/api/tests/test_orders.py", 8),
    ], run.stdout + run.stderr


def test_true_for_a_limit_is_a_config_error_naming_the_key(tmp_path: Path) -> None:
    bad = PYPROJECT + ON.replace("max-nesting = false", "max-nesting = true")
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "tool.inwards.rules.thin-endpoint.max-nesting" in run.stderr, run.stderr


def test_the_schema_takes_the_options() -> None:
    assert_valid(tomllib.loads(PYPROJECT + ON), "pyproject")


def test_a_path_run_judges_the_named_module(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    run = run_inwards("check", "--format", "json", "shop/api/orders.py", cwd=project)
    assert [f[:2] for f in _findings(run.stdout)] == [("shop/api/orders.py", 16)], run.stderr
