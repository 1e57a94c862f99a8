"""The `github` format: GitHub Actions workflow commands, which the runner turns into
annotations on a pull request's changed lines.

One `::error` or `::warning` command per finding, with its file, region and a title; the
message carries the fix and its steps. Values are escaped as the Actions toolkit escapes
them, after project text is made printable (`escaping.printable`): a line break, ESC or bidi
control in a file, module or layer name can neither end a command nor start one, nor act in
the log. Suppressed and baselined findings are not annotated. Paths not checked become
file-less warnings; the summary and the other trailer lines are plain log lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from inwards_core.model.findings import Finding, Report, Severity
from inwards_core.reporting import DisplayPath, ReportInput, limit, same_path
from inwards_core.reporting.escaping import printable, safe_line
from inwards_core.reporting.text import part_lines, summary_line, trailer


def escape_data(text: str) -> str:
    """A command's message: `%`, CR and LF are percent-encoded (`%` first)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property value: as data, and also `:` and `,`, which separate properties."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, properties: dict[str, str], message: str) -> str:
    """One command line. Property values are made printable here; `message` may hold line
    breaks of our own (they become `%0A`), so its parts are made printable by the caller."""
    listed = ",".join(
        f"{key}={escape_property(printable(value))}" for key, value in properties.items()
    )
    return (
        f"::{command} {listed}::{escape_data(message)}"
        if listed
        else (f"::{command}::{escape_data(message)}")
    )


def annotation_message(finding: Finding) -> str:
    lines = [finding.message]
    if finding.fix.summary:
        lines.append(f"Fix: {finding.fix.summary}")
    lines += [f"{number}. {step}" for number, step in enumerate(finding.fix.steps, 1)]
    if finding.docs:
        lines.append(f"Docs: {finding.docs}")
    return "\n".join(printable(line) for line in lines)


def annotation(finding: Finding, display: DisplayPath) -> str:
    span = finding.span
    end_line = max(span.end_line, span.line)
    properties = {"file": display(finding.file), "line": str(span.line), "endLine": str(end_line)}
    # GitHub places columns only on a one-line region.
    if end_line == span.line:
        properties["col"] = str(span.column)
        properties["endColumn"] = str(max(span.end_column, span.column))
    properties["title"] = f"{finding.code} {finding.rule}"
    command = "error" if finding.severity is Severity.ERROR else "warning"
    return workflow_command(command, properties, annotation_message(finding))


def render_github(
    report: Report,
    *,
    display: DisplayPath = same_path,
    max_diagnostics: int | None = None,
    breakdown: Sequence[str] = (),
) -> str:
    """`display` turns a project-relative path into the one GitHub knows: relative to
    `GITHUB_WORKSPACE` (the CLI decides). `breakdown`: lines for the log under the summary
    (a workspace's line per configuration)."""
    shown = limit(report, max_diagnostics)
    out = [annotation(finding, display) for finding in shown.findings]
    out.append(summary_line(report))
    out += [safe_line(line) for line in breakdown]
    not_checked = {safe_line(f"warning: {item.message}") for item in report.not_checked}
    out += [
        workflow_command("warning", {"title": "inwards"}, printable(item.message))
        for item in report.not_checked
    ]
    out += [line for line in trailer(report, shown) if line not in not_checked]
    return "\n".join(out) + "\n"


def write_github(subject: ReportInput) -> str:
    """The `github` format (a `Reporter`); a workspace's line per configuration in the log."""
    paths = subject.annotation_paths
    merged = subject.merged
    return render_github(
        subject.report,
        display=paths,
        max_diagnostics=subject.max_diagnostics,
        breakdown=() if merged is None else part_lines(merged, paths),
    )
