"""A check's report as plain JSON data and back, for the memo of a whole run.

Only what the engine fills is kept: findings, suppressed findings, paths not checked, the
counts, notes and the lines under the findings. The rule set, the baseline and the duration
are added to every run's report afterwards, so a memo never holds them. `report_from_data`
refuses any other shape with `ValueError`: the memo lives in a directory the project can
write to, so it is read as strictly as the extraction cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inwards_core.model.findings import (
    ChainStep,
    Finding,
    Fix,
    NotChecked,
    Report,
    RootKind,
    Severity,
    Span,
    SuppressedFinding,
)
from inwards_core.model.source_lines import SourceLine

__all__ = ["is_engine_report", "report_from_data", "report_to_data"]

_SEVERITIES = {severity.value: severity for severity in Severity}
_ROOTS = {root.value: root for root in RootKind}


def is_engine_report(report: Report) -> bool:
    """Whether `report` holds only what `report_to_data` keeps (as the engine returns it,
    before the rule set and the baseline are added)."""
    return (
        not report.rule_set_fingerprint
        and not report.user_definitions
        and not report.overlays
        and not report.baselined
        and not report.baseline_resolved
        and report.baseline_file is None
    )


def _finding_to_data(finding: Finding) -> list[Any]:
    return [
        finding.code,
        finding.rule,
        finding.severity.value,
        finding.file,
        finding.module,
        _span_to_data(finding.span),
        finding.message,
        finding.fix.summary,
        list(finding.fix.steps),
        finding.docs,
        finding.origin.value,
        finding.suppressible,
        finding.whole_project,
        finding.stable_message,
        [
            [step.importer, step.imported, step.file, _span_to_data(step.span)]
            for step in finding.chain
        ],
    ]


def _span_to_data(span: Span) -> list[int]:
    return [span.line, span.column, span.end_line, span.end_column]


def report_to_data(report: Report) -> dict[str, Any]:
    """The engine's part of `report` as JSON values (see the module docstring)."""
    return {
        "findings": [_finding_to_data(finding) for finding in report.findings],
        "files_checked": report.files_checked,
        "suppressed": [
            [_finding_to_data(entry.finding), entry.reason] for entry in report.suppressed
        ],
        "not_checked": [[entry.path, entry.message] for entry in report.not_checked],
        "whole_project": report.whole_project,
        "notes": list(report.notes),
        "source_lines": [
            [line.file, line.line, line.column, line.text, line.offset, line.length]
            for line in report.source_lines
        ],
    }


def _typed(value: Any, kind: type) -> Any:
    # `type(...) is`, not isinstance: JSON's true is no int, and 1 is no bool.
    if type(value) is not kind:
        raise ValueError(f"expected {kind.__name__}, not {type(value).__name__}")
    return value


def _list(value: Any) -> list[Any]:
    return list(_typed(value, list))


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(_typed(item, str) for item in _list(value))


def _finding_from_data(data: Any) -> Finding:
    (
        code,
        rule,
        severity,
        file,
        module,
        span,
        message,
        summary,
        steps,
        docs,
        origin,
        suppressible,
        whole_project,
        stable_message,
        chain,
    ) = _list(data)
    return Finding(
        code=_typed(code, str),
        rule=_typed(rule, str),
        severity=_SEVERITIES[_typed(severity, str)],
        file=_typed(file, str),
        module=None if module is None else _typed(module, str),
        span=_span_from_data(span),
        message=_typed(message, str),
        fix=Fix(_typed(summary, str), _strings(steps)),
        docs=_typed(docs, str),
        origin=_ROOTS[_typed(origin, str)],
        suppressible=_typed(suppressible, bool),
        whole_project=_typed(whole_project, bool),
        stable_message=_typed(stable_message, str),
        chain=tuple(_step_from_data(step) for step in _list(chain)),
    )


def _span_from_data(data: Any) -> Span:
    line, column, end_line, end_column = (_typed(number, int) for number in _list(data))
    return Span(line, column, end_line, end_column)


def _step_from_data(data: Any) -> ChainStep:
    importer, imported, file, span = _list(data)
    return ChainStep(
        _typed(importer, str), _typed(imported, str), _typed(file, str), _span_from_data(span)
    )


def _source_line_from_data(data: Any) -> SourceLine:
    file, line, column, text, offset, length = _list(data)
    return SourceLine(
        _typed(file, str),
        _typed(line, int),
        _typed(column, int),
        _typed(text, str),
        _typed(offset, int),
        _typed(length, int),
    )


def report_from_data(data: Any) -> Report:
    """The report `report_to_data` gave; `ValueError` for anything else."""
    if not isinstance(data, Mapping):
        raise ValueError("expected an object")
    try:
        suppressed = []
        for row in _list(data["suppressed"]):
            finding, reason = _list(row)
            suppressed.append(SuppressedFinding(_finding_from_data(finding), _typed(reason, str)))
        not_checked = []
        for row in _list(data["not_checked"]):
            path, message = _list(row)
            not_checked.append(NotChecked(_typed(path, str), _typed(message, str)))
        return Report(
            findings=tuple(_finding_from_data(row) for row in _list(data["findings"])),
            files_checked=_typed(data["files_checked"], int),
            suppressed=tuple(suppressed),
            not_checked=tuple(not_checked),
            whole_project=_typed(data["whole_project"], bool),
            notes=_strings(data["notes"]),
            source_lines=tuple(_source_line_from_data(row) for row in _list(data["source_lines"])),
        )
    except (KeyError, TypeError) as error:  # a missing key, a row of the wrong length
        raise ValueError(f"bad report: {error}") from error
