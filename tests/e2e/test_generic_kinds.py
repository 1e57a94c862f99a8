"""A project rule on a generic kind, through the installed `inwards` (text, JSON, PATHS)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        'root = "src"\n'
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "app", modules = ["shop.app"] },\n'
        "]\n"
    ),
    ".inwards/rules/ACME001.toml": (
        'code = "ACME001"\n'
        'name = "domain-offline"\n'
        'summary = "The domain reaches an HTTP client."\n'
        'check = "inw.forbidden"\n'
        "\n"
        "[options]\n"
        'modules = ["shop.domain"]\n'
        'forbidden = ["requests"]\n'
        "indirect = true\n"
        "\n"
        "[guidance]\n"
        'summary = "Keep HTTP out of {module}: {chain}"\n'
    ),
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "from shop.common.net import fetch\n",
    "src/shop/app/__init__.py": "",
    "src/shop/app/service.py": "from shop.domain import order\n",
    "src/shop/common/__init__.py": "",
    "src/shop/common/net.py": "\nimport requests\n",
}


def test_a_chain_through_unlayered_code_in_text_and_json(tmp_path: Path) -> None:
    project = write_tree(tmp_path, PROJECT)
    text = run_inwards("check", "--no-cache", cwd=project)
    assert text.code == 1, text.stdout + text.stderr
    assert (
        "src/shop/domain/order.py:1:29: ACME001 [project rule] "
        '"shop.domain.order" reaches "requests" through shop.common.net' in text.stdout
    )
    assert (
        "Chain: shop.domain.order (src/shop/domain/order.py:1) -> shop.common.net "
        "(src/shop/common/net.py:2) -> requests." in text.stdout
    )
    assert (
        "fix: Keep HTTP out of shop.domain.order: shop.domain.order:1 -> shop.common.net:2 -> "
        "requests" in text.stdout
    )

    document = json.loads(
        run_inwards("check", "--no-cache", "--format", "json", cwd=project).stdout
    )
    (finding,) = [d for d in document["diagnostics"] if d["code"] == "ACME001"]
    assert finding["origin"] == "project"
    assert "src/shop/common/net.py:2" in finding["message"]


def test_named_paths_check_direct_imports_only(tmp_path: Path) -> None:
    files = {**PROJECT, "src/shop/domain/pricing.py": "import requests.auth\n"}
    project = write_tree(tmp_path, files)
    run = run_inwards(
        "check",
        "--no-cache",
        "src/shop/domain/order.py",
        "src/shop/domain/pricing.py",
        cwd=project,
    )
    assert run.code == 1, run.stdout + run.stderr
    assert "src/shop/domain/pricing.py:1:8: ACME001" in run.stdout
    assert "src/shop/domain/order.py:1:29: ACME001" not in run.stdout
    assert "note: Import chains were not followed because paths were named" in run.stdout
