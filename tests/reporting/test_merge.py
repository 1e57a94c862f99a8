"""Merging a workspace's reports (`inwards_core/reporting/merge.py`): paths below each
part's directory, one order, counts per configuration, the worst exit status."""

from __future__ import annotations

from inwards_core.model.findings import (
    Finding,
    Fix,
    NotChecked,
    Report,
    Severity,
    Span,
    SuppressedFinding,
)
from inwards_core.reporting.merge import ReportPart, merge_reports, parts_document
from inwards_core.reporting.text import part_lines, render_text


def finding(file: str, line: int, severity: Severity = Severity.ERROR, **extra: object) -> Finding:
    return Finding(
        code="INW001",
        rule="layer-dependency",
        severity=severity,
        file=file,
        module=None,
        span=Span.point(line, 1),
        message=f"at {line}",
        fix=Fix("fix it"),
        docs="",
        **extra,  # type: ignore[arg-type]
    )


API = Report(
    findings=(finding("src/b.py", 3), finding("pyproject.toml", 1, whole_project=True)),
    files_checked=4,
    suppressed=(SuppressedFinding(finding("src/a.py", 9), "why"),),
)
CORE = Report(
    findings=(finding("src/a.py", 2, Severity.WARNING), finding("/home/u/rules/X.toml", 1)),
    files_checked=3,
    baselined=(finding("src/z.py", 1),),
    baseline_file="inwards-baseline.json",
)


def test_paths_go_below_each_part_and_one_order_holds() -> None:
    merged = merge_reports(
        [
            ReportPart("packages/core/pyproject.toml", "packages/core/", CORE),
            ReportPart("packages/api/pyproject.toml", "packages/api/", API),
        ]
    )
    report = merged.report
    assert [(f.file, f.span.line) for f in report.findings] == [
        ("/home/u/rules/X.toml", 1),  # absolute: a definition in the user root stays
        ("packages/api/src/b.py", 3),
        ("packages/core/src/a.py", 2),
        ("packages/api/pyproject.toml", 1),  # whole-project findings last
    ]
    assert report.files_checked == 7
    assert report.suppressed[0].finding.file == "packages/api/src/a.py"
    assert report.baselined[0].file == "packages/core/src/z.py"
    assert report.baseline_file is None  # each part keeps its own
    assert [p.config for p in merged.parts] == [
        "packages/api/pyproject.toml",
        "packages/core/pyproject.toml",
    ]
    assert merged.exit_code() == 1


def test_a_failed_part_makes_the_run_2() -> None:
    clean = Report(findings=(), files_checked=1)
    merged = merge_reports(
        [ReportPart("pyproject.toml", "", clean), ReportPart("p/pyproject.toml", "p/", None)],
        not_checked=[NotChecked("q", "q has no [tool.inwards] table, so it was not checked.")],
    )
    assert merged.failed and merged.exit_code() == 2
    assert [item.path for item in merged.report.not_checked] == ["q"]
    assert part_lines(merged) == [
        "p/pyproject.toml: not checked (configuration error, see above)",
        "pyproject.toml: 1 file, 0 errors, 0 warnings",
    ]


def test_lines_per_config_and_their_baselines() -> None:
    merged = merge_reports([ReportPart("packages/core/pyproject.toml", "packages/core/", CORE)])
    assert part_lines(merged) == [
        "packages/core/pyproject.toml: 3 files, 1 error, 1 warning",
        "  1 finding accepted by the baseline (packages/core/inwards-baseline.json).",
    ]
    document = parts_document(merged, lambda path: f"../{path}")
    assert document["summary"] == {"baselined": 1, "resolved": 0}
    assert document["configs"] == [
        {
            "config": "../packages/core/pyproject.toml",
            "checked": True,
            "filesChecked": 3,
            "violations": 1,
            "warnings": 1,
            "exitCode": 1,
            "baselineFile": "../packages/core/inwards-baseline.json",
            "baselined": 1,
        }
    ]


def test_the_text_report_puts_the_lines_under_the_summary() -> None:
    merged = merge_reports([ReportPart("pyproject.toml", "", Report((), 2))])
    text = render_text(merged.report, breakdown=part_lines(merged))
    assert text == (
        "All clear: no problems in 2 files (0.0 ms).\npyproject.toml: 2 files, 0 errors, 0 warnings\n"
    )
