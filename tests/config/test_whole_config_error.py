"""A configuration that fails to build still has its rules table and the rule definitions
checked: one `ConfigError` lists every problem, sorted by file, line and column."""

from __future__ import annotations

import tomllib

import attrs
import pytest

from inwards_core.api import load_rules, whole_config_error
from inwards_core.config.load import build_config
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import ConfigError
from inwards_core.model.findings import RootKind
from inwards_core.rules.definitions import DefinitionProblem

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"], colour = "red" },
]

[tool.inwards.rules]
ignore = ["INW999"]

[tool.inwards.rules.layer-dependency]
exclude_modules = ["x"]

[tool.inwards.rules.layer-dependencyy]
"""


def test_a_broken_layer_does_not_hide_the_other_problems() -> None:
    table = tomllib.loads(PYPROJECT)["tool"]["inwards"]
    positions = TomlPositions(PYPROJECT)
    with pytest.raises(ConfigError) as raised:
        build_config(table, file="pyproject.toml", positions=positions)
    broken = DefinitionProblem(
        RootKind.PROJECT, ".inwards/rules/ACME001.toml", 3, "check", "is not a kind.", 1
    )
    rules = load_rules()
    rules = attrs.evolve(rules, problems=(*rules.problems, broken))
    error = whole_config_error(
        raised.value, table, rules, file="pyproject.toml", positions=positions
    )
    rendered = [problem.render() for problem in error.problems]
    assert [line.split(": ")[0] for line in rendered] == [
        ".inwards/rules/ACME001.toml:3:1",
        "pyproject.toml:3:49",
        "pyproject.toml:7:11",
        "pyproject.toml:10:1",
        "pyproject.toml:12:21",
    ]
    assert "colour: is not a layer key" in rendered[1]
    assert '"INW999" is not a rule code' in rendered[2]
    assert 'is not an option. Did you mean "modules"?' in rendered[3]
    assert 'is not a rule name or a rules key. Did you mean "layer-dependency"?' in rendered[4]
