"""`inwards baseline` and `inwards check` with a baseline, through the installed CLI, on
the planted violations of examples/shop-violations."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inwards_cli.commands.check.options import fast_arguments
from tests.e2e.helpers import EXAMPLES, run_inwards
from tests.e2e.test_check_examples import PLANTED

BASELINE = "inwards-baseline.json"


def module_of(file: str) -> str | None:
    if not file.startswith("src/"):
        return None
    dotted = file.removeprefix("src/").removesuffix(".py").replace("/", ".")
    return dotted.removesuffix(".__init__")


# The planted errors, keyed as a baseline keys them (code, module): worked out from the
# hand-checked list, not from a run.
PLANTED_ERRORS = Counter(
    (code, module_of(file) or file)
    for file, _line, code, severity in PLANTED
    if severity == "error"
)


@pytest.fixture
def project(copy_example) -> Path:  # type: ignore[no-untyped-def]
    path: Path = copy_example("shop-violations")
    return path


def diagnostics(project: Path, *args: str) -> tuple[int, dict[str, Any]]:
    run = run_inwards("check", "--format", "json", *args, cwd=project)
    assert run.code in (0, 1), run.stderr
    return run.code, json.loads(run.stdout)


@pytest.fixture(scope="module")
def planted_baseline(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The baseline `inwards baseline` writes for the untouched example, made once."""
    project = tmp_path_factory.mktemp("baseline") / "shop-violations"
    shutil.copytree(EXAMPLES / "shop-violations", project, ignore=shutil.ignore_patterns("cache"))
    run = run_inwards("baseline", cwd=project)
    assert run.code == 0, run.stderr
    return (project / BASELINE).read_bytes()


@pytest.fixture
def write_baseline(planted_baseline: bytes) -> Callable[[Path], bytes]:
    def write(project: Path) -> bytes:
        (project / BASELINE).write_bytes(planted_baseline)
        return planted_baseline

    return write


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_baseline_records_every_planted_error_and_no_warning(project: Path) -> None:
    run = run_inwards("baseline", cwd=project)
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines() == [
        "Wrote inwards-baseline.json: it accepts 11 errors (11 entries).",
        "Commit it: `inwards check` accepts these findings and still fails on new ones.",
        "3 warnings not recorded: warnings never fail a check, so they stay in the report.",
    ]
    document = json.loads((project / BASELINE).read_bytes())
    assert document["schema"] == "inwards/baseline@1"
    recorded = Counter()  # type: Counter[tuple[str, str]]
    for entry in document["entries"]:
        assert set(entry) == {"code", "module", "message", "count"}
        assert not re.search(r":\d+", entry["message"]), entry  # no positions
        assert "Imports may only point inwards" not in entry["message"]  # the stable form
        recorded[(entry["code"], entry["module"])] += entry["count"]
    assert recorded == PLANTED_ERRORS
    keys = [(e["code"], e["module"], e["message"]) for e in document["entries"]]
    assert keys == sorted(keys)
    # Next to the config, readable like any committed file, no temp file left behind.
    mode = (project / BASELINE).stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask
    assert sorted(p.name for p in project.iterdir() if BASELINE in p.name) == [BASELINE]


