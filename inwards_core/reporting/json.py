"""The `json` format: the versioned `inwards/diagnostics@1` document.

Fields are only ever added within a version. Suppressed findings, and findings the
baseline accepted, are counted, not listed.
"""

from __future__ import annotations

import json
from typing import Any

from inwards_core.model.diagnostics import SCHEMA, diagnostic, diagnostics_document
from inwards_core.model.findings import Report
from inwards_core.reporting import DisplayPath, limit, same_path

__all__ = ["SCHEMA", "diagnostic", "render_json", "report_document"]


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
    if pretty:
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"
