"""FAPI001 endpoint-metadata through the installed `inwards`: off by default, on with
`extend-select`, options from its table, the same findings cold and from the cache, and the
rule page through `inwards rule`."""

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
extend-select = ["FAPI001"]

[tool.inwards.rules.endpoint-metadata]
require-status-code = ["post", "put", "delete"]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/orders.py": (
        "from fastapi import APIRouter\n\n"
        'router = APIRouter(prefix="/orders")\n\n\n'
        '@router.put("/{order_id}")\n'
        "async def replace_order(order_id: int):\n"
        '    """Replace an order."""\n'
        "    return {}\n\n\n"
        '@router.get("/", summary="List orders")\n'
        "async def list_orders() -> list[int]:\n"
        "    return []\n"
    ),
    "shop/main.py": (
        "from fastapi import FastAPI\n\n"
        "from shop.orders import router\n\n"
        "app = FastAPI()\n"
        'app.include_router(router, prefix="/v1")\n'
    ),
}
EXPECTED = [
    (
        "shop/orders.py",
        6,
        "`replace_order` (PUT /v1/orders/{order_id}) publishes an OpenAPI entry without "
        "explicit status code and response model.",
        "Give `replace_order` (PUT /v1/orders/{order_id}) the OpenAPI metadata it lacks: "
        "explicit status code and response model.",
    )
]


def _findings(stdout: str) -> list[tuple[str, int, str, str]]:
    return [
        (d["file"], d["line"], d["message"], d["fix"]["summary"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] == "FAPI001"
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


def test_a_bad_option_is_a_config_error(tmp_path: Path) -> None:
    bad = PYPROJECT + ON.replace('["post", "put", "delete"]', '["fetch"]')
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "endpoint-metadata.require-status-code" in run.stderr, run.stderr


def test_the_rule_page_and_the_schema(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    run = run_inwards("rule", "FAPI001", cwd=project)
    assert run.code == 0 and "endpoint-metadata" in run.stdout, run.stdout + run.stderr
    assert_valid(tomllib.loads(PYPROJECT + ON), "pyproject")
