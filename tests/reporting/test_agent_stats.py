"""`inwards stats` over session logs: the numbers, and the text."""

from __future__ import annotations

from inwards_core.reporting.agent_stats import render, stats_document


def _edit(
    tool: str, file: str, new: list[str], now: list[str], **extra: object
) -> dict[str, object]:
    return {
        "event": "PostToolUse",
        "toolUseId": tool,
        "file": file,
        "new": new,
        "fingerprints": now,
        "blocked": bool(new),
        "linesAdded": 10,
        **extra,
    }


SESSION_A = [
    {"event": "SessionStart", "latencyMs": 300.0},
    _edit(
        "t1",
        "a.py",
        ["f1", "f2"],
        ["f1", "f2"],
        rules={
            "f1": {"code": "INW001", "origin": "core"},
            "f2": {"code": "ACME001", "origin": "org"},
        },
        latencyMs=40.0,
    ),
    _edit("t1", "a.py", ["f1", "f2"], ["f1", "f2"], latencyMs=40.0),  # delivered twice
    _edit("t2", "b.py", [], [], latencyMs=20.0),
    _edit("t3", "a.py", ["f2"], ["f2"], latencyMs=50.0, rejected=1),  # f1 fixed, f2 not
    _edit(
        "t4",
        "c.py",
        ["f3"],
        ["f3"],
        rules={"f3": {"code": "INW001", "origin": "core"}},
        latencyMs=60.0,
    ),
    {
        "event": "Stop",
        "latencyMs": 100.0,
        "blocked": True,
        "rules": {"f3": {"code": "INW001", "origin": "core"}},
    },
]
SESSION_B = [
    _edit("t1", "a.py", ["g1"], ["g1"], escalated=["g1"], blocked=False, latencyMs=30.0),
    {"event": "PreToolUse", "toolUseId": "t9", "latencyMs": 5.0, "linesAdded": 99},
]


def test_the_numbers() -> None:
    document = stats_document({"b": SESSION_B, "a": SESSION_A})
    assert document["schema"] == "inwards/stats@1"
    assert (document["sessions"], document["hookRuns"]) == (2, 8)
    # f1 fixed at the next edit of a.py, f2 not; f3's file never edited again.
    assert document["fixedWithinOneRetry"] == {"reported": 3, "fixed": 1, "noRetry": 1, "rate": 0.5}
    # f1, f2, f3 and g1 were new; 50 lines in five edits (the repeated call counts once).
    assert document["violationsPer1000Lines"] == {"violations": 4, "linesAdded": 50, "rate": 80.0}
    latency = document["hookLatencyMs"]
    assert (latency["runs"], latency["p50"], latency["p95"]) == (8, 40.0, 300.0)
    assert list(latency["byEvent"]) == ["SessionStart", "PreToolUse", "PostToolUse", "Stop"]
    assert latency["byEvent"]["PostToolUse"] == {"runs": 5, "p50": 40.0, "p95": 60.0}
    assert document["rejectedSuppressions"] == 1
    assert document["topRules"] == [
        {"code": "INW001", "origin": "core", "violations": 2},
        {"code": "ACME001", "origin": "org", "violations": 1},
    ]
    assert stats_document({"a": SESSION_A, "b": SESSION_B}) == document


def test_the_text() -> None:
    text = render(stats_document({"a": SESSION_A}), ".inwards/state/")
    assert text.splitlines() == [
        "inwards stats: 1 session, 6 hook runs (from .inwards/state/).",
        "Violations fixed within one retry: 1 of 2 (50%); 1 never retried.",
        "Violations per 1,000 lines added: 75.0 (3 violations in 40 lines).",
        "Hook latency: p50 50.0 ms, p95 300.0 ms over 6 runs (p50/p95 by event: SessionStart "
        "300.0/300.0, PostToolUse 40.0/60.0, Stop 100.0/100.0).",
        "Suppressions rejected: 1.",
        "Rules that fired most:",
        "  INW001 (core)  2",
        "  ACME001 (org)  1",
    ]
    empty = render(stats_document({}), ".inwards/state/")
    assert empty.splitlines() == [
        "inwards stats: 0 sessions, 0 hook runs (from .inwards/state/).",
        "Violations fixed within one retry: none was retried yet.",
        "Violations per 1,000 lines added: no lines added yet.",
        "Suppressions rejected: 0.",
    ]
