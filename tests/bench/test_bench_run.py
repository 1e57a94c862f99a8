"""The benchmark harness's own logic: configs it writes, how it judges runs, and the targets.

No timing is asserted: only that the harness measures, classifies and compares correctly.
"""

from __future__ import annotations

import configparser
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest


def _fake_django(root: Path) -> Path:
    package = root / "django"
    for sub in ("contrib", "db", "utils", "apps"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("", encoding="utf-8")
    (package / "locale").mkdir()  # a data directory, not a package
    for name in ("__init__.py", "__main__.py", "shortcuts.py"):
        (package / name).write_text("", encoding="utf-8")
    return package


def test_django_layering_puts_contrib_above_every_other_entry(
    bench_run: ModuleType, tmp_path: Path
) -> None:
    inner, outer = bench_run.django_layering(_fake_django(tmp_path))
    assert outer == ["django.contrib"]
    assert inner == ["django.apps", "django.db", "django.shortcuts", "django.utils"]


def test_django_configs_say_the_same_thing_to_both_tools(bench_run: ModuleType) -> None:
    inner = ["django.apps", "django.db", "django.shortcuts"]
    pyproject, importlinter = bench_run.django_configs(inner, ["django.contrib"])
    layers = tomllib.loads(pyproject)["tool"]["inwards"]["layers"]
    assert [layer["modules"] for layer in layers] == [inner, ["django.contrib"]]

    parser = configparser.ConfigParser()
    parser.read_string(importlinter)
    contract = parser["importlinter:contract:clean"]
    assert parser["importlinter"]["root_package"] == "django"
    assert contract["type"] == "layers"
    rows = [row.strip() for row in contract["layers"].strip().splitlines()]
    assert rows == ["django.contrib", "django.apps : django.db : django.shortcuts"]


def test_prepare_django_reports_a_missing_corpus(bench_run: ModuleType, tmp_path: Path) -> None:
    corpus = bench_run.prepare_django(tmp_path / "nowhere")
    assert corpus.source is None
    assert "get-corpora.sh" in corpus.unavailable


@pytest.mark.parametrize(
    ("tool", "scenario", "expected"),
    [
        ("ours", "cold", ["X", "check", "--no-cache"]),
        ("ours", "warm", ["X", "check"]),
        ("ours", "one-file", ["X", "check", "a/b.py", "--no-cache"]),
        ("reference", "version", ["X", "--version"]),
        ("import-linter", "cold", ["X", "--no-cache", "--no-logo"]),
        ("import-linter", "warm", ["X", "--no-logo"]),
        ("import-linter", "one-file", None),
    ],
)
def test_commands_per_tool_and_scenario(
    bench_run: ModuleType, tool: str, scenario: str, expected: list[str] | None
) -> None:
    assert bench_run.Tool(tool, Path("X")).command(scenario, "a/b.py") == expected


def test_measure_runs_a_whole_process_and_keeps_its_exit_code(
    bench_run: ModuleType, tmp_path: Path
) -> None:
    command = [sys.executable, "-c", "import sys; print('hi'); sys.exit(3)"]
    run, stdout, stderr = bench_run.measure(command, tmp_path, {}, tmp_path)
    assert run.exit_code == 3
    assert stdout.strip() == "hi"
    assert stderr == ""
    assert run.max_rss_kib > 0
    assert run.wall_s > 0 and run.cpu_s >= 0


@pytest.mark.parametrize(
    ("tool", "scenario", "code", "stdout", "fails"),
    [
        ("ours", "cold", 1, "Found 5 violations", False),
        ("ours", "cold", 0, "All clear", False),
        ("ours", "cold", 2, "", True),
        ("reference", "cold", -9, "", True),
        ("ours", "version", 1, "", True),
        ("import-linter", "cold", 1, "Contracts: 0 kept, 1 broken.", False),
        ("import-linter", "cold", 1, "", True),  # a config error also exits 1
    ],
)
def test_failure_tells_normal_exits_from_broken_runs(
    bench_run: ModuleType, tool: str, scenario: str, code: int, stdout: str, fails: bool
) -> None:
    run = bench_run.Run(0.1, 0.05, 0.01, 1000, code)
    why = bench_run.failure(tool, scenario, run, stdout, "Traceback: boom")
    assert bool(why) is fails
    if fails and code not in (-9, 0):
        assert "boom" in why


def test_reported_summarises_what_each_tool_found(bench_run: ModuleType) -> None:
    ours = "a.py:1:1: INW001 x\n\nFound 5 violations in 2105 files (40 ms).\n"
    assert bench_run.reported("ours", "cold", ours) == "Found 5 violations in 2105 files (40 ms)."
    linter = "Analyzed 9 files, 3 dependencies.\nContracts: 0 kept, 1 broken.\n- a -> b (l.1)\n"
    summary = bench_run.reported("import-linter", "cold", linter)
    assert summary.startswith("Analyzed 9 files, 3 dependencies. Contracts: 0 kept, 1 broken.")
    assert "(1 broken imports listed)" in summary


def _result(bench_run: ModuleType, corpus: str, scenario: str, tool: str, wall: float) -> object:
    result = bench_run.Result(corpus, scenario, tool, ["x"], ".")
    result.runs.extend(bench_run.Run(wall, wall, 0.0, 1024, 1) for _ in range(3))
    return result


def test_targets_compare_medians(bench_run: ModuleType) -> None:
    results = [
        _result(bench_run, "synthetic", "cold", "ours", 0.9),
        _result(bench_run, "synthetic", "cold", "reference", 1.0),
        _result(bench_run, "synthetic", "cold", "import-linter", 0.5),
        _result(bench_run, "synthetic", "warm", "ours", 0.4),
        _result(bench_run, "synthetic", "one-file", "ours", 0.081),
    ]
    verdicts = {t.text: t.verdict for t in bench_run.targets(results, ["synthetic"])}
    assert verdicts == {
        "cold <= reference cold": "met",
        "cold <= 1.5x import-linter cold": "NOT met",
        "warm <= 0.5x our cold": "met",
        "one-file < 80 ms": "NOT met",
    }


def test_targets_without_our_numbers_are_not_applicable(bench_run: ModuleType) -> None:
    missing = bench_run.Result("django", "cold", "ours", ["x"], ".", "n/a", "no inwards")
    results = [missing, _result(bench_run, "django", "cold", "reference", 1.0)]
    verdicts = {t.verdict for t in bench_run.targets(results, ["django"])}
    assert verdicts == {"n/a"}
    assert bench_run.ratios(results, ["django"]) == ["n/a: ours has no numbers yet"]


def test_ratios_divide_our_median_by_the_peers(bench_run: ModuleType) -> None:
    results = [
        _result(bench_run, "django", "warm", "ours", 0.3),
        _result(bench_run, "django", "warm", "import-linter", 0.6),
    ]
    (line,) = bench_run.ratios(results, ["django"])
    assert "ours / import-linter" in line and "wall 0.50x" in line


def test_table_shows_unavailable_tools_with_their_reason(bench_run: ModuleType) -> None:
    missing = bench_run.Result("synthetic", "cold", "reference", ["x"], ".", "n/a", "no venv")
    text = bench_run.table([missing, _result(bench_run, "synthetic", "cold", "ours", 0.25)], {})
    assert "n/a: no venv" in text
    assert "250" in text  # 0.25 s shown as milliseconds