def test_check_accepts_baselined_findings_and_says_how_many(
    project: Path, write_baseline: Callable[[Path], bytes]
) -> None:
    write_baseline(project)
    run = run_inwards("check", cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert re.search(r"No errors, 3 warnings in 17 files \(\d+\.\d ms\)\.", run.stdout)
    assert "11 findings accepted by the baseline (inwards-baseline.json).\n" in run.stdout
    assert "fixed since" not in run.stdout
    code, document = diagnostics(project)
    assert code == 0
    assert document["summary"]["violations"] == 0
    assert document["summary"]["baselined"] == 11
    assert document["summary"]["resolved"] == 0
    assert document["baselineFile"] == BASELINE
    assert document["baselineResolved"] == []
    assert {(d["file"], d["line"], d["code"], d["severity"]) for d in document["diagnostics"]} == {
        item for item in PLANTED if item[3] == "warning"
    }


def test_a_new_violation_fails(project: Path, write_baseline: Callable[[Path], bytes]) -> None:
    write_baseline(project)
    order = project / "src/shop/domain/order.py"
    order.write_text(
        order.read_text(encoding="utf-8") + "\nfrom shop.bootstrap import main\n",
        encoding="utf-8",
    )
    code, document = diagnostics(project)
    assert code == 1
    errors = [d for d in document["diagnostics"] if d["severity"] == "error"]
    assert [(d["file"], d["code"]) for d in errors] == [("src/shop/domain/order.py", "INW001")]
    assert document["summary"]["baselined"] == 11


def test_fixing_one_shows_it_resolved_and_rewriting_drops_it(
    project: Path, write_baseline: Callable[[Path], bytes]
) -> None:
    before = write_baseline(project)
    edit(
        project / "src/shop/domain/discounts.py",
        "from shop.domain.pricng import BULK_DISCOUNT\n",
        "BULK_DISCOUNT = 3\n",
    )
    run = run_inwards("check", cwd=project)
    assert run.code == 0, run.stdout
    assert "10 findings accepted by the baseline (inwards-baseline.json).\n" in run.stdout
    assert (
        "1 baselined finding fixed since the baseline was written; run `inwards baseline` to "
        "drop it:\n"
        '  INW010 shop.domain.discounts: "shop.domain.pricng" is not a module of this '
        'project: "shop.domain" has no "pricng".\n'
    ) in run.stdout
    _code, document = diagnostics(project)
    assert document["summary"]["resolved"] == 1
    assert [(e["code"], e["module"], e["count"]) for e in document["baselineResolved"]] == [
        ("INW010", "shop.domain.discounts", 1)
    ]
    # A run over named paths can't tell fixed from unread: no resolved list there.
    _code, named = diagnostics(project, "src/shop/application")
    assert named["summary"]["baselined"] == 4
    assert "resolved" not in named["summary"] and "baselineResolved" not in named
    assert "fixed since" not in run_inwards("check", "src/shop/domain", cwd=project).stdout

    run = run_inwards("baseline", cwd=project)
    assert run.stdout.startswith(
        "Wrote inwards-baseline.json: it accepts 10 errors (10 entries), was 11."
    )
    after = (project / BASELINE).read_bytes()
    assert len(after.splitlines()) == len(before.splitlines()) - 1
    assert b'"INW010"' not in after
    assert "fixed since" not in run_inwards("check", cwd=project).stdout


def test_moving_an_import_keeps_it_accepted(
    project: Path, write_baseline: Callable[[Path], bytes]
) -> None:
    write_baseline(project)
    edit(
        project / "src/shop/domain/discounts.py",
        "import importlib\n",
        '"""Moved down by a new docstring."""\n\nimport importlib\n\n\n',
    )
    run = run_inwards("check", cwd=project)
    assert run.code == 0, run.stdout
    assert "11 findings accepted by the baseline" in run.stdout


def test_a_second_copy_of_an_accepted_import_fails(
    project: Path, write_baseline: Callable[[Path], bytes]
) -> None:
    write_baseline(project)
    discounts = project / "src/shop/domain/discounts.py"
    discounts.write_text(
        discounts.read_text(encoding="utf-8") + "from sqlalchemy.orm import Session as Again\n",
        encoding="utf-8",
    )
    code, document = diagnostics(project)
    assert code == 1
    errors = [d for d in document["diagnostics"] if d["severity"] == "error"]
    assert [(d["file"], d["line"], d["code"]) for d in errors] == [
        ("src/shop/domain/discounts.py", 13, "INW005")
    ]
    assert document["summary"]["baselined"] == 11


def test_a_baseline_that_does_not_parse_is_exit_2_never_ignored(
    project: Path, write_baseline: Callable[[Path], bytes]
) -> None:
    data = write_baseline(project)
    (project / BASELINE).write_bytes(data[:200])
    for args in (("check",), ("check", "--format", "json"), ("check", "src/shop/domain")):
        run = run_inwards(*args, cwd=project)
        assert run.code == 2, (args, run.stdout)
        assert run.stdout == ""
        assert re.match(
            r"baseline error: inwards-baseline\.json:4:\d+: the baseline is not valid JSON: ",
            run.stderr,
        ), run.stderr
        assert "`inwards baseline`" in run.stderr and "--no-baseline" in run.stderr
    # From a subdirectory the file is named relative to where the user stands.
    run = run_inwards("check", cwd=project / "src" / "shop")
    assert run.code == 2
    assert run.stderr.startswith("baseline error: ../../inwards-baseline.json:4:")
    # --no-baseline checks without it; `inwards baseline` replaces it.
    assert run_inwards("check", "--no-baseline", cwd=project).code == 1
    run = run_inwards("baseline", cwd=project)
    assert run.code == 0
    assert "replacing a file that was not a readable baseline" in run.stdout
    assert (project / BASELINE).read_bytes() == data


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda text: text.replace("inwards/baseline@1", "inwards/baseline@2"),
            'inwards-baseline.json:2: schema: "inwards/baseline@2" is not "inwards/baseline@1"',
        ),
        (
            lambda text: text.replace('"count": 1}', '"count": "1"}', 1),
            "inwards-baseline.json:4: entries[0].count: must be a whole number of at least 1, "
            'not the string "1".',
        ),
        (
            lambda text: text.replace('"count": 1}', '"count": 1, "line": 5}', 1),
            'inwards-baseline.json:4: entries[0]: unknown key "line"',
        ),
        (lambda text: "[]\n", "the baseline must be a JSON object"),
    ],
)
def test_a_baseline_of_the_wrong_shape_is_exit_2(
    project: Path,
    write_baseline: Callable[[Path], bytes],
    change: Callable[[str], str],
    expected: str,
) -> None:
    text = write_baseline(project).decode("utf-8")
    (project / BASELINE).write_text(change(text), encoding="utf-8")
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 2
    assert run.stdout == ""
    assert run.stderr.startswith("baseline error: ")
    assert expected in run.stderr, run.stderr


