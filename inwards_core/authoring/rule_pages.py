"""A rule's page as the rules in force give it: what `inwards rule` prints and `inwards
mcp` serves, from one function, whether the rule set is read afresh (the command) or kept
warm (the server)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inwards_core.api import load_rules
from inwards_core.authoring.docgen import rule_page_document
from inwards_core.model.findings import RootKind
from inwards_core.rules.lookup import rule_in_force
from inwards_core.rules.rule_set import ResolvedRule, RuleSet


def shipped_rules(rule_set: RuleSet) -> RuleSet:
    """The core definitions of `rule_set`'s families alone, no user or project root."""
    return load_rules(rule_set.families)


def page_of(
    rule_set: RuleSet,
    code_or_name: str,
    shipped: Callable[[RuleSet], RuleSet] = shipped_rules,
) -> tuple[ResolvedRule, RuleSet]:
    """The rule in force that `code_or_name` names and the rules its examples run with;
    `UnknownRuleError` when none is. `shipped` gives the core rules alone (a server keeps
    them rather than reading them at every call)."""
    found = rule_in_force(rule_set, code_or_name)
    # Examples of a shipped rule run with the shipped rules only, so its page is the one in
    # docs/rules; a user or project rule's examples run with the rules in force here.
    examples_with = shipped(rule_set) if found.origin.root is RootKind.CORE else rule_set
    return found, examples_with


def full_rule_page(
    rule_set: RuleSet,
    code_or_name: str,
    shipped: Callable[[RuleSet], RuleSet] = shipped_rules,
) -> dict[str, Any]:
    """The inwards/rule@1 document with every section (`inwards rule RULE --json --full`)."""
    return rule_page_document(*page_of(rule_set, code_or_name, shipped), full=True)
