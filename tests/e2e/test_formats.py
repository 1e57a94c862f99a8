"""`--format sarif` and `--format github` through the installed console script, on the
bundled examples. The expected findings are the hand-worked list of test_check_examples."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.e2e.helpers import EXAMPLES, run_inwards
from tests.e2e.test_check_examples import PLANTED
from tests.reporting.sarif_check import multitool_problems, require_multitool, valid_sarif

FINGERPRINT = "inwards/v1"


def sarif(project: Path, *args: str, expect: int = 1, **env: str) -> dict[str, Any]:
    run = run_inwards("check", "--format", "sarif", *args, cwd=project, env=env)
    assert run.code == expect, run.stdout[-2000:] + run.stderr
    assert run.stderr == ""
    return valid_sarif(run.stdout)


def results(document: dict[str, Any]) -> list[dict[str, Any]]:
    return document["runs"][0]["results"]  # type: ignore[no-any-return]


def where(result: dict[str, Any]) -> tuple[str, int]:
    location = result["locations"][0]["physicalLocation"]
    return location["artifactLocation"]["uri"], location["region"]["startLine"]


def keys(document: dict[str, Any]) -> dict[tuple[str, str, str], int]:
    """(rule, uri, fingerprint) -> start line, for every result."""
    found = {}
    for result in results(document):
        uri, line = where(result)
        found[(result["ruleId"], uri, result["partialFingerprints"][FINGERPRINT])] = line
    return found


@attrs.frozen
class Checked:
    project: Path
    text: str

    @property
    def document(self) -> dict[str, Any]:
        return json.loads(self.text)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def violations(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """One SARIF run on a copy of shop-violations, which several tests read (not change)."""
    project = tmp_path_factory.mktemp("shared") / "shop-violations"
    shutil.copytree(EXAMPLES / "shop-violations", project, ignore=shutil.ignore_patterns("cache"))
    run = run_inwards("check", "--format", "sarif", cwd=project)
    assert run.code == 1 and run.stderr == "", run.stderr
    valid_sarif(run.stdout)
    return Checked(project, run.stdout)


def test_sarif_results_are_the_planted_violations(violations: Checked) -> None:
    project = violations.project
    document = violations.document
    run = document["runs"][0]
    found = {(*where(r), r["ruleId"], r["level"]) for r in results(document)}
    assert found == PLANTED
    assert len(results(document)) == len(PLANTED)
    rules = run["tool"]["driver"]["rules"]
    for result in results(document):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == (
            "%SRCROOT%"
        )
        assert "suppressions" not in result
    prints = [r["partialFingerprints"][FINGERPRINT] for r in results(document)]
    assert len(set(prints)) == len(prints)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is True and invocation["exitCode"] == 1
    assert re.fullmatch(r"[0-9a-f]{64}", run["properties"]["ruleSetFingerprint"])


def test_sarif_agrees_with_the_json_diagnostics(violations: Checked) -> None:
    project = violations.project
    document = violations.document
    diagnostics = json.loads(run_inwards("check", "--format", "json", cwd=project).stdout)[
        "diagnostics"
    ]
    expected = []
    for d in diagnostics:
        steps = "".join(f"\n{n}. {step}" for n, step in enumerate(d["fix"]["steps"], 1))
        region = {
            "startLine": d["line"],
            "startColumn": d["column"],
            "endLine": d["endLine"],
            "endColumn": d["endColumn"],
        }
        text = f"{d['message']}\nFix: {d['fix']['summary']}{steps}"
        expected.append((d["code"], d["file"], region, text))
    got = [
        (
            r["ruleId"],
            where(r)[0],
            r["locations"][0]["physicalLocation"]["region"],
            r["message"]["text"],
        )
        for r in results(document)
    ]
    assert got == expected
    # One worked by hand: the domain imports an outbound adapter at discounts.py:6:47.
    assert (
        "INW001",
        "src/shop/domain/discounts.py",
        {"startLine": 6, "startColumn": 47, "endLine": 6, "endColumn": 56},
    ) in [item[:3] for item in got]


def test_sarif_on_the_clean_example_lists_rules_and_no_results(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop")
    document = sarif(project, expect=0)
    assert results(document) == []
    rules = {rule["id"]: rule for rule in document["runs"][0]["tool"]["driver"]["rules"]}
    # The example's committed project rule is registered like any other, with its origin.
    assert rules["SHOP001"]["properties"]["definition"]["root"] == "project"
    assert rules["SHOP001"]["properties"]["definition"]["path"].endswith("SHOP001.toml")
    assert rules["INW001"]["properties"]["definition"]["root"] == "core"


def test_sarif_is_byte_identical_between_runs(violations: Checked) -> None:
    again = run_inwards("check", "--format", "sarif", "--no-cache", cwd=violations.project)
    assert again.stdout == violations.text


def test_fingerprints_survive_lines_added_above_and_follow_a_changed_finding(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    before = keys(sarif(project))
    discounts = project / "src" / "shop" / "domain" / "discounts.py"
    text = discounts.read_text(encoding="utf-8")
    discounts.write_text("# one\n# two\n# three\n" + text, encoding="utf-8")
    after = keys(sarif(project))
    assert set(after) == set(before)
    moved = {key for key in before if key[1] == "src/shop/domain/discounts.py"}
    assert len(moved) == 4
    for key in before:
        assert after[key] == before[key] + (3 if key in moved else 0), key
    # Another imported module is another finding: only its fingerprint changes.
    discounts.write_text(
        text.replace("from sqlalchemy.orm import Session", "from sqlalchemy.engine import Session"),
        encoding="utf-8",
    )
    changed = keys(sarif(project))
    gone = set(before) - set(changed)
    new = set(changed) - set(before)
    assert [key[0] for key in gone] == ["INW005"] and [key[0] for key in new] == ["INW005"]
    assert changed[next(iter(new))] == 5


def test_inline_suppressed_findings_are_in_the_log_as_suppressed(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    discounts = project / "src" / "shop" / "domain" / "discounts.py"
    text = discounts.read_text(encoding="utf-8").replace(
        "from shop.adapters.outbound.sql_orders import SqlOrders",
        'from shop.adapters.outbound.sql_orders import SqlOrders  # inwards: ignore[INW001] reason="until orders get a port"',
    )
    discounts.write_text(text, encoding="utf-8")
    document = sarif(project)
    suppressed = [r for r in results(document) if "suppressions" in r]
    assert [(r["ruleId"], *where(r)) for r in suppressed] == [
        ("INW001", "src/shop/domain/discounts.py", 6)
    ]
    assert suppressed[0]["suppressions"] == [
        {"kind": "inSource", "justification": "until orders get a port"}
    ]
    assert len(results(document)) == len(PLANTED)


def test_max_diagnostics_is_refused_with_sarif(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    # The fast command-line path, and typer's (`-o` is only known to typer).
    for extra in (("--max-diagnostics", "3"), ("--max-diagnostics=3", "-o", "out.sarif")):
        run = run_inwards("check", "--format", "sarif", *extra, cwd=project)
        assert run.code == 2, run.stderr
        assert run.stdout == ""
        assert run.stderr.startswith("--max-diagnostics can't be used with --format sarif")
        assert not (project / "out.sarif").exists()


def test_sarif_to_an_output_file(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", "--format", "sarif", "--output-file", "inwards.sarif", cwd=project)
    assert (run.code, run.stdout) == (1, "")
    document = valid_sarif((project / "inwards.sarif").read_text(encoding="utf-8"))
    assert len(results(document)) == len(PLANTED)


def test_under_github_actions_uris_are_relative_to_the_workspace(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    workspace = project.parent
    document = sarif(project, GITHUB_WORKSPACE=str(workspace))
    run = document["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == workspace.resolve().as_uri() + "/"
    assert {where(r)[0] for r in results(document)} == {
        f"shop-violations/{file}" for file, *_ in PLANTED
    }
    # A workspace the project is not inside changes nothing.
    elsewhere = sarif(project, GITHUB_WORKSPACE=str(project / "src"))
    assert {where(r)[0] for r in results(elsewhere)} == {file for file, *_ in PLANTED}


def test_the_sarif_multitool_accepts_our_logs(copy_example, violations: Checked) -> None:  # type: ignore[no-untyped-def]
    tool = require_multitool()
    clean = run_inwards("check", "--format", "sarif", cwd=copy_example("shop")).stdout
    valid_sarif(clean)
    logs = {"shop": clean, "shop-violations": violations.text}
    assert multitool_problems(tool, logs) == {name: [] for name in logs}


# -- github -------------------------------------------------------------------------------

COMMAND = re.compile(
    r"::(error|warning) file=([^,]+),line=(\d+),endLine=(\d+)(?:,col=\d+,endColumn=\d+)?"
    r",title=([A-Z]+\d{3}) [a-z-]+::(.+)"
)


def annotations(stdout: str) -> set[tuple[str, int, str, str]]:
    found = set()
    for line in stdout.splitlines():
        if line.startswith("::"):
            match = COMMAND.fullmatch(line)
            assert match, line
            command, file, start, _end, code, _message = match.groups()
            found.add((file, int(start), code, command))
    return found


def test_github_annotates_the_planted_violations(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards("check", "--format", "github", cwd=project, env={"GITHUB_WORKSPACE": ""})
    assert run.code == 1 and run.stderr == ""
    assert annotations(run.stdout) == PLANTED
    lines = run.stdout.splitlines()
    assert len([line for line in lines if line.startswith("::")]) == len(PLANTED)
    assert re.fullmatch(r"Found 11 errors and 3 warnings in 17 files \(\d+\.\d ms\)\.", lines[-1])
    assert (
        "::error file=src/shop/domain/discounts.py,line=6,endLine=6,col=47,endColumn=56,"
        'title=INW001 layer-dependency::Layer "domain" imports '
        '"shop.adapters.outbound.sql_orders.SqlOrders" from the outer layer "outbound".'
    ) in run.stdout


def test_github_paths_are_relative_to_the_workspace(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    run = run_inwards(
        "check", "--format", "github", cwd=project, env={"GITHUB_WORKSPACE": str(project.parent)}
    )
    assert annotations(run.stdout) == {
        (f"shop-violations/{file}", line, code, level) for file, line, code, level in PLANTED
    }
    # Without a workspace, paths are shown from where the command runs, as in text output.
    inside = run_inwards(
        "check", "--format", "github", cwd=project / "src", env={"GITHUB_WORKSPACE": ""}
    )
    files = {file for file, *_ in annotations(inside.stdout)}
    assert "shop/domain/discounts.py" in files and "../pyproject.toml" in files


def test_github_on_the_clean_example_prints_only_the_summary(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop")
    run = run_inwards("check", "--format", "github", cwd=project)
    assert run.code == 0
    assert re.fullmatch(r"All clear: no problems in \d+ files \(\d+\.\d ms\)\.\n", run.stdout)


def test_github_names_paths_it_did_not_check(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop")
    (project / "notes").mkdir()
    run = run_inwards("check", "--format", "github", "notes", "src", cwd=project)
    assert run.code == 0, run.stderr
    # A message is data: its comma and quotes stay as they are.
    assert '::warning title=inwards::notes is outside root "src", so it was not checked.\n' in (
        run.stdout
    )


def test_baselined_findings_are_external_suppressions_and_new_ones_are_new(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    written = run_inwards("baseline", cwd=project)
    assert written.code == 0, written.stderr
    document = sarif(project, expect=0)
    accepted = {(*where(r), r["ruleId"]) for r in results(document) if "suppressions" in r}
    planted_errors = {(file, line, code) for file, line, code, level in PLANTED if level == "error"}
    assert accepted == planted_errors
    for result in results(document):
        if "suppressions" in result:
            assert result["baselineState"] == "unchanged"
            assert result["suppressions"] == [
                {
                    "kind": "external",
                    "justification": "Accepted by the baseline inwards-baseline.json.",
                }
            ]
        else:
            assert (result["level"], result["baselineState"]) == ("warning", "new")
    # A second copy of an accepted import is one too many: a new, unsuppressed error.
    http = project / "src" / "shop" / "adapters" / "inbound" / "http.py"
    http.write_text(
        "from shop.adapters.outbound.sql_orders import SqlOrders\n"
        + http.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    again = sarif(project, expect=1)
    fresh = [r for r in results(again) if r["level"] == "error" and "suppressions" not in r]
    assert [(r["ruleId"], r["baselineState"]) for r in fresh] == [("INW001", "new")]
    # The annotations leave the accepted findings out.
    run = run_inwards("check", "--format", "github", cwd=project, env={"GITHUB_WORKSPACE": ""})
    assert {(code, level) for _file, _line, code, level in annotations(run.stdout)} == {
        ("INW001", "error"),
        ("INW006", "warning"),
        ("INW009", "warning"),
    }
    assert len([line for line in run.stdout.splitlines() if line.startswith("::")]) == 4
