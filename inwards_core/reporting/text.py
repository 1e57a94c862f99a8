"""The `text` and `concise` formats."""

from __future__ import annotations

from inwards_core.model import Finding, Report, RootKind, Severity
from inwards_core.reporting import DisplayPath, Shown, limit, plural, same_path


def _head(finding: Finding, display: DisplayPath) -> str:
    level = " (warning)" if finding.severity is Severity.WARNING else ""
    origin = "" if finding.origin is RootKind.CORE else f" [{finding.origin.value} rule]"
    span = finding.span
    return f"{display(finding.file)}:{span.line}:{span.column}: {finding.code}{level}{origin} {finding.message}"


def summary_line(report: Report) -> str:
    errors = len(report.errors)
    warnings = len(report.warnings)
    files = plural(report.files_checked, "file")
    took = f"({report.duration_ms:.1f} ms)"
    if report.nothing_checked:
        return f"Nothing checked: 0 files {took}."
    if errors:
        return (
            f"Found {plural(errors, 'error')} and {plural(warnings, 'warning')} in {files} {took}."
        )
    if warnings:
        return f"No errors, {plural(warnings, 'warning')} in {files} {took}."
    return f"All clear: no problems in {files} {took}."


def trailer(report: Report, shown: Shown) -> list[str]:
    lines: list[str] = []
    if shown.omitted:
        lines.append(
            f"Not shown: {plural(shown.omitted_errors, 'error')}, "
            f"{plural(shown.omitted_warnings, 'warning')} (--max-diagnostics)."
        )
    if report.suppressed:
        lines.append(f"{plural(len(report.suppressed), 'finding')} hidden by inline suppressions.")
    for item in report.not_checked:
        lines.append(f"warning: {item.message}")
    for note in report.notes:
        lines.append(f"note: {note}")
    if report.user_definitions:
        lines.append(
            "User rule definitions in effect (not part of the project; --isolated leaves them out):"
        )
        lines.extend(
            f"  {item.code} ({item.effect}): {item.path}" for item in report.user_definitions
        )
    return lines


def render_text(
    report: Report, *, display: DisplayPath = same_path, max_diagnostics: int | None = None
) -> str:
    shown = limit(report, max_diagnostics)
    out: list[str] = []
    for finding in shown.findings:
        out.append(_head(finding, display))
        out.append(f"  fix: {finding.fix.summary}")
        out.extend(f"    {number}. {step}" for number, step in enumerate(finding.fix.steps, 1))
        if finding.docs:
            out.append(f"  docs: {finding.docs}")
        out.append("")
    out.append(summary_line(report))
    extra = trailer(report, shown)
    if extra:
        out.append("")
        out.extend(extra)
    return "\n".join(out) + "\n"


def render_concise(
    report: Report, *, display: DisplayPath = same_path, max_diagnostics: int | None = None
) -> str:
    shown = limit(report, max_diagnostics)
    out: list[str] = []
    for finding in shown.findings:
        first = finding.fix.steps[0] if finding.fix.steps else finding.fix.summary
        out.append(f"{_head(finding, display)} fix: {first}")
    out.append(summary_line(report))
    out.extend(trailer(report, shown))
    return "\n".join(out) + "\n"
