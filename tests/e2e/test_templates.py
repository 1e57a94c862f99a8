"""Templates through the installed `inwards`: role layers checked like written ones, the
rules a template turns on in `check` and `rules`, and configuration errors at file:line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

PYPROJECT = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "kernel", modules = ["shop.kernel"] },\n'
    '  { name = "slices", modules = ["shop.orders", "shop.billing"], template = "slice" },\n'
    "]\n"
    "[tool.inwards.templates.slice]\n"
    'roles = ["domain", "app | cli"]\n'
    "{rules}"
)

NO_HTTP = (
    'code = "ARCH001"\n'
    'name = "no-http"\n'
    'summary = "A domain module reaches an HTTP client."\n'
    'check = "inw.forbidden"\n'
    'default = "opt-in"\n'
    "\n"
    "[options]\n"
    'modules = ["shop.kernel"]\n'
    'forbidden = ["requests"]\n'
)


def project(tmp_path: Path, rules: str = "", **files: str) -> Path:
    tree = {
        "pyproject.toml": PYPROJECT.replace("{rules}", rules),
        ".inwards/rules/ARCH001.toml": NO_HTTP,
        "shop/__init__.py": "",
        "shop/kernel/__init__.py": "",
    }
    for slice_name in ("orders", "billing"):
        tree[f"shop/{slice_name}/__init__.py"] = ""
        for role in ("domain", "app", "cli"):
            tree[f"shop/{slice_name}/{role}/__init__.py"] = ""
    tree.update({name.replace("__", "/") + ".py": text for name, text in files.items()})
    return write_tree(tmp_path, tree)


def test_role_layers_are_checked_like_written_ones(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        shop__orders__domain__model="from shop.orders.app import service\n",
        shop__orders__app__service="from shop.orders.cli import main\n",
        shop__orders__cli__main="from shop.orders.domain import model\n",
    )
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=root)
    assert run.code == 1, run.stdout + run.stderr
    lines = sorted(line for line in run.stdout.splitlines() if "INW001" in line)
    assert len(lines) == 2, run.stdout
    assert lines[0].startswith("shop/orders/app/service.py:1:")
    assert "slices.cli" in lines[0] and "slices.app" in lines[0]
    assert lines[1].startswith("shop/orders/domain/model.py:1:")
    assert "slices.app" in lines[1] and "slices.domain" in lines[1]


def test_a_template_rule_runs_on_its_role_and_rules_says_why(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        rules='rules = { domain = { no-http = "warning" } }\n',
        shop__billing__domain__client="import requests\n",
        shop__billing__app__client="import requests\n",
    )
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=root)
    assert run.code == 0, run.stdout + run.stderr
    assert "shop/billing/domain/client.py:1:8: ARCH001 (warning)" in run.stdout
    assert "shop/billing/app/client.py" not in run.stdout

    listing = run_inwards("rules", "--json", cwd=root)
    assert listing.code == 0, listing.stderr
    (row,) = [r for r in json.loads(listing.stdout)["rules"] if r["code"] == "ARCH001"]
    assert row["enabled"] is True
    assert row["decidedBy"] == "templates.slice.rules.domain.no-http"
    assert row["severity"] == "warning"
    assert row["severityDecidedBy"] == "templates.slice.rules.domain.no-http"

    table = run_inwards("rules", cwd=root)
    assert "templates.slice.rules.domain.no-http" in table.stdout


def test_the_user_s_rules_table_wins_over_the_template(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        rules='rules = { domain = { no-http = "warning" } }\n',
        shop__billing__domain__client="import requests\n",
    )
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '[tool.inwards.rules]\nseverity = { ARCH001 = "error" }\n'
    )
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=root)
    assert run.code == 1, run.stdout + run.stderr
    assert "shop/billing/domain/client.py:1:8: ARCH001 " in run.stdout


def test_errors_name_file_line_and_key(tmp_path: Path) -> None:
    root = project(tmp_path)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('template = "slice"', 'template = "slcie"'))
    run = run_inwards("check", cwd=root)
    assert run.code == 2
    assert (
        'pyproject.toml:4:65: tool.inwards.layers[1].template: names template "slcie", which is '
        'not defined. Templates: "slice". Did you mean "slice"?'
    ) in run.stderr


def test_a_template_rule_the_rule_set_refuses(tmp_path: Path) -> None:
    root = project(tmp_path, rules="rules = { domain = { layer-dependency = true } }\n")
    run = run_inwards("check", cwd=root)
    assert run.code == 2, run.stdout + run.stderr
    assert (
        "pyproject.toml:8:22: tool.inwards.templates.slice.rules.domain.layer-dependency: names "
        "INW001 layer-dependency, which is on by default"
    ) in run.stderr
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("layer-dependency", "ARCH001"))
    run = run_inwards("check", cwd=root)
    assert run.code == 2
    assert 'names a rule by its code; write its name, "no-http".' in run.stderr
