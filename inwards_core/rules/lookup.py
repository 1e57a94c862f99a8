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
