"""Which findings are new since the agent's session started, which suppressions count, and
how often the same finding has blocked: pure functions over findings and log entries.

A finding is known by its fingerprint: a hash of what it is without where it is (rule code,
file, module and the stable form of its message, as SARIF's partial fingerprint), so moving
an import to another line keeps it the same finding and a second copy of it is one more.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from inwards_core.model.findings import Finding, Report, Severity, SuppressedFinding
from inwards_core.reporting.sarif_content import finding_identity

Counts = Mapping[str, Mapping[str, int]]
"""file -> fingerprint -> how many such findings (or suppressed findings) it had."""


def fingerprint(finding: Finding) -> str:
    return hashlib.sha256(finding_identity(finding).encode("utf-8", "surrogatepass")).hexdigest()[
        :16
    ]


def counts_by_file(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    counts: dict[str, Counter[str]] = {}
    for finding in findings:
        counts.setdefault(finding.file, Counter())[fingerprint(finding)] += 1
    return {file: dict(sorted(found.items())) for file, found in sorted(counts.items())}


def beyond(findings: Sequence[Finding], start: Counts) -> list[Finding]:
    """The findings (in report order) that are more of a kind than their file had at the
    start: the later ones of a fingerprint count as the new ones."""
    seen: Counter[tuple[str, str]] = Counter()
    new: list[Finding] = []
    for finding in findings:
        key = (finding.file, fingerprint(finding))
        seen[key] += 1
        if seen[key] > start.get(finding.file, {}).get(key[1], 0):
            new.append(finding)
    return new


def judge_suppressions(
    suppressed: Sequence[SuppressedFinding], start: Counts, *, policy: str
) -> tuple[list[SuppressedFinding], list[SuppressedFinding]]:
    """The suppressions that count and those that don't. With `agent-suppressions =
    "deny"` a suppression counts only when its file had as many findings of that kind
    suppressed at the start: one the agent added, copied or widened doesn't."""
    if policy == "allow":
        return list(suppressed), []
    kept: list[SuppressedFinding] = []
    rejected: list[SuppressedFinding] = []
    seen: Counter[tuple[str, str]] = Counter()
    for item in suppressed:
        key = (item.finding.file, fingerprint(item.finding))
        seen[key] += 1
        allowed = start.get(key[0], {}).get(key[1], 0)
        (kept if seen[key] <= allowed else rejected).append(item)
    return kept, rejected


def with_rejected(report: Report, rejected: Sequence[SuppressedFinding]) -> list[Finding]:
    """The report's findings with those whose suppression doesn't count, in report order."""
    findings = [*report.findings, *(item.finding for item in rejected)]
    return sorted(findings, key=Finding.sort_key)


def errors(findings: Iterable[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.severity is Severity.ERROR]


# -- counting blocks in the session log ---------------------------------------------------


def _distinct(entries: Iterable[Mapping[str, Any]], event: str) -> Iterable[Mapping[str, Any]]:
    """The log's entries of `event`, one per tool call (a payload delivered twice counts
    once)."""
    seen: set[str] = set()
    for entry in entries:
        if entry.get("event") != event:
            continue
        tool_use = entry.get("toolUseId")
        if isinstance(tool_use, str) and tool_use:
            if tool_use in seen:
                continue
            seen.add(tool_use)
        yield entry


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def blocks_so_far(entries: Iterable[Mapping[str, Any]], event: str) -> Counter[str]:
    """How many times each fingerprint blocked (`new` and not `escalated`) in `event`
    entries since it last escalated: escalation starts the count again."""
    counts: Counter[str] = Counter()
    for entry in _distinct(entries, event):
        escalated = set(_strings(entry.get("escalated")))
        for value in escalated:
            counts[value] = 0
        for value in _strings(entry.get("new")):
            if value not in escalated:
                counts[value] += 1
    return counts


def stop_blocks_this_turn(entries: Iterable[Mapping[str, Any]]) -> int:
    """How many times the Stop gate blocked since the turn began (the last Stop that was
    not a continuation it caused: `stop_hook_active` false)."""
    blocked = 0
    for entry in entries:
        if entry.get("event") != "Stop":
            continue
        if entry.get("stopHookActive") is not True:
            blocked = 0
        if entry.get("blocked") is True:
            blocked += 1
    return blocked
