"""`inwards check` at a uv workspace root (examples/workspace), through the installed CLI:
each member with its own configuration and baseline, the root's configuration over the
rest, members without a table listed as not checked, paths to the nearest configuration,
one merged report in every format and the worst exit status; INW010 and INW005 seeing
the other members."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import Run, run_inwards, write_tree

VIOLATION = "packages/api/src/acme/api/schemas/status.py"
CONFIG_LINES = [
    "packages/api/pyproject.toml: 6 files, 1 error, 0 warnings",
    "packages/core/pyproject.toml: 4 files, 0 errors, 0 warnings",
    "pyproject.toml: 2 files, 0 errors, 0 warnings",
]


@pytest.fixture
def workspace(copy_example) -> Path:  # type: ignore[no-untyped-def]
    path: Path = copy_example("workspace")
    return path


def check(cwd: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    return run_inwards("check", "--no-cache", *args, cwd=cwd, env=env)


def as_json(cwd: Path, *args: str) -> tuple[int, dict[str, Any]]:
    run = check(cwd, "--format", "json", *args)
    assert run.code in (0, 1, 2), run.stderr
    return run.code, json.loads(run.stdout)


def add_member_without_table(workspace: Path) -> None:
    write_tree(
        workspace,
        {
            "packages/legacy/pyproject.toml": '[project]\nname = "acme-legacy"\n',
            "packages/legacy/src/acme/legacy/__init__.py": "import os\n",
        },
    )


# -- the text report -------------------------------------------------------------------


def test_each_member_is_checked_with_its_own_config(workspace: Path) -> None:
    run = check(workspace)
    assert run.code == 1, run.stderr
    lines = run.stdout.splitlines()
    assert [line for line in lines if ": INW" in line] == [
        f'{VIOLATION}:1:36: INW001 Layer "schemas" imports "acme.api.routes.health.STATUS" '
        'from the outer layer "routes". Imports may only point inwards: schemas <- routes.'
    ]
    summary = next(i for i, line in enumerate(lines) if line.startswith("Found "))
    assert lines[summary].startswith("Found 1 error and 0 warnings in 12 files (")
    assert lines[summary + 1 : summary + 4] == CONFIG_LINES


def test_paths_are_shown_from_where_the_user_stands(workspace: Path) -> None:
    run = check(workspace / "packages")
    assert run.code == 1, run.stderr
    assert "api/src/acme/api/schemas/status.py:1:36: INW001" in run.stdout
    assert "api/pyproject.toml: 6 files, 1 error, 0 warnings" in run.stdout.splitlines()
    assert "../pyproject.toml: 2 files, 0 errors, 0 warnings" in run.stdout.splitlines()


def test_concise_has_the_lines_per_config_too(workspace: Path) -> None:
    run = check(workspace, "--format", "concise")
    assert run.code == 1
    assert all(line in run.stdout.splitlines() for line in CONFIG_LINES)


def test_a_member_without_a_table_is_listed_as_not_checked(workspace: Path) -> None:
    add_member_without_table(workspace)
    run = check(workspace)
    assert run.code == 1, run.stderr
    message = "packages/legacy has no [tool.inwards] table, so it was not checked."
    assert f"warning: {message}" in run.stderr.splitlines()
    assert message not in run.stdout
    # The root's configuration leaves every member's directory to the member.
    assert "pyproject.toml: 2 files, 0 errors, 0 warnings" in run.stdout
    _, document = as_json(workspace)
    assert document["notChecked"] == [{"path": "packages/legacy", "message": message}]
    assert document["summary"]["filesChecked"] == 12


def test_members_come_from_the_globs_minus_exclude(workspace: Path) -> None:
    add_member_without_table(workspace)
    root = workspace / "pyproject.toml"
    text = root.read_text(encoding="utf-8")
    root.write_text(
        text.replace(
            'members = ["packages/*"]',
            'members = ["packages/*"]\nexclude = ["packages/leg*"]',
        ),
        encoding="utf-8",
    )
    _, document = as_json(workspace)
    assert "notChecked" not in document
    assert [c["config"] for c in document["configs"]] == [
        "packages/api/pyproject.toml",
        "packages/core/pyproject.toml",
        "pyproject.toml",
    ]


def test_a_root_without_a_table_checks_the_members_only(workspace: Path) -> None:
    root = workspace / "pyproject.toml"
    text = root.read_text(encoding="utf-8")
    root.write_text(text[: text.index("\n[tool.inwards]")], encoding="utf-8")
    code, document = as_json(workspace)
    assert code == 1
    assert [c["config"] for c in document["configs"]] == [
        "packages/api/pyproject.toml",
        "packages/core/pyproject.toml",
    ]
    assert document["summary"]["filesChecked"] == 10


# -- machine formats -------------------------------------------------------------------


def test_json_is_one_document(workspace: Path) -> None:
    code, document = as_json(workspace)
    assert code == 1
    assert document["summary"]["filesChecked"] == 12
    assert document["summary"]["violations"] == 1
    assert [d["file"] for d in document["diagnostics"]] == [VIOLATION]
    assert document["configs"][0] == {
        "config": "packages/api/pyproject.toml",
        "checked": True,
        "filesChecked": 6,
        "violations": 1,
        "warnings": 0,
        "exitCode": 1,
    }


def test_sarif_is_one_run_with_every_result(workspace: Path) -> None:
    add_member_without_table(workspace)
    run = check(workspace, "--format", "sarif")
    assert run.code == 1, run.stderr
    log = json.loads(run.stdout)
    assert len(log["runs"]) == 1
    (sarif_run,) = log["runs"]
    locations = [
        r["locations"][0]["physicalLocation"]["artifactLocation"] for r in sarif_run["results"]
    ]
    assert locations == [{"uri": VIOLATION, "uriBaseId": "%SRCROOT%"}]
    root_uri = sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert root_uri == workspace.resolve().as_uri() + "/"
    notes = sarif_run["invocations"][0]["toolExecutionNotifications"]
    assert {"path": "packages/legacy"} in [n.get("properties") for n in notes]


def test_sarif_under_github_actions_is_relative_to_the_checkout(workspace: Path) -> None:
    run = check(workspace, "--format", "sarif", env={"GITHUB_WORKSPACE": str(workspace.parent)})
    (sarif_run,) = json.loads(run.stdout)["runs"]
    (result,) = sarif_run["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == f"workspace/{VIOLATION}"


def test_github_annotations_name_the_member_files(workspace: Path) -> None:
    run = check(workspace, "--format", "github", env={"GITHUB_WORKSPACE": str(workspace.parent)})
    assert run.code == 1
    assert run.stdout.startswith(f"::error file=workspace/{VIOLATION},line=1,endLine=1,col=36,"), (
        run.stdout
    )
    lines = run.stdout.splitlines()
    assert "workspace/packages/core/pyproject.toml: 4 files, 0 errors, 0 warnings" in lines


# -- exit status -----------------------------------------------------------------------


def test_a_clean_workspace_exits_0(workspace: Path) -> None:
    (workspace / VIOLATION).write_text("def describe() -> str:\n    return 'ok'\n", "utf-8")
    run = check(workspace)
    assert run.code == 0, run.stdout + run.stderr
    assert "packages/api/pyproject.toml: 6 files, 0 errors, 0 warnings" in run.stdout


def test_a_broken_member_config_is_2_and_the_others_are_still_checked(workspace: Path) -> None:
    config = workspace / "packages/core/pyproject.toml"
    config.write_text(config.read_text("utf-8") + "bogus = 1\n", "utf-8")
    run = check(workspace)
    assert run.code == 2
    assert run.stderr.startswith("In packages/core/pyproject.toml:\nconfig error: pyproject.toml:")
    assert "bogus" in run.stderr
    assert f"{VIOLATION}:1:36: INW001" in run.stdout
    lines = run.stdout.splitlines()
    assert "packages/core/pyproject.toml: not checked (configuration error, see above)" in lines
    assert CONFIG_LINES[0] in lines
    _, document = as_json(workspace)
    core = document["configs"][1]
    assert core == {"config": "packages/core/pyproject.toml", "checked": False, "exitCode": 2}
    sarif = json.loads(check(workspace, "--format", "sarif").stdout)
    (invocation,) = sarif["runs"][0]["invocations"]
    assert (invocation["executionSuccessful"], invocation["exitCode"]) == (False, 2)
    listed = check(workspace, "--show-files")
    assert listed.code == 2 and "tools/release.py" in listed.stdout.splitlines()


def test_exit_zero_turns_errors_to_0(workspace: Path) -> None:
    assert check(workspace, "--exit-zero").code == 0


# -- paths -----------------------------------------------------------------------------


def test_each_path_goes_to_the_nearest_config(workspace: Path) -> None:
    add_member_without_table(workspace)
    code, document = as_json(
        workspace,
        "packages/core/src/acme/core/domain/order.py",
        "tools/release.py",
        VIOLATION,
        "packages/legacy/src",
    )
    assert code == 1
    configs = {c["config"]: c["filesChecked"] for c in document["configs"]}
    assert configs == {
        "packages/api/pyproject.toml": 1,
        "packages/core/pyproject.toml": 1,
        "pyproject.toml": 1,
    }
    assert [d["file"] for d in document["diagnostics"]] == [VIOLATION]
    assert document["notChecked"] == [
        {
            "path": "packages/legacy/src",
            "message": "packages/legacy/src is in packages/legacy, which has no "
            "[tool.inwards] table, so it was not checked.",
        }
    ]


def test_paths_that_check_nothing_exit_2(workspace: Path) -> None:
    add_member_without_table(workspace)
    run = check(workspace, "packages/legacy")
    assert run.code == 2
    assert "Nothing checked: 0 files" in run.stdout


def test_a_missing_path_is_a_usage_error(workspace: Path) -> None:
    run = check(workspace, "packages/nowhere.py")
    assert run.code == 2
    assert run.stderr == "packages/nowhere.py is not a file or directory.\n"


def test_config_forces_one_configuration(workspace: Path) -> None:
    run = check(workspace, "--config", "packages/core/pyproject.toml")
    assert run.code == 0, run.stderr
    assert "pyproject.toml:" not in run.stdout
    assert run.stdout.startswith("All clear: no problems in 4 files")


def test_inside_a_member_the_check_is_that_members(workspace: Path) -> None:
    run = check(workspace / "packages/api", "--format", "concise")
    assert run.code == 1
    assert run.stdout.splitlines()[0].startswith("src/acme/api/schemas/status.py:1:36: INW001")
    assert "INW010" not in run.stdout  # acme.core is another member's portion of acme
    assert "pyproject.toml:" not in run.stdout


def test_watch_and_one_baseline_are_refused_at_a_root(workspace: Path) -> None:
    run = check(workspace, "--watch")
    assert run.code == 2
    assert run.stderr.startswith("--watch follows one configuration, and pyproject.toml is a")
    run = check(workspace, "--baseline", "x.json")
    assert run.code == 2 and "--baseline names one baseline" in run.stderr
    run = check(workspace, "--explain", "INW001")
    assert run.code == 2 and "--explain explains one configuration's run" in run.stderr


# -- baselines -------------------------------------------------------------------------


def test_each_member_reads_its_own_baseline(workspace: Path) -> None:
    written = run_inwards("baseline", cwd=workspace / "packages/api")
    assert written.code == 0, written.stderr
    assert (workspace / "packages/api/inwards-baseline.json").is_file()
    run = check(workspace)
    assert run.code == 0, run.stdout
    lines = run.stdout.splitlines()
    index = lines.index("packages/api/pyproject.toml: 6 files, 0 errors, 0 warnings")
    assert lines[index + 1] == (
        "  1 finding accepted by the baseline (packages/api/inwards-baseline.json)."
    )
    _, document = as_json(workspace)
    assert document["summary"]["baselined"] == 1
    assert document["configs"][0]["baselineFile"] == "packages/api/inwards-baseline.json"
    assert check(workspace, "--no-baseline").code == 1


# -- INW010 and INW005 see the other members ---------------------------------------------


def test_inw010_finds_portions_in_other_members_and_the_venv(workspace: Path) -> None:
    write_tree(
        workspace,
        {
            ".venv/pyvenv.cfg": "home = /usr/bin\n",
            ".venv/lib/python3.11/site-packages/acme/billing/__init__.py": "",
            "packages/api/src/acme/api/routes/pay.py": (
                "from acme.billing import invoices\nfrom acme.cor import order\n"
            ),
        },
    )
    code, document = as_json(workspace)
    assert code == 1
    found = [(d["code"], d["file"], d["line"]) for d in document["diagnostics"]]
    pay = "packages/api/src/acme/api/routes/pay.py"
    assert (("INW010", pay, 2)) in found
    assert ("INW010", pay, 1) not in found
    assert [d["message"] for d in document["diagnostics"] if d["code"] == "INW010"] == [
        '"acme.cor" is not a module of this project: "acme" has no "cor".'
    ]


def test_inw005_calls_a_sibling_member_a_workspace_package(workspace: Path) -> None:
    config = workspace / "packages/api/pyproject.toml"
    config.write_text(
        config.read_text("utf-8").replace(
            '{ name = "schemas", modules = ["acme.api.schemas"] }',
            '{ name = "schemas", modules = ["acme.api.schemas"], '
            'extend-deny-libraries = ["acme.core.services"] }',
        ),
        "utf-8",
    )
    schema = workspace / "packages/api/src/acme/api/schemas/order.py"
    schema.write_text(schema.read_text("utf-8") + "from acme.core.services import checkout\n")
    _, document = as_json(workspace)
    (finding,) = [d for d in document["diagnostics"] if d["code"] == "INW005"]
    assert finding["message"] == (
        'Layer "schemas" imports "acme.core.services.checkout" from the workspace package '
        '"acme.core.services", which it may not use: "schemas" denies it.'
    )


def test_show_files_lists_every_configurations_files(workspace: Path) -> None:
    run = check(workspace, "--show-files")
    assert run.code == 0, run.stderr
    files = run.stdout.splitlines()
    assert len(files) == 12
    assert "tools/release.py" in files
    assert "packages/core/src/acme/core/domain/order.py" in files


def test_baseline_at_the_root_records_the_roots_findings_only(workspace: Path) -> None:
    (workspace / "tools/release.py").write_text("import tools.nope\n")
    root_run = check(workspace)
    assert root_run.code == 1
    written = run_inwards("baseline", cwd=workspace)
    assert written.code == 0, written.stderr
    recorded = json.loads((workspace / "inwards-baseline.json").read_text("utf-8"))
    assert [(e["code"], e["module"]) for e in recorded["entries"]] == [("INW010", "tools.release")]
    assert run_inwards("baseline", cwd=workspace / "packages/api").code == 0
    assert check(workspace).code == 0


def test_an_allowlist_refuses_a_workspace_package_it_leaves_out(workspace: Path) -> None:
    config = workspace / "packages/api/pyproject.toml"
    config.write_text(
        config.read_text("utf-8").replace(
            '{ name = "schemas", modules = ["acme.api.schemas"] }',
            '{ name = "schemas", modules = ["acme.api.schemas"], allow-libraries = [] }',
        ),
        "utf-8",
    )
    _, document = as_json(workspace)
    (finding,) = [d for d in document["diagnostics"] if d["code"] == "INW005"]
    assert finding["file"] == "packages/api/src/acme/api/schemas/order.py"
    assert finding["message"] == (
        'Layer "schemas" imports "acme.core.domain.order.Order" from the workspace package '
        '"acme.core", which it may not use: it is not in the allow-libraries of "schemas".'
    )


def test_a_directory_holding_members_names_each_to_its_own_config(workspace: Path) -> None:
    add_member_without_table(workspace)
    code, document = as_json(workspace, ".")
    assert code == 1
    configs = {c["config"]: c["filesChecked"] for c in document["configs"]}
    assert configs == {
        "packages/api/pyproject.toml": 6,
        "packages/core/pyproject.toml": 4,
        "pyproject.toml": 2,
    }
    assert [item["path"] for item in document["notChecked"]] == ["packages/legacy"]
    # packages/ holds members only: the root's configuration has nothing to check there.
    code, document = as_json(workspace / "packages", ".")
    assert [c["config"] for c in document["configs"]] == [
        "api/pyproject.toml",
        "core/pyproject.toml",
    ]
    assert [item["path"] for item in document["notChecked"]] == ["legacy"]
