"""`inwards check` on the bundled examples, through the installed console script."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.e2e.helpers import EXAMPLES, assert_valid_output, run_inwards

# Every planted violation of examples/shop-violations, worked out by hand from the files
# (see examples/README.md): (file, line, code, severity).
PLANTED = {
    ("src/shop/adapters/inbound/http.py", 3, "INW001", "error"),  # sibling adapter
    ("src/shop/adapters/inbound/http.py", 7, "INW020", "error"),  # half-written import
    ("src/shop/application/reports.py", 5, "INW006", "error"),  # shop.common is in no layer
    ("src/shop/application/reports.py", 6, "INW001", "error"),  # suppression without reason
    ("src/shop/application/reports.py", 6, "INW009", "error"),
    ("src/shop/application/reports.py", 7, "INW009", "warning"),  # suppresses nothing
    ("src/shop/application/reports.py", 11, "INW011", "error"),  # name read at run time
    ("src/shop/common/__init__.py", 1, "INW006", "warning"),  # package in no layer
    ("src/shop/domain/discounts.py", 5, "INW005", "error"),  # sqlalchemy in the domain
    ("src/shop/domain/discounts.py", 6, "INW001", "error"),  # domain -> outbound adapter
    ("src/shop/domain/discounts.py", 7, "INW010", "error"),  # typo: pricng
    ("src/shop/domain/discounts.py", 11, "INW011", "error"),  # dynamic import of bootstrap
    ("src/shop/domain/legacy.py", 1, "INW000", "error"),  # unicode_escape declaration
    ("pyproject.toml", 10, "INW006", "warning"),  # "shop.kernel" matches nothing
}


def _without_duration(text: str) -> str:
    return re.sub(r"\(\d+(\.\d+)? ms\)", "(… ms)", text)


def test_clean_example_passes(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop")
    run = run_inwards("check", cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.stderr == ""
    # 13 layered modules, and shop/__init__.py, which the project rule SHOP001 also reads.
    assert re.fullmatch(r"All clear: no problems in 14 files \(\d+\.\d ms\)\.\n", run.stdout)


def test_planted_violations_are_all_found_in_json(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1, run.stderr
    document = json.loads(run.stdout)
    assert document["schema"] == "inwards/diagnostics@1"
    assert_valid_output(document)
    found = {(d["file"], d["line"], d["code"], d["severity"]) for d in document["diagnostics"]}
    assert found == PLANTED
    summary = document["summary"]
    assert summary["violations"] == 11
    assert summary["warnings"] == 3
    assert summary["filesChecked"] == 17
    for diagnostic in document["diagnostics"]:
        assert set(diagnostic) >= {
            "code", "rule", "severity", "file", "module", "line", "column", "endLine",
            "endColumn", "message", "fix", "docs", "origin",
        }  # fmt: skip
        assert diagnostic["fix"]["summary"] and diagnostic["fix"]["steps"]
        assert "{" not in diagnostic["fix"]["summary"], diagnostic["fix"]["summary"]
        assert diagnostic["origin"] == "core"


def test_text_output_names_positions_fix_steps_and_summary(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", cwd=project)
    assert run.code == 1
    out = run.stdout
    assert (
        'src/shop/domain/discounts.py:6:47: INW001 Layer "domain" imports '
        '"shop.adapters.outbound.sql_orders.SqlOrders" from the outer layer "outbound".'
    ) in out
    assert (
        "Imports may only point inwards: domain <- application <- outbound | inbound <- bootstrap."
        in out
    )
    assert "    1. Delete `from shop.adapters.outbound.sql_orders import SqlOrders`." in out
    assert "  docs: inwards rule INW001" in out  # a command that works in any project
    assert "src/shop/common/__init__.py:1:1: INW006 (warning) " in out
    assert re.search(r"Found 11 errors and 3 warnings in 17 files \(\d+\.\d ms\)\.", out)
    assert "1 finding hidden by inline suppressions." not in out


def test_output_is_byte_identical_between_runs(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    outputs = set()
    for args in (("check",), ("check", "--no-cache"), ("check",)):
        run = run_inwards(*args, cwd=project)
        outputs.add(_without_duration(run.stdout))
    assert len(outputs) == 1
    first = run_inwards("check", "--format", "json", cwd=project).stdout
    second = run_inwards("check", "--format", "json", cwd=project).stdout
    assert re.sub(r'"durationMs":[\d.]+', "", first) == re.sub(r'"durationMs":[\d.]+', "", second)


def test_concise_is_one_line_per_finding(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", "--format", "concise", cwd=project)
    lines = run.stdout.splitlines()
    assert len([line for line in lines if re.match(r"\S+:\d+:\d+: [A-Z]+\d{3} ", line)]) == 14
    assert any(" fix: Delete `from sqlalchemy.orm import Session`" in line for line in lines)


def test_max_diagnostics_keeps_errors_first(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", "--format", "json", "--max-diagnostics", "11", cwd=project)
    document = json.loads(run.stdout)
    assert_valid_output(document)
    assert {d["severity"] for d in document["diagnostics"]} == {"error"}
    assert document["summary"]["omitted"] == 3
    assert run.code == 1


def test_run_from_a_subdirectory_shows_paths_relative_to_it(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", "--format", "json", cwd=project / "src" / "shop")
    files = {d["file"] for d in json.loads(run.stdout)["diagnostics"]}
    assert "domain/discounts.py" in files
    assert "../../pyproject.toml" in files


def test_examples_readme_matches_the_output() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for file, line, code, _severity in PLANTED:
        assert f"{file}:{line}" in readme and code in readme, (file, line, code)


def test_a_suppression_without_a_reason_says_so_first(copy_example) -> None:  # type: ignore[no-untyped-def]
    """INW009 for a broken comment leads with what is wrong: "hides nothing" read like the
    warning for a comment that suppresses nothing."""
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", "--format", "concise", cwd=project)
    broken, unused = [line for line in run.stdout.splitlines() if " INW009 " in line]
    assert broken.startswith(
        "src/shop/application/reports.py:6:72: INW009 This suppression comment has no reason: "
        'say why in `reason="..."`. Until it is fixed it is not applied: the findings it names '
        "are still reported. fix: "
    )
    assert "INW009 (warning) This suppression comment lists INW005, which reports nothing" in unused
