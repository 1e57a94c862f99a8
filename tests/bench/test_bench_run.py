"""The benchmark harness's own logic: configs it writes, how it runs and judges a process.

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
    bench_corpora: ModuleType, tmp_path: Path
) -> None:
    inner, outer = bench_corpora.django_layering(_fake_django(tmp_path))
    assert outer == ["django.contrib"]
    assert inner == ["django.apps", "django.db", "django.shortcuts", "django.utils"]


def test_django_configs_say_the_same_thing_to_both_tools(bench_corpora: ModuleType) -> None:
    inner = ["django.apps", "django.db", "django.shortcuts"]
    pyproject, importlinter = bench_corpora.django_configs(inner, ["django.contrib"])
    layers = tomllib.loads(pyproject)["tool"]["inwards"]["layers"]
    assert [layer["modules"] for layer in layers] == [inner, ["django.contrib"]]

    parser = configparser.ConfigParser()
    parser.read_string(importlinter)
    contract = parser["importlinter:contract:clean"]
    assert parser["importlinter"]["root_package"] == "django"
    assert contract["type"] == "layers"
    rows = [row.strip() for row in contract["layers"].strip().splitlines()]
    assert rows == ["django.contrib", "django.apps : django.db : django.shortcuts"]


def test_prepare_django_reports_a_missing_corpus(bench_corpora: ModuleType, tmp_path: Path) -> None:
    corpus = bench_corpora.prepare_django(tmp_path / "nowhere")
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
    bench_measure: ModuleType, tool: str, scenario: str, expected: list[str] | None
) -> None:
    assert bench_measure.Tool(tool, Path("X")).command(scenario, "a/b.py") == expected


def test_measure_runs_a_whole_process_and_keeps_its_exit_code(
    bench_measure: ModuleType, tmp_path: Path
) -> None:
    command = [sys.executable, "-c", "import sys; print('hi'); sys.exit(3)"]
    run, stdout, stderr = bench_measure.measure(command, tmp_path, {}, tmp_path)
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
    bench_measure: ModuleType, tool: str, scenario: str, code: int, stdout: str, fails: bool
) -> None:
    run = bench_measure.Run(0.1, 0.05, 0.01, 1000, code)
    why = bench_measure.failure(tool, scenario, run, stdout, "Traceback: boom")
    assert bool(why) is fails
    if fails and code not in (-9, 0):
        assert "boom" in why


def test_reported_summarises_what_each_tool_found(bench_measure: ModuleType) -> None:
    ours = "a.py:1:1: INW001 x\n\nFound 5 violations in 2105 files (40 ms).\n"
    assert (
        bench_measure.reported("ours", "cold", ours) == "Found 5 violations in 2105 files (40 ms)."
    )
    linter = "Analyzed 9 files, 3 dependencies.\nContracts: 0 kept, 1 broken.\n- a -> b (l.1)\n"
    summary = bench_measure.reported("import-linter", "cold", linter)
    assert summary.startswith("Analyzed 9 files, 3 dependencies. Contracts: 0 kept, 1 broken.")
    assert "(1 broken imports listed)" in summary


def test_reported_takes_a_warnings_only_summary(bench_measure: ModuleType) -> None:
    ours = "a.py:1:1: INW006 (warning) x\n\nNo errors, 2 warnings in 9 files (4.0 ms).\n"
    assert bench_measure.reported("ours", "cold", ours).startswith("No errors, 2 warnings")


def _fake_package(root: Path, name: str, entries: list[str]) -> Path:
    package = root / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for entry in entries:
        if entry.endswith(".py"):
            (package / entry).write_text("", encoding="utf-8")
        else:
            (package / entry).mkdir()
            (package / entry / "__init__.py").write_text("", encoding="utf-8")
    return package


def test_sympy_gets_physics_above_the_rest_for_every_tool(
    bench_corpora: ModuleType, tmp_path: Path
) -> None:
    package = _fake_package(tmp_path, "sympy", ["core", "physics", "abc.py", "_private.py"])
    inner, outer = bench_corpora.outer_layering(package, "physics")
    assert (inner, outer) == (["sympy.abc", "sympy.core"], ["sympy.physics"])
    pyproject, importlinter = bench_corpora.two_layer_configs("sympy", inner, outer)
    layers = tomllib.loads(pyproject)["tool"]["inwards"]["layers"]
    assert [(layer["name"], layer["modules"]) for layer in layers] == [
        ("framework", inner),
        ("physics", ["sympy.physics"]),
    ]
    parser = configparser.ConfigParser()
    parser.read_string(importlinter)
    assert parser["importlinter"]["root_package"] == "sympy"
    rows = parser["importlinter:contract:clean"]["layers"].strip().splitlines()
    assert [row.strip() for row in rows] == ["sympy.physics", "sympy.abc : sympy.core"]


def test_prepare_real_copies_the_package_and_writes_both_configs(
    bench_corpora: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_package(tmp_path / "corpus", "sympy", ["core", "physics"])
    (tmp_path / "corpus" / "sympy" / "physics" / "units.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(bench_corpora, "OUT_DIR", tmp_path / "out")
    real = bench_corpora.RealPackage(
        "sympy", Path("x"), "sympy", "physics", "sympy/physics/units.py"
    )
    corpus = bench_corpora.prepare_real(real, tmp_path / "corpus")
    assert corpus.unavailable == ""
    assert corpus.source == tmp_path / "out" / "sympy"
    assert (corpus.source / corpus.one_file).is_file()
    assert (corpus.source / "pyproject.toml").is_file()
    assert (corpus.source / ".importlinter").is_file()


def test_the_run_accepts_no_warmups_and_names_every_corpus(bench_run: ModuleType) -> None:
    args = bench_run.parse_arguments(["--warmups", "0", "--corpora", "trees,sympy"])
    assert args.warmups == 0
    assert args.corpora == ["sympy", "trees"]  # in the harness's order
    assert set(bench_run.CORPORA) >= {"synthetic", "synthetic-9000", "django", "sympy", "trees"}
    with pytest.raises(SystemExit):
        bench_run.parse_arguments(["--corpora", "numpy"])


def test_measure_counts_the_memory_of_the_process_not_of_the_harness(
    bench_measure: ModuleType, tmp_path: Path
) -> None:
    # A child's peak RSS on Linux starts at its parent's: the launcher keeps the harness out.
    ballast = bytearray(150 * 1024 * 1024)
    ballast[::4096] = b"\x01" * len(ballast[::4096])
    run, _, _ = bench_measure.measure([sys.executable, "-I", "-c", "pass"], tmp_path, {}, tmp_path)
    assert 0 < run.max_rss_kib < 100 * 1024
    del ballast


def test_measure_says_when_a_command_could_not_start(
    bench_measure: ModuleType, tmp_path: Path
) -> None:
    run, _, stderr = bench_measure.measure([str(tmp_path / "missing")], tmp_path, {}, tmp_path)
    assert run.exit_code == bench_measure.LAUNCH_FAILED
    assert "FileNotFoundError" in stderr
    assert bench_measure.failure("ours", "cold", run, "", stderr).startswith("exit 127")
