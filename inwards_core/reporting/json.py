"""The `json` format: the versioned `inwards/diagnostics@1` document.

Fields are only ever added within a version. Suppressed findings, and findings the
baseline accepted, are counted, not listed.
"""

from __future__ import annotations

import json
from typing import Any

from inwards_core.model.diagnostics import SCHEMA, diagnostic, diagnostics_document
from inwards_core.model.findings import Report
from inwards_core.reporting import DisplayPath, ReportInput, limit, same_path
from inwards_core.reporting.merge import parts_document

__all__ = ["SCHEMA", "diagnostic", "render_json", "report_document", "write_json"]


def report_document(
    report: Report,
    *,
    display: DisplayPath = same_path,
    max_diagnostics: int | None = None,
    extra_summary: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The document `render_json` writes (`Report.to_json()` without a limit)."""
    shown = limit(report, max_diagnostics)
    return diagnostics_document(
        report,
        display=display,
        shown=shown.findings,
        omitted=None if max_diagnostics is None else shown.omitted,
        extra_summary=extra_summary,
    )


def render_json(
    report: Report,
    *,
    display: DisplayPath = same_path,
    max_diagnostics: int | None = None,
    pretty: bool = False,
) -> str:
    document = report_document(report, display=display, max_diagnostics=max_diagnostics)
    return _dumped(document, pretty=pretty)


def write_json(subject: ReportInput) -> str:
    """The `json` format (a `Reporter`): a workspace's document also has `configs` (before
    `diagnostics`) and its summary the baselines' counts; `--explain` adds `explanation`."""
    extra = None if subject.merged is None else parts_document(subject.merged, subject.display)
    document = report_document(
        subject.report,
        display=subject.display,
        max_diagnostics=subject.max_diagnostics,
        extra_summary=None if extra is None else extra["summary"],
    )
    if extra is not None:
        diagnostics = document.pop("diagnostics")
        document["configs"] = extra["configs"]
        document["diagnostics"] = diagnostics
    if subject.explanation_document is not None:
        document["explanation"] = subject.explanation_document
    return _dumped(document, pretty=subject.pretty)


def _dumped(document: dict[str, Any], *, pretty: bool) -> str:
    if pretty:
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"
