"""A rule named the way a user types it: its code or name in any letter case, or the closest
code or name when none matches (`inwards rule`, `inwards rules explain` and `shadow`,
`inwards mcp`)."""

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


# Letters typed for the digits they look like, in a code's number (`INW01l`, `INW0O5`).
_DIGIT_LOOKALIKES = str.maketrans({"L": "1", "I": "1", "O": "0"})


def did_you_mean(rule_set: RuleSet, code_or_name: str) -> str:
    """` Did you mean "INW011"?` naming the closest code (else name) of a rule, or "" when
    none is close. Among codes equally close the lowest wins, so the answer does not change
    when a family adds a higher code."""
    wanted = code_or_name.strip()
    names = [chain[0].name for chain in rule_set.chains.values()]
    typed = wanted.upper()
    typed = typed[:-3] + typed[-3:].translate(_DIGIT_LOOKALIKES)
    close = _closest(typed, sorted(rule_set.chains))
    close = close or next(iter(difflib.get_close_matches(wanted.lower(), names, n=1)), None)
    return f' Did you mean "{close}"?' if close else ""


def _closest(typed: str, codes: list[str]) -> str | None:
    """The code most like `typed` (difflib's ratio, at least 0.6 as `get_close_matches`
    asks), the first of `codes` on a tie."""
    best, best_ratio = None, 0.6
    matcher = difflib.SequenceMatcher(b=typed)
    for code in codes:
        matcher.set_seq1(code)
        ratio = matcher.ratio()
        if ratio > best_ratio or (best is None and ratio >= best_ratio):
            best, best_ratio = code, ratio
    return best


class UnknownRuleError(LookupError):
    """A rule named that no root defines in a usable way; its message says what the name is
    instead (a check kind, a user rule the policy leaves out) or the closest rule."""


def rule_in_force(rule_set: RuleSet, code_or_name: str) -> ResolvedRule:
    """The rule in force that `code_or_name` names; `UnknownRuleError` when none is."""
    found = find_rule(rule_set, code_or_name)
    if found is None or found.rule is None:
        raise UnknownRuleError(unknown_rule_message(rule_set, code_or_name))
    return found.rule


def rule_chain(rule_set: RuleSet, code_or_name: str) -> tuple[str, tuple[RuleDefinition, ...]]:
    """The code and the definitions, highest root first, of the rule `code_or_name` names;
    `UnknownRuleError` naming the closest rule when no root defines it."""
    found = find_rule(rule_set, code_or_name)
    if found is None:
        hint = did_you_mean(rule_set, code_or_name)
        raise UnknownRuleError(f'"{code_or_name}" is not the code or name of any rule.{hint}')
    return found.code, found.chain


def unknown_rule_message(rule_set: RuleSet, code_or_name: str) -> str:
    """Why `code_or_name` names no rule in force: it is a check kind's id, a rule of the
    user root that the user-rules policy leaves out, or a typo (the closest rule named)."""
    text = code_or_name.strip()
    kinds = {kind.id for family in rule_set.families for kind in family.kinds}
    if text.lower() in kinds:
        return (
            f'"{text}" is a check kind, not a rule: a rule is a definition that names it. '
            f"Write one with `inwards rules new CODE --kind {text.lower()} --to project`; "
            f"the kind's page is docs/kinds/{text.lower()}.md."
        )
    ignored = next(
        (d for d in rule_set.ignored if text.upper() == d.code or text.lower() == d.name),
        None,
    )
    if ignored is not None:
        return (
            f"{ignored.code} is defined only in the user root ({ignored.origin.path}), "
            "which this project's user-rules policy leaves out."
        )
    return f'"{text}" is not the code or name of any rule.{did_you_mean(rule_set, text)}'
