"""The organisation root in the resolver: between core and user, its problems only warn."""

from __future__ import annotations

from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.api import load_rules
from inwards_core.families.inw import family
from inwards_core.model.findings import ROOTS_ASCENDING, RootKind
from inwards_core.rules.definitions import DefinitionProblem
from inwards_core.rules.resolver import ROOT_PRECEDENCE
from inwards_core.rules.rule_set import RuleSet

FAMILIES = (family(),)
CORE_011 = next(d for d in packaged_documents(FAMILIES) if d.path.endswith("INW011.toml"))
CORE_TEXT = CORE_011.data.decode()


def summary(text: str) -> str:
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("summary = "))
    lines[index] = 'summary = "from here"'
    return "\n".join(lines)


def rules(**roots: dict[str, str]) -> RuleSet:
    return load_rules(FAMILIES, InMemoryRuleSources(FAMILIES, **roots))


def test_one_order_of_roots() -> None:
    assert ROOTS_ASCENDING == (RootKind.CORE, RootKind.ORG, RootKind.USER, RootKind.PROJECT)
    assert tuple(RootKind) == ROOTS_ASCENDING  # declared in that order: enum iteration agrees
    assert sorted(RootKind, key=ROOT_PRECEDENCE.__getitem__) == list(ROOTS_ASCENDING)


def test_only_core_and_project_problems_block() -> None:
    blocking = {
        root: DefinitionProblem(root, "X.toml", None, "", "m").blocking for root in RootKind
    }
    assert blocking == {
        RootKind.CORE: True,
        RootKind.ORG: False,
        RootKind.USER: False,
        RootKind.PROJECT: True,
    }


def test_org_sits_between_core_and_user() -> None:
    text = summary(CORE_TEXT)
    rule = rules(org={"INW011.toml": text}, user={"INW011.toml": text}).by_code("INW011")
    assert rule is not None
    assert rule.origin.root is RootKind.USER
    assert [d.origin.root for d in rule.shadowed] == [RootKind.ORG, RootKind.CORE]
    rule_set = rules(org={"INW011.toml": text}, user={})
    assert rule_set.org_in_effect()[0].effect == "shadows core"
    assert rule_set.user_in_effect() == ()


def test_a_broken_org_definition_warns_and_core_stays() -> None:
    rule_set = rules(org={"INW011.toml": CORE_TEXT.replace("name = ", "name = 1 #")})
    rule = rule_set.by_code("INW011")
    assert rule is not None and rule.origin.root is RootKind.CORE
    assert rule_set.errors == ()
    assert [w.endswith("(this org definition is not used)") for w in rule_set.warnings()] == [True]


def test_an_org_rule_under_a_family_prefix_or_renaming_a_core_one_is_void() -> None:
    new = 'code = "INW999"\nname = "mine"\nsummary = "s"\ncheck = "inw.pure-domain"\n'
    renamed = CORE_TEXT.replace('name = "', 'name = "other-', 1)
    rule_set = rules(org={"INW999.toml": new, "INW011.toml": renamed})
    assert rule_set.by_code("INW999") is None
    rule = rule_set.by_code("INW011")
    assert rule is not None and rule.origin.root is RootKind.CORE
    assert rule_set.errors == ()
    assert sorted(p.code for p in rule_set.problems) == ["INW011", "INW999"]


def test_a_user_shadow_of_an_org_rule_says_so() -> None:
    new = 'code = "ACME001"\nname = "mine"\nsummary = "s"\ncheck = "inw.pure-domain"\n'
    rule_set = rules(org={"ACME001.toml": new}, user={"ACME001.toml": new})
    [user] = rule_set.user_in_effect()
    assert (user.code, user.effect) == ("ACME001", "shadows org")
    assert rule_set.org_in_effect() == ()  # shadowed: not in force
