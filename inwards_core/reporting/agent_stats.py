"""`inwards stats`: what the session logs the coding-agent hooks keep (one JSON object a
hook run, `inwards_cli.agents`) say about recent agent sessions.

- **Violations fixed within one retry**: of the violations a PostToolUse check blocked,
  how many were gone at the next edit of the same file (those never edited again count
  apart, as not retried);
- **violations per 1,000 lines added**: the distinct violations new in a session's edits,
  against the lines its edits added;
- **hook latency**: p50 and p95 of every hook run, and per event (measured inside the run,
  from reading the payload to the reply: the interpreter's start is not in it);
- **suppressions rejected**: `# inwards: ignore[...]` comments the agent added that
  `agent-suppressions = "deny"` did not count;
- **rules that fired most**: the rules of the violations new in sessions, with the root
  each rule's definition comes from.

Pure over the log entries; the same logs give the same document (`inwards/stats@1`, whose
schema is `agent_stats_schema.py`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

SCHEMA = "inwards/stats@1"
TOP_RULES = 10
EVENTS = ("SessionStart", "PreToolUse", "PostToolUse", "Stop")

Entry = Mapping[str, Any]


def stats_document(sessions: Mapping[str, Sequence[Entry]]) -> dict[str, Any]:
    """The `inwards/stats@1` document of the sessions' logs (session stem -> entries)."""
    fixed = reported = no_retry = 0
    violations = lines = rejected = 0
    latencies: dict[str, list[float]] = {}
    rules: Counter[tuple[str, str]] = Counter()
    runs = 0
    for stem in sorted(sessions):
        entries = _distinct(sessions[stem])
        runs += len(entries)
        outcome = _retries(entries)
        reported += outcome[0]
        fixed += outcome[1]
        no_retry += outcome[2]
        edits = [e for e in entries if e.get("event") == "PostToolUse"]
        new: dict[str, tuple[str, str]] = {}
        for entry in [*edits, *(e for e in entries if e.get("event") == "Stop")]:
            for value, rule in _rules(entry).items():
                new.setdefault(value, rule)
        violations += len({v for e in edits for v in _strings(e.get("new"))})
        rules.update(new.values())
        lines += sum(_count(e.get("linesAdded")) for e in edits)
        rejected += sum(_count(e.get("rejected")) for e in edits)
        for entry in entries:
            latency = entry.get("latencyMs")
            if isinstance(latency, int | float) and not isinstance(latency, bool):
                latencies.setdefault(str(entry.get("event")), []).append(float(latency))
    retried = reported - no_retry
    every = sorted(value for values in latencies.values() for value in values)
    return {
        "schema": SCHEMA,
        "sessions": len(sessions),
        "hookRuns": runs,
        "fixedWithinOneRetry": {
            "reported": reported,
            "fixed": fixed,
            "noRetry": no_retry,
            "rate": round(fixed / retried, 4) if retried else None,
        },
        "violationsPer1000Lines": {
            "violations": violations,
            "linesAdded": lines,
            "rate": round(violations * 1000 / lines, 2) if lines else None,
        },
        "hookLatencyMs": {
            **_percentiles(every),
            "byEvent": {
                event: _percentiles(sorted(latencies[event]))
                for event in sorted(latencies, key=_event_order)
            },
        },
        "rejectedSuppressions": rejected,
        "topRules": [
            {"code": code, "origin": origin, "violations": count}
            for (code, origin), count in sorted(rules.items(), key=lambda i: (-i[1], i[0]))[
                :TOP_RULES
            ]
        ],
    }