def test_rewriting_is_byte_stable(project: Path, write_baseline: Callable[[Path], bytes]) -> None:
    first = write_baseline(project)
    assert first.endswith(b"}\n")
    run = run_inwards("baseline", "--no-cache", cwd=project)
    assert run.stdout.startswith("inwards-baseline.json is up to date: it accepts 11 errors")
    assert (project / BASELINE).read_bytes() == first
    # Written afresh from another directory, through --config, with the cache: same bytes.
    (project / BASELINE).unlink()
    run = run_inwards("baseline", "--config", str(project / "pyproject.toml"), cwd=project.parent)
    assert run.code == 0, run.stderr
    assert run.stdout.startswith("Wrote shop-violations/inwards-baseline.json: it accepts")
    assert (project / BASELINE).read_bytes() == first


def test_another_baseline_file_and_no_baseline(project: Path) -> None:
    run = run_inwards("baseline", "-o", "ci/accepted.json", cwd=project)
    assert run.code == 0, run.stderr
    assert run.stdout.startswith("Wrote ci/accepted.json: it accepts 11 errors")
    assert not (project / BASELINE).exists()
    # Not next to the config, so not read unless named.
    assert run_inwards("check", cwd=project).code == 1
    run = run_inwards("check", "--baseline", "ci/accepted.json", cwd=project)
    assert run.code == 0, run.stdout
    assert "11 findings accepted by the baseline (ci/accepted.json)." in run.stdout
    # The typer path (`-o` is not on the fast path) takes the same options.
    run = run_inwards(
        "check", "-o", "report.txt", "--baseline=ci/accepted.json", "--format=json", cwd=project
    )
    assert run.code == 0, run.stderr
    assert json.loads((project / "report.txt").read_text())["summary"]["baselined"] == 11
    (project / BASELINE).write_bytes((project / "ci/accepted.json").read_bytes())
    run = run_inwards("check", "--no-baseline", cwd=project)
    assert run.code == 1
    assert "accepted by the baseline" not in run.stdout
    _code, document = diagnostics(project, "--no-baseline")
    assert "baselined" not in document["summary"] and "baselineFile" not in document


def test_a_missing_named_baseline_or_both_options_are_usage_errors(project: Path) -> None:
    run = run_inwards("check", "--baseline", "nowhere.json", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert run.stderr == "baseline error: nowhere.json is not a file.\n"
    run = run_inwards("check", "--baseline", "x.json", "--no-baseline", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "can't be used together" in run.stderr


def test_without_a_baseline_reports_say_nothing_about_one(project: Path) -> None:
    run = run_inwards("check", cwd=project)
    assert "baseline" not in run.stdout
    _code, document = diagnostics(project)
    assert "baselined" not in document["summary"]
    assert "baselineResolved" not in document


def test_fast_arguments_know_the_baseline_options() -> None:
    parsed = fast_arguments(["check", "--baseline", "b.json", "src"])
    assert parsed is not None
    assert parsed.baseline == Path("b.json") and not parsed.no_baseline
    assert parsed.paths == (Path("src"),)
    parsed = fast_arguments(["check", "--no-baseline"])
    assert parsed is not None and parsed.no_baseline and parsed.baseline is None
    parsed = fast_arguments(["check", "--baseline=b.json"])
    assert parsed is not None and parsed.baseline == Path("b.json")
    assert fast_arguments(["check", "--baseline"]) is None  # typer says what is missing
