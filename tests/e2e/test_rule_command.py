"""`inwards rule CODE|NAME [--full] [--json]` through the installed CLI: offline pages from
the installed package and the rule roots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.helpers import REPO, Run, assert_valid_output, run_inwards, write_tree

DOCS = REPO / "docs" / "rules"
PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "application", modules = ["shop.application"] },\n'
        "]\n"
    ),
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/application/__init__.py": "",
}
SHADOW = """\
code = "INW011"
name = "dynamic-import"
summary = "Our own words for dynamic imports."
description = "We load plugins by name in one place only: shop.application.plugins."
check = "inw.dynamic-import"

[options]
report-unreadable = false

[guidance]
summary = "Load plugins through shop.application.plugins."
steps = ["Ask in #architecture first."]
"""
USER_RULE = """\
code = "ACME001"
name = "no-http-in-domain"
summary = "The domain talks HTTP."
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["requests", "httpx"]

[guidance]
summary = "Talk HTTP in an adapter behind a port the domain owns."
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "project", PROJECT)


def rule(*args: str, cwd: Path, config_home: Path | None = None) -> Run:
    env = {"XDG_CONFIG_HOME": str(config_home)} if config_home else None
    return run_inwards("rule", *args, cwd=cwd, env=env)


def test_the_short_page_has_summary_why_fix_options_and_guidance(project: Path) -> None:
    done = rule("INW005", cwd=project)
    assert done.code == 0, done.stderr
    assert done.stderr == ""
    page = done.stdout
    assert page.startswith("# INW005 pure-domain\n\nA layer imports a library it may not use.\n")
    headings = [line for line in page.split("\n") if line.startswith("## ")]
    assert headings == ["## Why is this bad?", "## How to fix", "## Options", "## Fix guidance"]
    assert (
        "| Definition | `inwards_core/families/inw/definitions/INW005.toml` (core root, family inw) |"
        in page
    )
    assert "| `modules` | list of strings | `[]` |" in page
    assert "1. Delete `{statement}`." in page
    assert "`inwards rule INW005 --full`" in page
    # The short page leaves out the long parts of the full one.
    assert "## Examples" not in page and "## What it does" not in page


@pytest.mark.parametrize("spelling", ["INW005", "inw005", "Inw005", "pure-domain", "PURE-DOMAIN"])
def test_codes_and_names_are_found_in_any_letter_case(project: Path, spelling: str) -> None:
    done = rule(spelling, cwd=project)
    assert done.code == 0, done.stderr
    assert done.stdout.startswith("# INW005 pure-domain\n")


def test_the_full_page_is_the_committed_docs_page(project: Path) -> None:
    for code in ("INW001", "INW011"):
        done = rule(code, "--full", cwd=project)
        assert done.code == 0, done.stderr
        committed = (DOCS / f"{code}.md").read_text(encoding="utf-8")
        # The same text, less the note that says how the committed page is generated.
        assert committed.startswith("<!-- Generated")
        assert done.stdout == committed.split("\n", 2)[2]


def test_json_is_a_versioned_document_with_the_page_sections(project: Path) -> None:
    short = json.loads(rule("dynamic-import", "--json", cwd=project).stdout)
    full = json.loads(rule("dynamic-import", "--json", "--full", cwd=project).stdout)
    for document in (short, full):
        assert_valid_output(document)
        assert document["schema"] == "inwards/rule@1"
        assert (document["code"], document["name"]) == ("INW011", "dynamic-import")
        assert document["origin"]["root"] == "core"
        assert document["options"] == {"modules": [], "report-unreadable": True}
    assert [s["id"] for s in short["sections"]] == [
        "why-is-this-bad",
        "how-to-fix",
        "options",
        "guidance",
    ]
    assert [s["id"] for s in full["sections"]] == [
        "what-it-does",
        "why-is-this-bad",
        "how-to-fix",
        "limitations",
        "options",
        "guidance",
        "examples",
    ]
    assert (short["full"], full["full"]) == (False, True)
    examples = full["sections"][-1]["markdown"]
    assert "`inwards check` says:" in examples and "INW011" in examples


def test_an_unknown_rule_suggests_the_closest(project: Path) -> None:
    done = rule("layer-dependancy", cwd=project)
    assert done.code == 2
    assert done.stdout == ""
    assert '"layer-dependancy" is not the code or name of any rule.' in done.stderr
    assert 'Did you mean "layer-dependency"?' in done.stderr
    assert 'Did you mean "INW011"?' in rule("INW01l", cwd=project).stderr
    nothing_close = rule("zzzzzz", cwd=project)
    assert nothing_close.code == 2 and "Did you mean" not in nothing_close.stderr


def test_a_check_kind_is_not_a_rule_but_the_message_says_what_to_do(project: Path) -> None:
    done = rule("inw.forbidden", cwd=project)
    assert done.code == 2
    assert "is a check kind, not a rule" in done.stderr
    assert "inwards rules new CODE --kind inw.forbidden --to project" in done.stderr


