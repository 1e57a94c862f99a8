"""The `json` format: the versioned `inwards/diagnostics@1` document.

Fields are only ever added within a version. Suppressed findings, and findings the
baseline accepted, are counted, not listed.
"""

from __future__ import annotations

import json
from typing import Any

from inwards_core.model.findings import Finding, Report
from inwards_core.reporting import DisplayPath, limit, same_path

SCHEMA = "inwards/diagnostics@1"


def diagnostic(finding: Finding, display: DisplayPath) -> dict[str, Any]:
    span = finding.span
    return {
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


def report_document(
    report: Report,
    *,
    display: DisplayPath = same_path,
    max_diagnostics: int | None = None,
    extra_summary: dict[str, Any] | None = None,
) -> dict[str, Any]:
    shown = limit(report, max_diagnostics)
    summary: dict[str, Any] = {
        "filesChecked": report.files_checked,
        "violations": len(report.errors),
        "warnings": len(report.warnings),
        "durationMs": report.duration_ms,
    }
    if report.suppressed:
        summary["suppressed"] = len(report.suppressed)
    if max_diagnostics is not None:
        summary["omitted"] = shown.omitted
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
    document["diagnostics"] = [diagnostic(f, display) for f in shown.findings]
    return document


def render_json(
    report: Report,
    *,
    display: DisplayPath = same_path,
    max_diagnostics: int | None = None,
    pretty: bool = False,
) -> str:
    document = report_document(report, display=display, max_diagnostics=max_diagnostics)
    if pretty:
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"
