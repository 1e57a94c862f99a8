"""Applying a baseline: the findings it accepts leave the report's findings."""

from __future__ import annotations

import attrs

from inwards_core.baseline import Baseline, entry_key, finding_key
from inwards_core.model.findings import BaselineEntry, Finding, Report, Severity


def apply_baseline(report: Report, baseline: Baseline, *, file: str) -> Report:
    """Move the findings `baseline` accepts from `findings` to `baselined`: per key, the
    first `count` error findings in report order (a second copy of an accepted import is
    one too many, and stays a finding). On a whole-project run, entries that matched fewer
    findings than they accept go to `baseline_resolved`, each with the number no longer
    found as its count; a run over named paths can't tell a fixed finding from one in a
    file it did not read, so it resolves nothing. `file` names the baseline in reports;
    `baselined_by` keeps the entry that accepted each finding (`check --explain`)."""
    remaining = {entry_key(entry): entry.count for entry in baseline.entries}
    entries = {entry_key(entry): entry for entry in baseline.entries}
    kept: list[Finding] = []
    accepted: list[Finding] = []
    accepted_by: list[BaselineEntry] = []
    for finding in report.findings:
        if finding.severity is Severity.ERROR:
            key = finding_key(finding)
            if remaining.get(key, 0) > 0:
                remaining[key] -= 1
                accepted.append(finding)
                accepted_by.append(entries[key])
                continue
        kept.append(finding)
    resolved: tuple[BaselineEntry, ...] = ()
    if report.whole_project:
        resolved = tuple(
            attrs.evolve(entry, count=remaining[entry_key(entry)])
            for entry in sorted(baseline.entries, key=entry_key)
            if remaining[entry_key(entry)] > 0
        )
    return attrs.evolve(
        report,
        findings=tuple(kept),
        baselined=tuple(accepted),
        baselined_by=tuple(accepted_by),
        baseline_resolved=resolved,
        baseline_file=file,
    )
