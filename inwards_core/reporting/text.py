"""The `text` and `concise` formats."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from inwards_core.baseline import BASELINE_FILE_NAME
from inwards_core.model.findings import (
    Finding,
    OverlayInEffect,
    Report,
    RootKind,
    Severity,
    Span,
)
from inwards_core.reporting import (
    DisplayPath,
    FixDisplay,
    ReportInput,
    Shown,
    limit,
    plural,
    same_path,
)
from inwards_core.reporting.escaping import printable, safe_line

if TYPE_CHECKING:
    from inwards_core.model.source_lines import SourceLine
    from inwards_core.reporting.merge import MergedReport, ReportPart

__all__ = [
    "FixDisplay",
    "part_line",
    "part_lines",
    "render_concise",
    "render_statistics",
    "render_text",
    "summary_line",
    "write_concise",
    "write_text",
]


_WHOLE_FILE = Span.start_of_file()


# ANSI SGR sequences; the CLI decides when colour is wanted (a terminal, NO_COLOR, FORCE_COLOR).
_BOLD, _RED, _YELLOW, _CYAN, _DIM, _RESET = (
    "\x1b[1m",
    "\x1b[31m",
    "\x1b[33m",
    "\x1b[36m",
    "\x1b[2m",
    "\x1b[0m",
)


def _paint(text: str, style: str, colour: bool) -> str:
    return f"{style}{text}{_RESET}" if colour and text else text


def _head(
    finding: Finding,
    display: DisplayPath,
    colour: bool = False,
    overlays: Mapping[str, OverlayInEffect] | None = None,
) -> str:
    # Project text is escaped before our own colour codes go around it (see escaping.py).
    level = " (warning)" if finding.severity is Severity.WARNING else ""
    origin = "" if finding.origin is RootKind.CORE else f" [{finding.origin.value} rule]"
    overlay = (overlays or {}).get(finding.code)
    if overlay is not None:  # the roots whose files make the rule: [core < project overlay]
        origin = f" [{' < '.join(link.root.value for link in overlay.chain)} overlay]"
    span = finding.span
    file = safe_line(display(finding.file))  # it starts the line
    where = _paint(f"{file}:{span.line}:{span.column}:", _BOLD, colour)
    tint = _RED if finding.severity is Severity.ERROR else _YELLOW
    code = _paint(printable(f"{finding.code}{level}"), _BOLD + tint, colour)
    return f"{where} {code}{_paint(origin, _CYAN, colour)} {printable(finding.message)}"


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


def trailer(report: Report, shown: Shown, display: DisplayPath = same_path) -> list[str]:
    """The lines after the findings, each escaped (`safe_line`): they quote paths,
    messages and notes."""
    lines: list[str] = []
    if shown.omitted:
        lines.append(
            f"Not shown: {plural(shown.omitted_errors, 'error')}, "
            f"{plural(shown.omitted_warnings, 'warning')} (--max-diagnostics)."
        )
    if report.suppressed:
        lines.append(f"{plural(len(report.suppressed), 'finding')} hidden by inline suppressions.")
    lines.extend(baseline_lines(report, display))
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
    # No overlay chains here: they are the same on every run, so they would end every report;
    # the head of a finding names its roots, and `status` and `rules explain` show the chains.
    return [safe_line(line) for line in lines]


def baseline_lines(report: Report, display: DisplayPath = same_path) -> list[str]:
    """How many findings the baseline accepted, and its entries fixed since it was written
    (whole-project runs), so the baseline can shrink."""
    if report.baseline_file is None:
        return []
    shown = display(report.baseline_file)
    lines: list[str] = []
    if report.baselined:
        lines.append(
            f"{plural(len(report.baselined), 'finding')} accepted by the baseline ({shown})."
        )
    if report.baseline_resolved:
        fixed = sum(entry.count for entry in report.baseline_resolved)
        rewrite = "inwards baseline"
        if report.baseline_file != BASELINE_FILE_NAME:
            rewrite += f" --output {shown}"
        them = "it" if fixed == 1 else "them"
        lines.append(
            f"{plural(fixed, 'baselined finding')} fixed since the baseline was written; "
            f"run `{rewrite}` to drop {them}:"
        )
        for entry in report.baseline_resolved:
            times = f" ({entry.count} fixed)" if entry.count > 1 else ""
            lines.append(f"  {entry.code} {entry.module}: {entry.message}{times}")
    return [safe_line(line) for line in lines]


def _frame(
    finding: Finding, sources: dict[tuple[str, int, int], SourceLine], colour: bool
) -> list[str]:
    span = finding.span
    if span == _WHOLE_FILE:  # a finding about the file, not about its first character
        return []
    source = sources.get((finding.file, span.line, span.column))
    if source is None:
        return []
    from inwards_core.reporting.frames import frame  # a clean run draws none

    tint = _RED if finding.severity is Severity.ERROR else _YELLOW
    return frame(
        source,
        span,
        paint_gutter=_CYAN if colour else "",
        paint_carets=_BOLD + tint if colour else "",
    )


def render_text(
    report: Report,
    *,
    display: DisplayPath = same_path,
    max_diagnostics: int | None = None,
    colour: bool = False,
    fixes: FixDisplay = FixDisplay.ONCE_PER_RULE,
    quiet: bool = False,
    breakdown: Sequence[str] = (),
) -> str:
    """Each finding: its head line, the frame of the line it points at (when the report
    kept it), its fix as `fixes` says, its docs pointer. Then, unless `quiet`, the summary
    and the lines after it."""
    shown = limit(report, max_diagnostics)
    sources = {(s.file, s.line, s.column): s for s in report.source_lines}
    overlays = {overlay.code: overlay for overlay in report.overlays}
    stepped: set[str] = set()  # the rules whose steps were shown
    steps_left_out = False
    out: list[str] = []
    for finding in shown.findings:
        out.append(_head(finding, display, colour, overlays))
        out.extend(_frame(finding, sources, colour))
        if fixes is not FixDisplay.NONE:
            out.append(f"  {_paint('fix:', _CYAN, colour)} {printable(finding.fix.summary)}")
            if fixes is FixDisplay.EVERY_FINDING or finding.code not in stepped:
                stepped.add(finding.code)
                out.extend(
                    f"    {number}. {printable(step)}"
                    for number, step in enumerate(finding.fix.steps, 1)
                )
            elif finding.fix.steps:
                steps_left_out = True
        if finding.docs:
            out.append(_paint(f"  docs: {printable(finding.docs)}", _DIM, colour))
        out.append("")
    if quiet:
        return "\n".join(out) + ("\n" if out else "")
    out.append(summary_line(report))
    out.extend(safe_line(line) for line in breakdown)  # a workspace's line per config
    extra = trailer(report, shown, display)
    if steps_left_out:
        extra.append(
            "note: the steps of a rule's fix are shown under its first finding; "
            "--show-fixes shows them under every finding."
        )
    if extra:
        out.append("")
        out.extend(extra)
    return "\n".join(out) + "\n"


def render_concise(
    report: Report,
    *,
    display: DisplayPath = same_path,
    max_diagnostics: int | None = None,
    colour: bool = False,
    fixes: FixDisplay = FixDisplay.ONCE_PER_RULE,
    quiet: bool = False,
    breakdown: Sequence[str] = (),
) -> str:
    """One line a finding: its head and its fix's first step (none with FixDisplay.NONE);
    then, unless `quiet`, the summary and the lines after it."""
    shown = limit(report, max_diagnostics)
    overlays = {overlay.code: overlay for overlay in report.overlays}
    out: list[str] = []
    for finding in shown.findings:
        head = _head(finding, display, colour, overlays)
        if fixes is FixDisplay.NONE:
            out.append(head)
            continue
        first = printable(finding.fix.steps[0] if finding.fix.steps else finding.fix.summary)
        out.append(f"{head} {_paint('fix:', _CYAN, colour)} {first}")
    if quiet:
        return "\n".join(out) + ("\n" if out else "")
    out.append(summary_line(report))
    out.extend(safe_line(line) for line in breakdown)
    out.extend(trailer(report, shown, display))
    return "\n".join(out) + "\n"


def render_statistics(report: Report) -> str:
    """Findings per rule, most first (`--statistics`): count, code, name, and how many of
    them are warnings; suppressed findings are counted apart."""
    counts: dict[tuple[str, str], list[int]] = {}
    for finding in report.findings:
        row = counts.setdefault((finding.code, finding.rule), [0, 0])
        row[0 if finding.severity is Severity.ERROR else 1] += 1
    suppressed: dict[str, int] = {}
    for item in report.suppressed:
        suppressed[item.finding.code] = suppressed.get(item.finding.code, 0) + 1
    lines = ["", "Findings per rule:"]
    if not counts:
        lines.append("  none")
    order = sorted(counts.items(), key=lambda item: (-sum(item[1]), item[0][0]))
    width = max((len(str(sum(row))) for _key, row in order), default=1)
    for (code, name), (errors, warnings) in order:
        detail = f" ({plural(warnings, 'warning')})" if warnings and errors else ""
        kind = "warnings" if warnings and not errors else ""
        lines.append(
            f"  {sum((errors, warnings)):>{width}}  {printable(code):<8} {printable(name)}{detail}"
            + (f" ({kind})" if kind else "")
        )
    if suppressed:
        hidden = ", ".join(f"{code} {count}" for code, count in sorted(suppressed.items()))
        lines.append(f"  suppressed inline: {hidden}")
    return "\n".join(lines) + "\n"


def part_line(part: ReportPart, display: DisplayPath = same_path) -> str:
    """`packages/core/pyproject.toml: 4 files, 1 error, 0 warnings`."""
    shown = display(part.config)
    if part.report is None:
        return f"{shown}: not checked (configuration error, see above)"
    report = part.report
    counts = (
        f"{plural(report.files_checked, 'file')}, {plural(len(report.errors), 'error')}, "
        f"{plural(len(report.warnings), 'warning')}"
    )
    return f"{shown}: {counts}"


def part_lines(merged: MergedReport, display: DisplayPath = same_path) -> list[str]:
    """A line per configuration, and under it what its baseline accepted (the merged report
    names no baseline of its own)."""
    lines: list[str] = []
    for part in merged.parts:
        lines.append(part_line(part, display))
        if part.report is not None:
            lines.extend(f"  {line}" for line in baseline_lines(part.report, display))
    return lines


def _written(subject: ReportInput, render: Callable[..., str]) -> str:
    merged = subject.merged
    text = render(
        subject.report,
        display=subject.display,
        max_diagnostics=subject.max_diagnostics,
        colour=subject.colour,
        fixes=subject.fixes,
        quiet=subject.quiet,
        breakdown=() if merged is None else part_lines(merged, subject.display),
    )
    if subject.statistics:
        text += render_statistics(subject.report)
    if subject.explanation_text:
        text += "\n" + subject.explanation_text
    return text


def write_text(subject: ReportInput) -> str:
    """The `text` format (a `Reporter`)."""
    return _written(subject, render_text)


def write_concise(subject: ReportInput) -> str:
    """The `concise` format (a `Reporter`)."""
    return _written(subject, render_concise)
