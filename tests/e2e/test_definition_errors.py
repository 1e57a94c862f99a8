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
        'Did you mean "forbidden"? Known options: allow, forbidden, indirect, modules.'
    ) in done.stderr


def test_a_toml_syntax_error_in_a_definition_has_a_column(shop: Path) -> None:
    write_tree(shop, {".inwards/rules/ACME001.toml": 'code = "ACME001"\n[options\n'})
    done = run_inwards("check", cwd=shop)
    assert done.code == 2
    assert "config error: .inwards/rules/ACME001.toml:2:9: is not valid TOML" in done.stderr
