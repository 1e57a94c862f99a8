"""One report out of several: a uv workspace checks each member with its own configuration
(and baseline), and the root's configuration checks the rest; the user gets one report in
every format. Pure: reports in, a merged report and per-configuration counts out.

Every path in a part's report is relative to that part's project directory; the merged
report's are relative to the workspace root (the part's `prefix`, "packages/core/", is put
in front), so the reporters show them as they show any project's paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

import attrs

from inwards_core.model.findings import Finding, NotChecked, Report, SuppressedFinding
from inwards_core.model.value_repr import value_repr
from inwards_core.reporting import DisplayPath, same_path

__all__ = ["MergedReport", "ReportPart", "merge_reports", "parts_document"]


@attrs.frozen
class ReportPart:
    """One configuration's run: its `pyproject.toml` and its directory's path below the
    workspace root (`prefix`: "" for the root itself, else ending in "/"), and its report
    (None when the configuration could not be checked: its errors went to stderr)."""

    __repr__ = value_repr

    config: str
    prefix: str
    report: Report | None


@attrs.frozen
class MergedReport:
    """The whole run (`report`, paths relative to the workspace root) and each part with
    its report's paths moved the same way."""

    __repr__ = value_repr

    report: Report
    parts: tuple[ReportPart, ...]

    @property
    def failed(self) -> bool:
        """Whether a configuration could not be checked (the run's exit status is then 2)."""
        return any(part.report is None for part in self.parts)

    def exit_code(self) -> int:
        """The worst of the parts': 2 when a configuration failed or nothing was checked,
        1 when any part found errors, else 0."""
        return 2 if self.failed else self.report.exit_code()


def _moved(path: str, prefix: str) -> str:
    """`path` below `prefix`; an absolute path (a definition in the user rule root) stays."""
    if not prefix or PurePosixPath(path).is_absolute() or PureWindowsPath(path).is_absolute():
        return path
    return f"{prefix}{path}"


def _moved_finding(finding: Finding, prefix: str) -> Finding:
    chain = tuple(attrs.evolve(step, file=_moved(step.file, prefix)) for step in finding.chain)
    return attrs.evolve(finding, file=_moved(finding.file, prefix), chain=chain)


def moved_report(report: Report, prefix: str) -> Report:
    """`report` with every path it holds put below `prefix`."""
    if not prefix:
        return report
    return attrs.evolve(
        report,
        findings=tuple(_moved_finding(f, prefix) for f in report.findings),
        suppressed=tuple(
            SuppressedFinding(_moved_finding(s.finding, prefix), s.reason)
            for s in report.suppressed
        ),
        not_checked=tuple(
            NotChecked(_moved(item.path, prefix), item.message) for item in report.not_checked
        ),
        baselined=tuple(_moved_finding(f, prefix) for f in report.baselined),
        baseline_file=None
        if report.baseline_file is None
        else _moved(report.baseline_file, prefix),
        source_lines=tuple(
            attrs.evolve(line, file=_moved(line.file, prefix)) for line in report.source_lines
        ),
    )


def merge_reports(
    parts: Sequence[ReportPart],
    *,
    not_checked: Sequence[NotChecked] = (),
    duration_ms: float = 0.0,
) -> MergedReport:
    """The parts' reports as one, sorted as one project's would be (per-file findings by
    path and position, whole-project findings after), with `not_checked` (the members no
    configuration covers) before the parts' own. Baselines stay per part: the merged report
    names none (see `text.part_lines` and `parts_document`)."""
    moved = tuple(
        ReportPart(
            part.config,
            part.prefix,
            None if part.report is None else moved_report(part.report, part.prefix),
        )
        for part in sorted(parts, key=lambda part: part.config)
    )
    reports = [part.report for part in moved if part.report is not None]
    findings = sorted((f for r in reports for f in r.findings), key=Finding.sort_key)
    suppressed = sorted(
        (s for r in reports for s in r.suppressed), key=lambda s: s.finding.sort_key()
    )
    merged = Report(
        findings=tuple(findings),
        files_checked=sum(r.files_checked for r in reports),
        suppressed=tuple(suppressed),
        not_checked=tuple(not_checked) + tuple(i for r in reports for i in r.not_checked),
        whole_project=bool(reports) and all(r.whole_project for r in reports),
        duration_ms=duration_ms,
        notes=tuple(dict.fromkeys(note for r in reports for note in r.notes)),
        user_definitions=tuple(dict.fromkeys(u for r in reports for u in r.user_definitions)),
        overlays=tuple(dict.fromkeys(o for r in reports for o in r.overlays)),
        baselined=tuple(sorted((f for r in reports for f in r.baselined), key=Finding.sort_key)),
        baseline_resolved=tuple(e for r in reports for e in r.baseline_resolved),
        source_lines=tuple(line for r in reports for line in r.source_lines),
    )
    return MergedReport(merged, moved)


def parts_document(merged: MergedReport, display: DisplayPath = same_path) -> dict[str, Any]:
    """What the JSON document adds for a workspace: `configs` (a summary per
    configuration) and the summary's baseline counts over every part that read one."""
    configs: list[dict[str, Any]] = []
    baselined = resolved = 0
    any_baseline = False
    for part in merged.parts:
        entry: dict[str, Any] = {"config": display(part.config), "checked": part.report is not None}
        report = part.report
        if report is not None:
            entry.update(
                filesChecked=report.files_checked,
                violations=len(report.errors),
                warnings=len(report.warnings),
                exitCode=report.exit_code(),
            )
            if report.baseline_file is not None:
                any_baseline = True
                entry["baselineFile"] = display(report.baseline_file)
                entry["baselined"] = len(report.baselined)
                baselined += len(report.baselined)
                resolved += sum(e.count for e in report.baseline_resolved)
        else:
            entry["exitCode"] = 2
        configs.append(entry)
    summary: dict[str, Any] = {}
    if any_baseline:
        summary["baselined"] = baselined
        if merged.report.whole_project:
            summary["resolved"] = resolved
    return {"summary": summary, "configs": configs}
