"""Guards over the shipped rules: codes, names, kinds, docs sections."""

from __future__ import annotations

import re

from inwards_core.api import installed_families, load_rules
from inwards_core.families.inw import KIND_MODULES

RULE_SET = load_rules(installed_families())


def test_core_definitions_resolve_without_problems() -> None:
    assert RULE_SET.problems == ()


def test_codes_names_and_kinds() -> None:
    families = {f.prefix: f for f in installed_families()}
    for rule in RULE_SET.rules:
        assert re.fullmatch(r"[A-Z]{2,6}\d{3}", rule.code)
        prefix = re.match(r"[A-Z]+", rule.code)
        assert prefix is not None and prefix.group(0) in families
        assert rule.kind.id.split(".")[0] == prefix.group(0).lower()
        assert rule.definition.guidance.summary and rule.definition.guidance.steps


def test_every_kind_is_documented_and_registered() -> None:
    registered = {rule.kind.id for rule in RULE_SET.rules}
    for module in KIND_MODULES:
        kind = module.KIND
        assert kind.id in registered, module.__name__
        assert kind.docs is not None, kind.id
        titles = [title for title, _ in kind.docs.sections()]
        assert titles == ["What it does", "Why is this bad?", "How to fix", "Limitations"]


def test_each_rule_has_its_own_kind_module() -> None:
    modules = [rule.kind.check.__module__ for rule in RULE_SET.rules if rule.code.startswith("INW")]
    assert len(modules) == len(set(modules))