def render(document: Mapping[str, Any], where: str) -> str:
    """The document as text for people."""
    fixed = document["fixedWithinOneRetry"]
    per = document["violationsPer1000Lines"]
    latency = document["hookLatencyMs"]
    lines = [
        f"inwards stats: {_plural(document['sessions'], 'session')}, "
        f"{_plural(document['hookRuns'], 'hook run')} (from {where})."
    ]
    if fixed["rate"] is None:
        lines.append("Violations fixed within one retry: none was retried yet.")
    else:
        retried = fixed["reported"] - fixed["noRetry"]
        lines.append(
            f"Violations fixed within one retry: {fixed['fixed']} of {retried} "
            f"({fixed['rate']:.0%})"
            + (f"; {fixed['noRetry']} never retried." if fixed["noRetry"] else ".")
        )
    if per["rate"] is None:
        lines.append("Violations per 1,000 lines added: no lines added yet.")
    else:
        lines.append(
            f"Violations per 1,000 lines added: {per['rate']:.1f} "
            f"({_plural(per['violations'], 'violation')} in {per['linesAdded']:,} lines)."
        )
    if latency["runs"]:
        by_event = ", ".join(
            f"{event} {values['p50']:.1f}/{values['p95']:.1f}"
            for event, values in latency["byEvent"].items()
        )
        lines.append(
            f"Hook latency: p50 {latency['p50']:.1f} ms, p95 {latency['p95']:.1f} ms over "
            f"{_plural(latency['runs'], 'run')} (p50/p95 by event: {by_event})."
        )
    lines.append(f"Suppressions rejected: {document['rejectedSuppressions']}.")
    if document["topRules"]:
        lines.append("Rules that fired most:")
        names = [f"{rule['code']} ({rule['origin']})" for rule in document["topRules"]]
        width = max(len(name) for name in names)
        lines += [
            f"  {name:<{width}}  {rule['violations']}"
            for name, rule in zip(names, document["topRules"], strict=True)
        ]
    return "\n".join(lines) + "\n"


def _distinct(entries: Iterable[Entry]) -> list[Entry]:
    """One entry per event and tool call (a payload delivered twice counts once)."""
    seen: set[tuple[str, str]] = set()
    kept: list[Entry] = []
    for entry in entries:
        tool_use = entry.get("toolUseId")
        if isinstance(tool_use, str) and tool_use:
            key = (str(entry.get("event")), tool_use)
            if key in seen:
                continue
            seen.add(key)
        kept.append(entry)
    return kept


def _retries(entries: Sequence[Entry]) -> tuple[int, int, int]:
    """(reported, fixed at the next edit of the file, never retried) over the violations
    PostToolUse blocked, each counted at its first block."""
    edits = [
        e for e in entries if e.get("event") == "PostToolUse" and isinstance(e.get("file"), str)
    ]
    reported = fixed = no_retry = 0
    counted: set[tuple[str, str]] = set()
    for position, entry in enumerate(edits):
        if entry.get("blocked") is not True:
            continue
        escalated = set(_strings(entry.get("escalated")))
        file = entry["file"]
        following = next((e for e in edits[position + 1 :] if e["file"] == file), None)
        for value in _strings(entry.get("new")):
            if value in escalated or (file, value) in counted:
                continue
            counted.add((file, value))
            reported += 1
            if following is None:
                no_retry += 1
            elif value not in _strings(following.get("fingerprints")):
                fixed += 1
    return reported, fixed, no_retry


def _rules(entry: Entry) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    rules = entry.get("rules")
    if not isinstance(rules, dict):
        return found
    for value, rule in rules.items():
        if isinstance(rule, dict) and isinstance(rule.get("code"), str):
            found[value] = (rule["code"], str(rule.get("origin", "core")))
    return found


def _percentiles(values: Sequence[float]) -> dict[str, Any]:
    """Nearest-rank p50 and p95 of sorted `values`."""
    if not values:
        return {"runs": 0, "p50": None, "p95": None}

    def rank(share: float) -> float:
        return round(values[max(0, math.ceil(share * len(values)) - 1)], 1)

    return {"runs": len(values), "p50": rank(0.5), "p95": rank(0.95)}


def _event_order(event: str) -> tuple[int, str]:
    return (EVENTS.index(event) if event in EVENTS else len(EVENTS), event)


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
