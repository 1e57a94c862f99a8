"""bench/optin_cost.py: the configuration it times with the rules on, and its table; one
real (tiny) measurement through the installed CLI."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest

PYPROJECT = '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n'


def test_the_rules_are_added_to_the_configuration(optin_cost: ModuleType) -> None:
    text = optin_cost.with_rules(PYPROJECT, ["FAPI001", "INW012"])
    assert text.endswith('[tool.inwards.rules]\nextend-select = ["FAPI001", "INW012"]\n')
    with pytest.raises(SystemExit, match="already has"):
        optin_cost.with_rules(text, ["INW013"])
    options = PYPROJECT + '[tool.inwards.rules.construct-only-in]\nrole = ["shop.db"]\n'
    assert optin_cost.with_rules(options, ["INW015"]).endswith('extend-select = ["INW015"]\n')


def test_the_table_gives_medians_and_ratios(optin_cost: ModuleType) -> None:
    table = optin_cost.render({"cold": (400.0, 600.0), "warm": (100.0, 110.0)}, ["INW012"])
    assert table.splitlines() == [
        "rules on: INW012",
        "scenario  default ms  with rules ms  ratio",
        "cold             400            600   1.50x",
        "warm             100            110   1.10x",
    ]


def test_a_real_measurement_on_a_tiny_tree(optin_cost: ModuleType, tmp_path: Path) -> None:
    inwards = shutil.which("inwards")
    if inwards is None:
        pytest.skip("the inwards command is not installed")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "api.py").write_text("import fastapi\n\nasync def a():\n    pass\n")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    results = optin_cost.measure(inwards, tmp_path, ["INW013"], 1, None)
    assert set(results) == {"cold", "warm", "edit"}
    assert all(plain > 0 and ruled > 0 for plain, ruled in results.values())
