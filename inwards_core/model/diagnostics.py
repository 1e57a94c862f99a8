"""The `inwards/diagnostics@1` document as Python values: what `Report.to_json()` and
`Finding.to_json()` return, and what the `json` format (`reporting/json.py`) serialises.

It lives beside the values it describes, so a report can give its own JSON; its schema is
`reporting/diagnostics_schema.py` (`schemas/diagnostics.schema.json`). Fields are only ever
added within a version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inwards_core.model.findings import Finding, Report

SCHEMA = "inwards/diagnostics@1"

DisplayPath = Callable[[str], str]


def same_path(path: str) -> str:
    return path


def diagnostic(finding: Finding, display: DisplayPath = same_path) -> dict[str, Any]:
    """One finding as an element of the document's `diagnostics`."""
    span = finding.span
    found: dict[str, Any] = {
        "code": finding.code,
        "rule": finding.rule,
        "severity": finding.severity.value,
        "origin": finding.origin.value,
        "file": display(finding.file),
        "module": finding.module,
        "line": span.line,
        "column": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
        "message": finding.message,
        "fix": {"summary": finding.fix.summary, "steps": list(finding.fix.steps)},
        "docs": finding.docs,
    }
    if finding.chain:
        found["chain"] = [
            {
                "module": step.importer,
                "imports": step.imported,
                "file": display(step.file),
                "line": step.span.line,
                "column": step.span.column,
                "endLine": step.span.end_line,
                "endColumn": step.span.end_column,
            }
            for step in finding.chain
        ]
    return found


def diagnostics_document(
    report: Report,
    *,
    display: DisplayPath = same_path,
    shown: Sequence[Finding] | None = None,
    omitted: int | None = None,
    extra_summary: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole document. `shown` are the findings to list (all by default) and `omitted`
    how many `--max-diagnostics` left out (the summary says so only when it is given)."""
    summary: dict[str, Any] = {
        "filesChecked": report.files_checked,
        "violations": len(report.errors),
        "warnings": len(report.warnings),
        "durationMs": report.duration_ms,
    }
    if report.suppressed:
        summary["suppressed"] = len(report.suppressed)
    if omitted is not None:
        summary["omitted"] = omitted
    # Only when a baseline was read ("0 accepted" and "no baseline" differ); what it no
    # longer needs to accept only when the whole project was checked.
    if report.baseline_file is not None:
        summary["baselined"] = len(report.baselined)
        if report.whole_project:
            summary["resolved"] = sum(entry.count for entry in report.baseline_resolved)
    summary.update(extra_summary or {})
    document: dict[str, Any] = {"schema": SCHEMA, "summary": summary}
    if report.not_checked:
        document["notChecked"] = [
            {"path": display(item.path), "message": item.message} for item in report.not_checked
        ]
    if report.notes:
        document["notes"] = list(report.notes)
    if report.baseline_file is not None:
        document["baselineFile"] = display(report.baseline_file)
        if report.whole_project:
            document["baselineResolved"] = [
                {"code": e.code, "module": e.module, "message": e.message, "count": e.count}
                for e in report.baseline_resolved
            ]
    if report.rule_set_fingerprint:
        document["ruleSet"] = {
            "fingerprint": report.rule_set_fingerprint,
            "userDefinitions": [
                {"code": item.code, "effect": item.effect, "path": item.path}
                for item in report.user_definitions
            ],
        }
        if report.overlays:
            document["ruleSet"]["overlays"] = [
                {
                    "code": item.code,
                    "chain": [o.data() for o in item.chain],
                    "conflicts": item.conflicts,
                }
                for item in report.overlays
            ]
    findings = report.findings if shown is None else shown
    document["diagnostics"] = [diagnostic(f, display) for f in findings]
    return document
