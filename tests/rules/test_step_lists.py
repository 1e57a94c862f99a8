"""Step lists (`Violation.step_lists`): a guidance step that is one field alone becomes one
step per item, as written, and INW007 shows a shape's `hints` written as a list that way."""

from __future__ import annotations

import pytest

from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, load_config_text
from inwards_core.model.findings import Finding
from inwards_core.rules.templates import fill_steps

HOSTILE = "{package} {{x}} {parts[-1]} {member:>9} {} {0} %s %(a)s \\1 \\g<0>"


def test_a_lone_field_becomes_one_step_per_item_as_written() -> None:
    steps = ("First {package}.", " {advice} ", "Last.")
    filled = fill_steps(steps, {"package": "shop", "advice": "joined"}, {"advice": ("a", HOSTILE)})
    assert filled == ("First shop.", "a", HOSTILE, "Last.")


def test_an_empty_list_is_no_step_and_other_fields_are_filled() -> None:
    params = {"package": "shop", "advice": "a b"}
    assert fill_steps(("{advice}", "{package}"), params, {"advice": ()}) == ("shop",)
    # Inside a longer step, or without a list, the field takes the parameter's value.
    assert fill_steps(("See: {advice}", "{advice}"), params, {}) == ("See: a b", "a b")
    assert fill_steps(("{{advice}}",), params, {"advice": ("x",)}) == ("{advice}",)


PYPROJECT = """\
[tool.inwards]
layers = [{ name = "domain", modules = ["shop.domain"] }]

[[tool.inwards.shape]]
packages = ["shop"]
allow = ["domain/"]
hints = %s
"""
FILES = {"shop/__init__.py": "", "shop/domain/__init__.py": "", "shop/common/__init__.py": ""}


def _shape_finding(hints: str) -> Finding:
    config = load_config_text(PYPROJECT % hints)
    report = check(config, InMemoryProjectFiles(FILES))
    return next(finding for finding in report.findings if finding.code == "INW007")


def test_inw007_shows_each_sentence_after_what_the_package_may_hold() -> None:
    # A TOML literal string: the sentence reaches the loader as written.
    hints = f'["Shared code goes into shop.domain.kernel.", "common -> domain", \'{HOSTILE}\']'
    fix = _shape_finding(hints).fix
    assert fix.steps[:4] == (
        'Package "shop" may hold: `domain/`.',
        "Shared code goes into shop.domain.kernel.",
        "common -> domain",
        HOSTILE,
    )
    assert len(fix.steps) == 6
    # "a -> b" is a sentence, as in the reference product, not a rename: no likely target.
    assert fix.summary == 'Move the code of "common/" into a member that package "shop" allows.'


@pytest.mark.parametrize("hints", ["[]", '{ common = "domain" }'])
def test_without_sentences_there_is_no_extra_step(hints: str) -> None:
    fix = _shape_finding(hints).fix
    assert len(fix.steps) == 3
    assert all(step.strip() for step in fix.steps)


def test_with_a_likely_target_the_sentences_follow_too() -> None:
    config = load_config_text(
        (PYPROJECT % '["Ask the team first."]').replace(
            'allow = ["domain/"]', 'allow = ["domain/", "utils/"]'
        )
    )
    files = {**FILES, "shop/helpers/__init__.py": ""}
    report = check(config, InMemoryProjectFiles(files))
    helpers = next(f for f in report.findings if f.file == "shop/helpers/__init__.py")
    assert helpers.fix.summary == 'Move the code of "helpers/" into "utils/".'
    assert helpers.fix.steps[1:3] == (
        'Package "shop" may hold: `domain/`, `utils/`.',
        "Ask the team first.",
    )
