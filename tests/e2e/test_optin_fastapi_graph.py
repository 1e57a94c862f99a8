"""FAPI003, FAPI005 and FAPI008 (the rules on the FastAPI project graph) through the
installed `inwards`: off by default, on with `extend-select`, errors (exit 1) with their
options, the same findings cold and from the cache, SARIF, `rule --full` and the schema."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.e2e.helpers import assert_valid, run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]
"""
ON = """
[tool.inwards.rules]
extend-select = ["FAPI003", "FAPI005", "FAPI008"]

[tool.inwards.rules.router-wiring]
allow-unmounted = ["shop.labs"]
"""
FILES = {
    "shop/__init__.py": "",
    # Only `FastAPI(` and `include_router` mark this file for the content reader.
    "shop/main.py": (
        "from fastapi import FastAPI\n\n"
        "from shop import users\n"
        "from shop.items import router as items_router\n\n"
        "app = FastAPI()\n"
        'app.include_router(users.router, prefix="/users")\n'
        'app.include_router(items_router, prefix="/items")\n'
    ),
    "shop/users.py": (
        "from fastapi import APIRouter\n\n"
        "router = APIRouter()\n\n\n"
        '@router.get("/{user_id}", operation_id="read")\n'
        "def read_user(user_id: str) -> str:\n"
        "    return user_id\n\n\n"
        '@router.get("/me")\n'
        "def read_me() -> str:\n"
        '    return "me"\n'
    ),
    "shop/items.py": (
        "from fastapi import APIRouter\n\n"
        "router = APIRouter()\n\n\n"
        '@router.get("/{item_id}", operation_id="read")\n'
        "def read_item(item_id: str) -> str:\n"
        "    return item_id\n"
    ),
    "shop/orders.py": (
        "from fastapi import APIRouter\n\n"
        "router = APIRouter()\n\n\n"
        '@router.get("/")\n'
        "def list_orders() -> list[str]:\n"
        "    return []\n"
    ),
    "shop/labs/__init__.py": "",
    "shop/labs/beta.py": (
        "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n"
        '@router.get("/")\ndef beta() -> str:\n    return "beta"\n'
    ),
}
EXPECTED = [
    ("shop/items.py", 6, "FAPI008", "error"),
    ("shop/orders.py", 3, "FAPI003", "error"),
    ("shop/users.py", 11, "FAPI005", "error"),
]


def _findings(stdout: str) -> list[tuple[str, int, str, str]]:
    return sorted(
        (d["file"], d["line"], d["code"], d["severity"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"].startswith("FAPI")
    )


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_on_cold_and_from_the_cache(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, cold.stderr) == (1, ""), cold.stdout + cold.stderr
    assert _findings(cold.stdout) == EXPECTED
    messages = {d["code"]: d["message"] for d in json.loads(cold.stdout)["diagnostics"]}
    assert "GET /users/me" in messages["FAPI005"]
    assert '"read"' in messages["FAPI008"] and "shop/users.py:6" in messages["FAPI008"]
    assert "`shop.orders.router`" in messages["FAPI003"]
    for _ in range(2):  # fills the cache, then reads from it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert (warm.code, _findings(warm.stdout)) == (1, EXPECTED), warm.stdout + warm.stderr


def test_sarif_names_the_family(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "sarif", cwd=project)
    log = json.loads(run.stdout)
    rules = {r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {"FAPI003", "FAPI005", "FAPI008"} <= rules, rules
    assert sorted(r["ruleId"] for r in log["runs"][0]["results"]) == [
        "FAPI003",
        "FAPI005",
        "FAPI008",
    ]


def test_a_bad_option_is_a_config_error_naming_the_key(tmp_path: Path) -> None:
    bad = PYPROJECT + ON + 'unresolved-includes = "loud"\n'
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "tool.inwards.rules.router-wiring.unresolved-includes" in run.stderr, run.stderr


def test_the_rule_pages_and_the_schema(tmp_path: Path) -> None:
    for code, name in (
        ("FAPI003", "router-wiring"),
        ("FAPI005", "route-shadowing"),
        ("FAPI008", "duplicate-operation-id"),
    ):
        run = run_inwards("rule", code, "--full", cwd=tmp_path)
        assert run.code == 0 and name in run.stdout, run.stdout + run.stderr
    assert_valid(tomllib.loads(PYPROJECT + ON), "pyproject")


def test_a_baseline_accepts_the_findings_and_status_counts_the_family(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    written = run_inwards("baseline", cwd=project)
    assert written.code == 0, written.stdout + written.stderr
    again = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (again.code, _findings(again.stdout)) == (0, []), again.stdout + again.stderr
    status = json.loads(run_inwards("status", "--json", cwd=project).stdout)
    fapi = next(f for f in status["families"] if f["prefix"] == "FAPI")
    assert (fapi["distribution"], fapi["kinds"], fapi["rules"]) == ("inwards-lint", 8, 8), fapi
