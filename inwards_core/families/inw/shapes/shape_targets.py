"""Where a member that its package's shape refuses most likely belongs: the "did you mean" of
package-shape (INW007).

The candidates are the members the shape names literally (`allow` and `require` entries
without wildcards), or, when the shape allows anything, the package's other members. The
first of these tests that finds one wins, each a stronger sign than the next:

1. the shape's own `hints` (member name -> the name the team uses);
2. the same word in the singular or the plural (`services` -> `service`);
3. a name teams use for the same role (`helpers` -> `utils`, `test_orders` -> `tests`);
4. the candidate ends the member's name (`order_service` -> `service`);
5. a close spelling: at most 1 edit for names of 3 to 5 characters, 2 from 6 on, none for
   shorter ones (where one edit turns any name into another).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_core import edit_distance
from inwards_core.families.inw.shapes.shape_rules import is_literal, split_pattern

if TYPE_CHECKING:
    from inwards_core import PackageMember

# Names that teams give to the same role, one group per role. Small on purpose: a wrong
# suggestion costs more than none, so only names that are near-universal stand-ins for one
# another are here (the singular and plural of a name are found without the table).
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    # The grab bag of small functions.
    ("utils", "util", "utilities", "helpers", "helper", "common", "misc", "tools"),
    # Application services and use cases.
    ("service", "use_cases", "usecases", "interactors"),
    # Persistence behind an interface.
    ("repositories", "repos", "repo", "dao", "stores"),
    # Data shapes at the edge of the application.
    ("schemas", "serializers", "dto", "dtos"),
    # HTTP entry points.
    ("routes", "routers", "router", "views", "endpoints", "controllers"),
    # Domain objects.
    ("models", "entities", "entity"),
    # Settings.
    ("config", "conf", "settings", "configuration"),
    ("exceptions", "errors"),
    ("constants", "consts"),
    ("tests", "test", "testing"),
)
_GROUP_OF = {name: index for index, group in enumerate(SYNONYM_GROUPS) for name in group}
# Test modules written beside the code belong in the package of tests.
_TEST_MODULES = ("test_*", "*_test", "*_tests", "tests_*")
_TESTS_GROUP = _GROUP_OF["tests"]


@attrs.frozen
class Target:
    """A likely home for a member: `shown` as a member pattern writes it (`utils.py`,
    `ports/`), and why it was chosen, as a phrase for the fix."""

    shown: str
    reason: str


@attrs.frozen
class _Candidate:
    stem: str
    is_package: bool | None  # None: a module or a subpackage
    written: str


def likely_target(
    member: PackageMember, candidates: Sequence[str], hints: Mapping[str, str]
) -> Target | None:
    """The likeliest of `candidates` (member patterns) for `member`, or the shape's hint."""
    hinted = _hint(member, hints)
    if hinted is not None:
        return Target(_shown(hinted, member), "the name its shape's `hints` give")
    stem = member.name.lower()
    pool = [_candidate(pattern) for pattern in candidates if is_literal(pattern)]
    pool = [c for c in pool if c.stem and c.stem != stem]
    tests = (
        (_plural_of, "the same word, singular or plural"),
        (_synonym_of, "a name teams use for the same role"),
        (_ends, "the same ending"),
    )
    # Test code goes with the tests, never into the module it tests (`test_order`).
    is_test = _is_test_module(stem)
    for test, reason in tests[1:2] if is_test else tests:
        found = next((c for c in pool if test(stem, c.stem.lower())), None)
        if found is not None:
            return Target(_shown(found.written, member), reason)
    close = None if is_test else _closest(stem, pool)
    if close is not None:
        return Target(_shown(close.written, member), "a close spelling")
    return None


def _hint(member: PackageMember, hints: Mapping[str, str]) -> str | None:
    for key in (member.name, member.shown, member.name + ("/" if member.is_package else ".py")):
        if key in hints:
            return hints[key]
    return None


def _candidate(pattern: str) -> _Candidate:
    stem, is_package = split_pattern(pattern)
    return _Candidate(stem, is_package, pattern)


def _shown(written: str, member: PackageMember) -> str:
    """A target as the fix names it: as written when it says its kind, else in the
    member's own form (`utils` for a module is `utils.py`)."""
    stem, is_package = split_pattern(written)
    if is_package is not None:
        return written
    return stem + ("/" if member.is_package else ".py")


def _plural_of(stem: str, other: str) -> bool:
    return other in _number_forms(stem) or stem in _number_forms(other)


def _number_forms(word: str) -> tuple[str, ...]:
    if word.endswith("y") and len(word) > 2:
        return (word + "s", word[:-1] + "ies")
    return (word + "s", word + "es")


def _synonym_of(stem: str, other: str) -> bool:
    group = _GROUP_OF.get(stem)
    if group is None and _is_test_module(stem):
        group = _TESTS_GROUP
    if group is None:
        return False
    return _GROUP_OF.get(other) == group or any(
        _GROUP_OF.get(form) == group for form in _number_forms(other)
    )


def _is_test_module(stem: str) -> bool:
    return any(fnmatch.fnmatchcase(stem, test) for test in _TEST_MODULES)


def _ends(stem: str, other: str) -> bool:
    return any(stem.endswith("_" + form) for form in (other, *_number_forms(other)))


def _closest(stem: str, pool: Sequence[_Candidate]) -> _Candidate | None:
    if len(stem) < 3:
        return None
    limit = 2 if len(stem) >= 6 else 1
    scored = [
        (distance, candidate.stem, candidate)
        for candidate in pool
        if (distance := edit_distance(stem, candidate.stem.lower(), limit)) <= limit
    ]
    return min(scored, key=lambda item: item[:2])[2] if scored else None
