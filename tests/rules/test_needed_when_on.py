"""An option a project must set where it turns a rule on (INW015's `role`): a config error
at the entry that turns it on, not a rule that silently reports nothing."""

from __future__ import annotations

import pytest

from inwards_core import ConfigError, check_sources

SOURCES = {"shop/__init__.py": "", "shop/app.py": ""}
HEAD = '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n[tool.inwards.rules]\n'


def test_turning_the_rule_on_without_the_option_is_a_config_error_at_the_entry() -> None:
    with pytest.raises(ConfigError) as raised:
        check_sources(SOURCES, pyproject=HEAD + 'extend-select = ["INW015"]\n')
    (problem,) = raised.value.problems
    assert (problem.key, problem.line) == ("tool.inwards.rules.extend-select[0]", 4)
    assert "needs `role`" in problem.message
    assert "[tool.inwards.rules.construct-only-in]" in problem.message


def test_with_the_option_set_the_rule_runs() -> None:
    pyproject = (
        HEAD
        + 'extend-select = ["INW015"]\n'
        + '[tool.inwards.rules.construct-only-in]\nrole = ["shop.app"]\n'
    )
    assert check_sources(SOURCES, pyproject=pyproject).findings == ()


def test_an_empty_option_counts_as_missing_and_select_is_judged_too() -> None:
    pyproject = (
        HEAD
        + 'select = ["INW001", "INW015"]\n'
        + "[tool.inwards.rules.construct-only-in]\nrole = []\n"
    )
    with pytest.raises(ConfigError) as raised:
        check_sources(SOURCES, pyproject=pyproject)
    assert [p.key for p in raised.value.problems] == ["tool.inwards.rules.select[1]"]


def test_ignoring_the_rule_needs_nothing() -> None:
    assert check_sources(SOURCES, pyproject=HEAD + 'ignore = ["INW015"]\n').findings == ()
