"""The generic kinds' options that import-linter contracts need, through the installed
`inwards`: layers `"a : b"`, `"(a)"`, `missing-layers`, `exhaustive`; acyclic `depth` and
`skip-descendants`; and chain findings that list every head and tail import of the route."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree


def _rule(code: str, kind: str, options: str) -> str:
    return (
        f'code = "{code}"\nname = "rule-{code.lower()}"\nsummary = "A contract."\n'
        f'check = "{kind}"\ndefault = "on"\nseverity = "error"\n\n[options]\n{options}\n'
    )


PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        'layers = [{ name = "app", modules = ["shop"] }]\n'
        "cycles = []\n\n"
        "[tool.inwards.rules]\n"
        'select = ["IL001", "IL002", "IL003"]\n'
    ),
    ".inwards/rules/IL001.toml": _rule(
        "IL001",
        "inw.layers",
        'containers = ["shop"]\n'
        'layers = ["domain", "orders : billing", "(tasks)", "api"]\n'
        "indirect = true\n"
        'missing-layers = "error"\n'
        "exhaustive = true\n"
        'exhaustive-ignores = ["hub"]\n',
    ),
    ".inwards/rules/IL002.toml": _rule(
        "IL002", "inw.acyclic", 'packages = ["shop"]\ndepth = 10\nskip-descendants = ["shop.api"]'
    ),
    ".inwards/rules/IL003.toml": _rule(
        "IL003", "inw.layers", 'layers = ["shop.missing"]\nmissing-layers = "error"'
    ),
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/money.py": "from shop.hub import link\n",
    "shop/domain/price.py": "\nimport shop.hub\n",
    "shop/hub.py": "from shop.api.web import page\nfrom shop.api.views import show\n",
    "shop/orders/__init__.py": "",
    "shop/orders/place.py": "from shop.billing.invoice import bill\n",
    "shop/orders/rules.py": "from shop.orders import place\n",
    "shop/billing/__init__.py": "",
    "shop/billing/invoice.py": "from shop.orders.place import order\n",
    "shop/api/__init__.py": "",
    "shop/api/web.py": "from shop.api import views\n",
    "shop/api/views.py": "from shop.api import web\n",
    "shop/tools.py": "x = 1\n",
}


def test_import_linter_options_through_the_cli(tmp_path: Path) -> None:
    project = write_tree(tmp_path, PROJECT)
    result = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert result.code == 1, result.stdout + result.stderr
    findings = json.loads(result.stdout)["diagnostics"]
    found = sorted((f["code"], f["file"], f["line"]) for f in findings)
    assert found == [
        ("IL001", "shop/domain/money.py", 1),  # the chain domain -> hub -> api
        ("IL001", "shop/tools.py", 1),  # a child of shop that is no layer
        ("IL002", "shop/billing/invoice.py", 1),  # billing <-> orders, a cycle in shop
        ("IL003", ".inwards/rules/IL003.toml", 1),  # the one layer must exist
    ], found
    chain = next(f for f in findings if f["file"] == "shop/domain/money.py")
    assert "Also into shop.hub: shop.domain.price (shop/domain/price.py:2)." in chain["message"]
    assert "Also from shop.hub: shop.api.views (shop/hub.py:2)." in chain["message"]
    assert all(f["severity"] == "error" for f in findings)


def test_without_depth_only_the_children_of_the_package(tmp_path: Path) -> None:
    files = {
        **PROJECT,
        ".inwards/rules/IL002.toml": _rule("IL002", "inw.acyclic", 'packages = ["shop"]'),
    }
    files["shop/orders/rules.py"] = "from shop.orders import place\n"
    files["shop/orders/place.py"] = "from shop.orders import rules\n"
    files["shop/billing/invoice.py"] = "x = 1\n"
    project = write_tree(tmp_path, files)
    shallow = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    codes = [f["code"] for f in json.loads(shallow.stdout)["diagnostics"]]
    assert "IL002" not in codes, shallow.stdout
    deep = _rule("IL002", "inw.acyclic", 'packages = ["shop"]\ndepth = 1')
    (project / ".inwards/rules/IL002.toml").write_text(deep, encoding="utf-8")
    result = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    cycles = [f for f in json.loads(result.stdout)["diagnostics"] if f["code"] == "IL002"]
    found = sorted(f["file"] for f in cycles)
    assert found == ["shop/api/views.py", "shop/orders/place.py"], result.stdout
