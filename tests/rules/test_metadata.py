"""Guards over the shipped rules: codes, names, kinds, docs sections."""

from __future__ import annotations

import re
import tomllib
from importlib import resources

from inwards_core import RootKind, RuleDocument, resolve
from inwards_core.adapters.packaged_rules import packaged_documents
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


def test_a_rule_summary_is_written_once_in_its_kind() -> None:
    """A shipped definition says no `summary`: the rule's is its kind's (`CheckKind.summary`)."""
    # By prefix: one distribution may ship several families (INW and FAPI in inwards-lint).
    packages = {family.prefix: family.definitions for family in installed_families()}
    for rule in RULE_SET.rules:
        package = packages[rule.code.rstrip("0123456789")]
        text = resources.files(package).joinpath(f"{rule.code}.toml").read_text(encoding="utf-8")
        assert "summary" not in tomllib.loads(text), rule.code
        assert rule.definition.summary == rule.kind.summary, rule.code


def test_a_definition_may_say_its_own_summary() -> None:
    families = installed_families()
    text = 'code = "ACME001"\nname = "acme"\ncheck = "inw.forbidden"\n\n[options]\n'
    text += 'modules = ["shop.domain"]\nforbidden = ["requests"]\n'
    own = 'summary = "The domain stays offline."\n'
    for summary, expected in (("", "Listed modules import something"), (own, "The domain stays")):
        document = RuleDocument(
            RootKind.PROJECT, ".inwards/rules/ACME001.toml", (summary + text).encode()
        )
        rule_set = resolve([*packaged_documents(families), document], families)
        rule = rule_set.by_code("ACME001")
        assert rule is not None, rule_set.problems
        assert rule.definition.summary.startswith(expected)
