"""One rule lookup for `inwards rule` and `inwards rules explain|shadow`: a code or a name in
any letter case, and the closest one when none matches."""

from __future__ import annotations

from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.api import load_rules
from inwards_core.families.inw import family
from inwards_core.model.findings import RootKind
from inwards_core.rules.lookup import did_you_mean, find_rule
from inwards_core.rules.rule_set import RuleSet

FAMILIES = (family(),)


def new_rule(code: str, name: str) -> str:
    return f'code = "{code}"\nname = "{name}"\nsummary = "s"\ncheck = "inw.pure-domain"\n'


def rules(user: dict[str, str] | None = None, policy: str = "on") -> RuleSet:
    return load_rules(FAMILIES, InMemoryRuleSources(FAMILIES, user=user), user_rules=policy)


def test_a_code_or_a_name_in_any_letter_case() -> None:
    rule_set = rules()
    for typed in ("INW011", "inw011", " Inw011 ", "dynamic-import", "Dynamic-Import"):
        found = find_rule(rule_set, typed)
        assert found is not None and found.rule is not None
        assert (found.code, found.rule.code) == ("INW011", "INW011")
        assert [d.origin.root for d in found.chain] == [RootKind.CORE]
    assert find_rule(rule_set, "INW099") is None
    assert find_rule(rule_set, "inw.forbidden") is None  # a check kind is not a rule


def test_a_shadow_is_found_with_the_chain_it_heads() -> None:
    rule_set = rules(user={"INW011.toml": new_rule("INW011", "dynamic-import")})
    found = find_rule(rule_set, "dynamic-import")
    assert found is not None and found.rule is not None
    assert [d.origin.root for d in found.chain] == [RootKind.USER, RootKind.CORE]
    assert found.rule.definition == found.chain[0]


def test_a_rule_defined_but_not_in_force_is_found_without_a_rule() -> None:
    rule_set = rules(user={"ACME001.toml": new_rule("ACME001", "acme")}, policy="guidance-only")
    found = find_rule(rule_set, "acme")
    assert found is not None and found.code == "ACME001" and found.rule is None


def test_the_closest_code_or_name() -> None:
    rule_set = rules()
    assert did_you_mean(rule_set, "inw-011") == ' Did you mean "INW011"?'
    assert did_you_mean(rule_set, "layer-dependancy") == ' Did you mean "layer-dependency"?'
    assert did_you_mean(rule_set, "zzzzzz") == ""


def test_a_lookalike_digit_and_ties_among_codes() -> None:
    rule_set = rules()
    assert did_you_mean(rule_set, "INW01l") == ' Did you mean "INW011"?'
    assert did_you_mean(rule_set, "inw0O5") == ' Did you mean "INW005"?'
    # INW009 and INW019 are equally close: the lowest code wins, whatever codes are added.
    assert did_you_mean(rule_set, "INW099") == ' Did you mean "INW009"?'
