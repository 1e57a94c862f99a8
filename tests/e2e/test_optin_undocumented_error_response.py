"""FAPI002 undocumented-error-response through the installed `inwards`: off by default, on
with `extend-select`, options from its table, the same findings cold and from the cache."""

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
extend-select = ["FAPI002"]

[tool.inwards.rules.undocumented-error-response]
max-depth = 1
"""
FILES = {
    "shop/__init__.py": "",
    "shop/lookup.py": (
        "from fastapi import HTTPException, status\n\n\n"
        "def load_order(order_id: int) -> dict[str, int]:\n"
        "    if order_id < 0:\n"
        "        raise HTTPException(status.HTTP_404_NOT_FOUND)\n"
        "    return {'id': order_id}\n"
    ),
    "shop/orders.py": (
        "from fastapi import APIRouter, HTTPException\n\n"
        "from shop.lookup import load_order\n\n"
        'router = APIRouter(prefix="/orders")\n\n\n'
        '@router.post("/{order_id}/confirm")\n'
        "async def confirm_order(order_id: int) -> dict[str, int]:\n"
        "    order = load_order(order_id)\n"
        "    if order['id'] == 0:\n"
        "        raise HTTPException(status_code=409)\n"
        "    return order\n"
    ),
    "shop/main.py": (
        "from fastapi import FastAPI\n\n"
        "from shop.orders import router\n\n"
        'app = FastAPI(responses={409: {"description": "Conflict"}})\n'
        "app.include_router(router)\n"
    ),
}
EXPECTED = [
    (
        "shop/orders.py",
        8,
        "`confirm_order` (POST /orders/{order_id}/confirm) can respond 404 (through "
        "`load_order`), which no `responses=` on its decorator, router or app declares.",
        "Declare 404 in the OpenAPI responses of `confirm_order` "
        "(POST /orders/{order_id}/confirm).",
    )
]


def _findings(stdout: str) -> list[tuple[str, int, str, str]]:
    return [
        (d["file"], d["line"], d["message"], d["fix"]["summary"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] == "FAPI002"
    ]


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_on_with_extend_select_and_the_same_from_the_cache(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, _findings(cold.stdout)) == (1, EXPECTED), cold.stdout + cold.stderr
    for _ in range(2):  # fills the cache, then reads from it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert (warm.code, _findings(warm.stdout)) == (1, EXPECTED), warm.stdout + warm.stderr


def test_max_depth_zero_sees_only_the_endpoint(tmp_path: Path) -> None:
    project = write_tree(
        tmp_path, {"pyproject.toml": PYPROJECT + ON.replace("= 1", "= 0"), **FILES}
    )
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_a_bad_option_is_a_config_error(tmp_path: Path) -> None:
    bad = PYPROJECT + ON.replace("max-depth = 1", "max-depth = 12")
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "undocumented-error-response.max-depth" in run.stderr, run.stderr


def test_the_schema_takes_the_options() -> None:
    assert_valid(tomllib.loads(PYPROJECT + ON), "pyproject")