def test_a_project_shadow_names_its_origin_and_what_it_shadows(project: Path) -> None:
    write_tree(project, {".inwards/rules/INW011.toml": SHADOW})
    done = rule("INW011", cwd=project)
    assert done.code == 0, done.stderr
    page = done.stdout
    assert "Our own words for dynamic imports." in page
    assert "We load plugins by name in one place only" in page
    assert "| Definition | `.inwards/rules/INW011.toml` (project root) |" in page
    assert (
        "| Shadows | `inwards_core/families/inw/definitions/INW011.toml` (core root, family inw) |"
        in page
    )
    # The options the definition sets are what the rule runs with.
    assert "| `report-unreadable` | boolean | `false` |" in page
    assert "- Summary: Load plugins through shop.application.plugins." in page
    document = json.loads(rule("INW011", "--json", cwd=project).stdout)
    assert document["origin"]["root"] == "project"
    assert [s["root"] for s in document["shadows"]] == ["core"]
    assert document["options"]["report-unreadable"] is False
    # Outside the project, the shipped definition is the one in force.
    elsewhere = rule("INW011", cwd=project.parent)
    assert "(core root, family inw)" in elsewhere.stdout and "Shadows" not in elsewhere.stdout


def test_a_user_rule_of_a_generic_kind_gets_a_page(project: Path, tmp_path: Path) -> None:
    config_home = tmp_path / "xdg"
    write_tree(config_home, {"inwards/rules/ACME001.toml": USER_RULE})
    done = rule("no-http-in-domain", cwd=project, config_home=config_home)
    assert done.code == 0, done.stderr
    page = done.stdout
    assert page.startswith("# ACME001 no-http-in-domain\n\nThe domain talks HTTP.\n")
    assert "| Check kind | `inw.forbidden` |" in page
    assert "(user root) |" in page
    # The why and the fix come from the kind's module, the options from the definition.
    assert "## Why is this bad?" in page and "## How to fix" in page
    assert '| `forbidden` | list of strings | `["requests", "httpx"]` |' in page
    assert "| `allow` | list of strings | `[]` |" in page
    full = rule("ACME001", "--full", cwd=project, config_home=config_home)
    assert full.code == 0, full.stderr
    assert "## What it does" in full.stdout and "## Examples" in full.stdout
    document = json.loads(rule("acme001", "--json", cwd=project, config_home=config_home).stdout)
    assert document["origin"]["root"] == "user" and document["shadows"] == []
    # --isolated leaves the user root out, as for every command.
    isolated = rule("ACME001", "--isolated", cwd=project, config_home=config_home)
    assert isolated.code == 2


def test_a_user_rule_the_project_policy_leaves_out_is_explained(
    project: Path, tmp_path: Path
) -> None:
    config_home = tmp_path / "xdg"
    write_tree(config_home, {"inwards/rules/ACME001.toml": USER_RULE})
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace(
            "[tool.inwards]\n", '[tool.inwards]\nuser-rules = "guidance-only"\n'
        ),
        encoding="utf-8",
    )
    done = rule("ACME001", cwd=project, config_home=config_home)
    assert done.code == 2
    assert "user-rules policy leaves out" in done.stderr


def test_docs_stay_readable_in_a_project_whose_configuration_is_broken(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.inwards]\nbogus = 1\n", encoding="utf-8")
    write_tree(project, {".inwards/rules/INW011.toml": "code = 'INW011'\n"})
    done = rule("INW001", cwd=project)
    assert done.code == 0
    assert done.stdout.startswith("# INW001 layer-dependency\n")
    assert "warning: the configuration has problems" in done.stderr
    assert "INW011.toml" in done.stderr and "(this definition is not used)" in done.stderr


def test_under_guidance_only_the_page_names_where_the_guidance_comes_from(
    project: Path, tmp_path: Path
) -> None:
    config_home = tmp_path / "xdg"
    write_tree(config_home, {"inwards/rules/INW011.toml": SHADOW})
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace(
            "[tool.inwards]\n", '[tool.inwards]\nuser-rules = "guidance-only"\n'
        ),
        encoding="utf-8",
    )
    done = rule("INW011", cwd=project, config_home=config_home)
    assert done.code == 0, done.stderr
    page = done.stdout
    # The shipped definition stays in force, with the user's guidance only.
    assert (
        "| Definition | `inwards_core/families/inw/definitions/INW011.toml` (core root, family inw) |"
        in page
    )
    assert "| Guidance from | `" in page and "INW011.toml` (user root) |" in page
    assert "- Summary: Load plugins through shop.application.plugins." in page
    assert "| `report-unreadable` | boolean | `true` |" in page
    assert "Our own words" not in page
    document = json.loads(rule("INW011", "--json", cwd=project, config_home=config_home).stdout)
    assert document["origin"]["root"] == "core"
    assert document["guidanceFrom"]["root"] == "user"
