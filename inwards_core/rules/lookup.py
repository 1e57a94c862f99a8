"""A rule named the way a user types it: its code or name in any letter case, or the closest
code or name when none matches (`inwards rule`, `inwards rules explain` and `shadow`)."""

from __future__ import annotations

import difflib

import attrs

from inwards_core.rules.definitions import RuleDefinition
from inwards_core.rules.rule_set import ResolvedRule, RuleSet


@attrs.frozen
class FoundRule:
    code: str
    # Every usable definition of the code, highest root first.
    chain: tuple[RuleDefinition, ...]
    # The rule in force; None when no definition of it is (a new rule in the user root
    # under user-rules = "guidance-only", which may only lend guidance).
    rule: ResolvedRule | None


def find_rule(rule_set: RuleSet, code_or_name: str) -> FoundRule | None:
    """The rule whose code, or name, `code_or_name` is (a shadow keeps both)."""
    wanted = code_or_name.strip()
    code = wanted.upper()
    if code not in rule_set.chains:
        name = wanted.lower()
        named = (c for c, chain in rule_set.chains.items() if chain[0].name == name)
        found = next(named, None)
        if found is None:
            return None
        code = found
    return FoundRule(code, rule_set.chains[code], rule_set.by_code(code))


def did_you_mean(rule_set: RuleSet, code_or_name: str) -> str:
    """` Did you mean "INW011"?` naming the closest code (else name) of a rule, or "" when
    none is close."""
    wanted = code_or_name.strip()
    codes = list(rule_set.chains)
    names = [chain[0].name for chain in rule_set.chains.values()]
    close = difflib.get_close_matches(wanted.upper(), codes, n=1)
    close = close or difflib.get_close_matches(wanted.lower(), names, n=1)
    return f' Did you mean "{close[0]}"?' if close else ""
