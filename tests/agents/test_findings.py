"""New findings against the start, suppressions the agent added, and counting blocks."""

from __future__ import annotations

from inwards_cli.agents.findings import (
    beyond,
    blocks_so_far,
    counts_by_file,
    fingerprint,
    judge_suppressions,
    stop_blocks_this_turn,
)
from inwards_core.model.findings import Finding, Fix, Severity, Span, SuppressedFinding


def _finding(line: int, imported: str = "shop.adapters.db", file: str = "src/a.py") -> Finding:
    return Finding(
        code="INW001",
        rule="layer-dependency",
        severity=Severity.ERROR,
        file=file,
        module="shop.domain.a",
        span=Span(line, 1, line, 10),
        message=f'Layer "domain" imports "{imported}".',
        fix=Fix("Invert it."),
        docs="",
    )


def test_a_finding_keeps_its_fingerprint_on_another_line() -> None:
    assert fingerprint(_finding(3)) == fingerprint(_finding(30))
    assert fingerprint(_finding(3)) != fingerprint(_finding(3, "shop.adapters.web"))
    assert fingerprint(_finding(3)) != fingerprint(_finding(3, file="src/b.py"))
    assert len(fingerprint(_finding(3))) == 16


def test_only_more_of_a_kind_than_at_the_start_is_new() -> None:
    start = counts_by_file([_finding(3)])
    assert beyond([_finding(9)], start) == []  # moved
    second = _finding(12)
    assert beyond([_finding(9), second], start) == [second]  # a second copy
    other = _finding(4, "shop.adapters.web")
    assert beyond([other], start) == [other]
    assert beyond([_finding(3)], {}) == [_finding(3)]


def test_suppressions_count_only_as_at_the_start_unless_allowed() -> None:
    kept = SuppressedFinding(_finding(3), "legacy")
    added = SuppressedFinding(_finding(8), "mine")
    start = counts_by_file([_finding(3)])
    assert judge_suppressions([kept, added], start, policy="deny") == ([kept], [added])
    assert judge_suppressions([kept, added], start, policy="allow") == ([kept, added], [])
    assert judge_suppressions([added], {}, policy="deny") == ([], [added])


def test_blocks_are_counted_per_finding_and_escalation_starts_again() -> None:
    entries = [
        {"event": "PostToolUse", "toolUseId": "1", "new": ["a", "b"], "escalated": []},
        {"event": "PostToolUse", "toolUseId": "1", "new": ["a", "b"], "escalated": []},  # again
        {"event": "PostToolUse", "toolUseId": "2", "new": ["a"], "escalated": []},
        {"event": "Stop", "new": ["a"], "blocked": True},
        {"event": "PostToolUse", "toolUseId": "3", "new": ["a", "b"], "escalated": ["a"]},
        {"event": "PostToolUse", "toolUseId": "4", "new": "not a list"},
    ]
    counts = blocks_so_far(entries, "PostToolUse")
    assert (counts["a"], counts["b"], counts["c"]) == (0, 2, 0)


def test_stop_blocks_are_counted_within_the_turn() -> None:
    entries = [
        {"event": "Stop", "stopHookActive": False, "blocked": True},
        {"event": "Stop", "stopHookActive": True, "blocked": True},
        {"event": "PostToolUse", "blocked": True},
        {"event": "Stop", "stopHookActive": False, "blocked": True},  # a new turn
        {"event": "Stop", "stopHookActive": True, "blocked": True},
    ]
    assert stop_blocks_this_turn(entries) == 2
    assert stop_blocks_this_turn([]) == 0
