"""Rule-definition errors name file:line:column, and suggest the kind or option meant."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.helpers import EXAMPLES, run_inwards, write_tree


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", project)
    return project


def definition(check: str, option: str) -> str:
    return (
        f'code = "ACME001"\nname = "acme"\ncheck = "{check}"\n\n[options]\n'
        f'modules = ["shop.domain"]\n  {option} = ["requests"]\n'
    )


def test_a_misspelt_kind_is_suggested_with_its_column(shop: Path) -> None:
    write_tree(shop, {".inwards/rules/ACME001.toml": definition("inw.forbiden", "forbidden")})
    done = run_inwards("check", cwd=shop)
    assert done.code == 2
    assert (
        'config error: .inwards/rules/ACME001.toml:3:1: check: "inw.forbiden" is not a check '
        'kind of any installed family. Did you mean "inw.forbidden"? Known kinds:'
    ) in done.stderr


def test_a_misspelt_option_is_suggested_with_its_column(shop: Path) -> None:
    write_tree(shop, {".inwards/rules/ACME001.toml": definition("inw.forbidden", "forbiden")})
    done = run_inwards("check", cwd=shop)
    assert done.code == 2
    assert (
        "config error: .inwards/rules/ACME001.toml:7:3: options.forbiden: is not an option. "
        'Did you mean "forbidden"? Known options: allow, as-packages, dynamic, forbidden, '
        "ignore-imports, indirect, missing-modules, modules, type-checking, unmatched-ignore."
    ) in done.stderr


def test_a_toml_syntax_error_in_a_definition_has_a_column(shop: Path) -> None:
    write_tree(shop, {".inwards/rules/ACME001.toml": 'code = "ACME001"\n[options\n'})
    done = run_inwards("check", cwd=shop)
    assert done.code == 2
    assert "config error: .inwards/rules/ACME001.toml:2:9: is not valid TOML" in done.stderr


BROKEN_EVERYWHERE = """\
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"], colour = "red" },
  { name = "application", modules = ["shop.application"] },
  { name = "bootstrap", modules = ["shop.bootstrap", "shop.adapters"] },
]

[tool.inwards.rules]
ignore = ["INW999"]

[tool.inwards.rules.layer-dependency]
exclude_modules = ["x"]
"""


def test_one_run_lists_every_problem_of_every_stage(shop: Path) -> None:
    # A broken layer used to stop the run alone; the rules table and the definitions
    # came in the next run. All four come at once now.
    write_tree(
        shop,
        {
            "pyproject.toml": BROKEN_EVERYWHERE,
            ".inwards/rules/ACME001.toml": definition("inw.forbiden", "forbidden"),
        },
    )
    done = run_inwards("check", cwd=shop)
    assert done.code == 2
    assert done.stdout == ""
    located = [
        line.split(": ")[1] for line in done.stderr.splitlines() if line.startswith("config error")
    ]
    assert located == [
        ".inwards/rules/ACME001.toml:3:1",
        "pyproject.toml:4:49",
        "pyproject.toml:10:11",
        "pyproject.toml:13:1",
    ]
    assert "tool.inwards.layers[0].colour: is not a layer key" in done.stderr
    assert 'tool.inwards.rules.ignore[0]: "INW999" is not a rule code' in done.stderr
    assert 'exclude_modules: is not an option. Did you mean "modules"?' in done.stderr
    assert 'Did you mean "inw.forbidden"?' in done.stderr
