"""Every example of every rule of every installed family behaves as documented.

Families are found through the real entry points, so this also proves the `inwards` group.
"""

from __future__ import annotations

import pytest

from inwards_core.api import installed_families, load_rules
from inwards_core.authoring.examples import example_problems

RULE_SET = load_rules(installed_families())
CASES = [
    pytest.param(rule, example, id=f"{rule.code}-{'good' if example.good else 'bad'}-{number}")
    for rule in RULE_SET.rules
    for number, example in enumerate(rule.kind.examples())
]


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_example(rule, example) -> None:  # type: ignore[no-untyped-def]
    assert example_problems(example, RULE_SET) == []


def test_every_rule_has_a_good_and_a_bad_example() -> None:
    for rule in RULE_SET.rules:
        kinds = {example.good for example in rule.kind.examples()}
        assert kinds == {True, False}, rule.code


def test_bad_examples_report_their_own_rule() -> None:
    from inwards_core.authoring.examples import run_example

    for rule in RULE_SET.rules:
        for example in rule.kind.examples():
            if not example.good:
                codes = {f.code for f in run_example(example, RULE_SET).findings}
                assert rule.code in codes, (rule.code, example.title)
