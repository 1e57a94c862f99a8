"""What bench/run.py prints and judges: ratios, the issue's targets, the trees' totals.

No timing is asserted: the results are made up, the verdicts follow from them.
"""

from __future__ import annotations

from types import ModuleType

import pytest


def _result(
    bench_measure: ModuleType,
    corpus: str,
    scenario: str,
    tool: str,
    wall: float,
    rss_kib: int = 1024,
    reported: str = "",
) -> object:
    result = bench_measure.Result(corpus, scenario, tool, ["x"], ".", reported=reported)
    result.runs.extend(bench_measure.Run(wall, wall, 0.0, rss_kib, 1) for _ in range(3))
    return result


def _verdicts(targets: list[object]) -> dict[tuple[str, str], str]:
    return {(t.corpus, t.text): t.verdict for t in targets}  # type: ignore[attr-defined]


def test_the_issues_targets_on_the_synthetic_project(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    def made(scenario: str, tool: str, wall: float, rss_kib: int = 1024) -> object:
        return _result(bench_measure, "synthetic", scenario, tool, wall, rss_kib)

    results = [
        made("one-file", "ours", 0.09),
        made("one-file", "reference", 0.08),
        made("cold", "ours", 0.9, rss_kib=90_000),
        made("cold", "reference", 1.0),
        made("cold", "import-linter", 0.95),
        made("warm", "ours", 0.4),
        made("warm", "reference", 0.3),
        made("warm", "import-linter", 0.5),
    ]
    assert _verdicts(bench_report.targets(results, ["synthetic"])) == {
        ("synthetic", "one-file <= reference one-file"): "NOT met",
        ("synthetic", "warm <= 0.5x our cold"): "met",
        ("synthetic", "warm <= reference warm"): "NOT met",
        ("synthetic", "cold <= 1.0x import-linter cold"): "met",
        ("synthetic", "peak RSS, cold <= 100 MB"): "met",  # 90,000 KiB is 92 MB
    }


def test_memory_is_judged_in_megabytes_of_a_million_bytes(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    over = [_result(bench_measure, "synthetic", "cold", "ours", 1.0, rss_kib=98_000)]
    (target,) = [t for t in bench_report.targets(over, ["synthetic"]) if t.row == "memory"]
    assert target.verdict == "NOT met"  # 98,000 KiB = 95.7 MiB, but 100.4 MB
    assert target.detail.startswith("100.4 MB")


def test_django_has_the_one_file_and_cold_rows_only(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    results = [
        _result(bench_measure, "django", "one-file", "ours", 0.1),
        _result(bench_measure, "django", "one-file", "reference", 0.1),
        _result(bench_measure, "django", "cold", "ours", 0.5),
        _result(bench_measure, "django", "cold", "import-linter", 0.4),
    ]
    assert _verdicts(bench_report.targets(results, ["django"])) == {
        ("django", "one-file <= reference one-file"): "met",
        ("django", "cold <= 1.0x import-linter cold"): "NOT met",
    }


def test_targets_without_our_numbers_are_not_applicable(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    missing = bench_measure.Result("django", "cold", "ours", ["x"], ".", "n/a", "no inwards")
    results = [missing, _result(bench_measure, "django", "cold", "reference", 1.0)]
    verdicts = {t.verdict for t in bench_report.targets(results, ["django"])}
    assert verdicts == {"n/a"}
    assert bench_report.ratios(results, ["django"]) == ["n/a: ours has no numbers yet"]


def _tree_results(bench_measure: ModuleType, ours: float, reference: float) -> list[object]:
    return [
        _result(
            bench_measure,
            "trees/a",
            "cold",
            "ours",
            ours,
            reported="Found 3 errors and 1 warning in 9 files (4.0 ms).",
        ),
        _result(
            bench_measure,
            "trees/a",
            "cold",
            "reference",
            reference,
            reported="Found 3 violations, 1 warning in 9 files (4.0 ms).",
        ),
        _result(
            bench_measure,
            "trees/b",
            "cold",
            "ours",
            ours,
            reported="All clear: no problems in 2 files (1.0 ms).",
        ),
        _result(
            bench_measure,
            "trees/b",
            "cold",
            "reference",
            reference,
            reported="All clear: 2 files, 0 violations (1.0 ms).",
        ),
    ]


def test_the_trees_are_judged_in_total(bench_measure: ModuleType, bench_report: ModuleType) -> None:
    results = _tree_results(bench_measure, ours=0.25, reference=1.0)
    totals = bench_report.tree_totals(results, ["a", "b"])
    assert (totals.trees, totals.missing) == (2, ())
    assert totals.ours_s == pytest.approx(0.5) and totals.reference_s == pytest.approx(2.0)
    assert (totals.ours_findings, totals.reference_findings) == (4, 4)
    assert totals.ours_cpu_s == pytest.approx(0.5)  # the made-up runs spend wall as CPU
    assert "CPU (user + sys)" in bench_report.tree_table(results, ["a", "b"])
    (target,) = bench_report.targets(results, [], ["a", "b"])
    assert (target.corpus, target.verdict) == ("trees", "met")
    assert "0.25x" in target.detail

    slow = bench_report.targets(_tree_results(bench_measure, 0.4, 1.0), [], ["a", "b"])
    assert slow[0].verdict == "NOT met"


def test_a_tree_without_numbers_leaves_the_total_not_applicable(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    results = _tree_results(bench_measure, ours=0.25, reference=1.0)
    (target,) = bench_report.targets(results, [], ["a", "b", "c"])
    assert target.verdict == "n/a"
    assert "missing c" in target.detail
    text = bench_report.tree_table(results, ["a", "b", "c"])
    assert "c" in text and "total (2 trees)" in text


def test_the_issue_table_has_a_line_per_row(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    results = [
        _result(bench_measure, "synthetic", "warm", "ours", 0.3),
        _result(bench_measure, "synthetic", "warm", "reference", 0.6),
        _result(bench_measure, "synthetic", "warm", "import-linter", 0.3),
        _result(bench_measure, "synthetic", "cold", "ours", 0.9),
        *_tree_results(bench_measure, ours=0.25, reference=1.0),
    ]
    verdicts = bench_report.targets(results, ["synthetic"], ["a", "b"])
    text = bench_report.issue_table(results, verdicts, ["a", "b"])
    (warm,) = [line for line in text.splitlines() if line.startswith("warm, synthetic")]
    assert "0.50x" in warm and "1.00x" in warm and "warm <= 0.5x our cold: met" in warm
    assert any(line.startswith("2 real trees (4 findings)") for line in text.splitlines())
    assert "peak memory, synthetic, cold" in text


def test_ratios_divide_our_median_by_the_peers(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    results = [
        _result(bench_measure, "django", "warm", "ours", 0.3),
        _result(bench_measure, "django", "warm", "import-linter", 0.6),
    ]
    (line,) = bench_report.ratios(results, ["django"])
    assert "ours / import-linter" in line and "wall 0.50x" in line


def test_table_shows_unavailable_tools_with_their_reason(
    bench_measure: ModuleType, bench_report: ModuleType
) -> None:
    missing = bench_measure.Result("synthetic", "cold", "reference", ["x"], ".", "n/a", "no venv")
    text = bench_report.table([missing, _result(bench_measure, "synthetic", "cold", "ours", 0.25)])
    assert "n/a: no venv" in text
    assert "250" in text  # 0.25 s shown as milliseconds
