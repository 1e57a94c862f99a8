"""THREE-ROOTS.md, statement by statement, through the installed CLI as a subprocess, with
real files under a temporary XDG_CONFIG_HOME and project directory."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import REPO, Run, assert_valid_output, run_inwards, write_tree

CORE = REPO / "inwards_core" / "families" / "inw" / "definitions"

PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "application", modules = ["shop.application"] },\n'
        '  { name = "bootstrap", modules = ["shop.bootstrap"] },\n'
        "]\n"
    ),
    "shop/bootstrap.py": "",
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/order.py": "import sqlalchemy\n",
    "shop/application/__init__.py": "",
    "shop/application/service.py": (
        "import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n"
    ),
}


def core_text(code: str) -> str:
    return (CORE / f"{code}.toml").read_text(encoding="utf-8")


def edited(rule: str, **changes: str) -> str:
    """The core definition of `rule` with top-level `key = value` lines replaced, or added
    after `name` (a core definition leaves out `summary`: its kind's stands in)."""
    lines = core_text(rule).split("\n")
    top = next(i for i, line in enumerate(lines) if line.startswith("["))
    for key, value in changes.items():
        index = next((i for i in range(top) if lines[i].startswith(f"{key} = ")), None)
        if index is None:
            index = next(i for i in range(top) if lines[i].startswith("name = ")) + 1
            lines.insert(index, "")
            top += 1
        lines[index] = f"{key} = {value}"
    return "\n".join(lines)


def new_rule(code: str, name: str, *, severity: str = "error", summary: str = "Local rule") -> str:
    """A rule of the pure-domain kind under a code no family owns."""
    return (
        f'code = "{code}"\nname = "{name}"\nsummary = "{summary}"\n'
        f'check = "inw.pure-domain"\nseverity = "{severity}"\n\n'
        f'[guidance]\nsummary = "{summary}: keep {{library}} out."\n'
    )


class Roots:
    """A project and a user root in a temporary directory."""

    def __init__(self, tmp_path: Path) -> None:
        self.project = write_tree(tmp_path / "project", PROJECT)
        self.config_home = tmp_path / "xdg"
        self.user = self.config_home / "inwards" / "rules"
        self.project_rules = self.project / ".inwards" / "rules"

    def add_user(self, name: str, text: str | bytes) -> Path:
        return self._write(self.user / name, text)

    def add_project(self, name: str, text: str | bytes) -> Path:
        return self._write(self.project_rules / name, text)

    @staticmethod
    def _write(path: Path, text: str | bytes) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def run(self, *args: str, env: dict[str, str] | None = None) -> Run:
        environment = {"XDG_CONFIG_HOME": str(self.config_home), **(env or {})}
        return run_inwards(*args, cwd=self.project, env=environment)

    def check_json(self, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
        done = self.run("check", "--format", "json", "--no-cache", *args, env=env)
        assert done.code in (0, 1), done.stderr
        document: dict[str, Any] = json.loads(done.stdout)
        assert_valid_output(document)
        return document

    def rules_json(self, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
        done = self.run("rules", "--json", *args, env=env)
        assert done.code == 0, done.stderr
        document: dict[str, Any] = json.loads(done.stdout)
        assert_valid_output(document)
        return document

    def status_json(self, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
        done = self.run("status", "--json", *args, env=env)
        assert done.code == 0, done.stderr
        document: dict[str, Any] = json.loads(done.stdout)
        assert_valid_output(document)
        return document


@pytest.fixture
def roots(tmp_path: Path) -> Roots:
    return Roots(tmp_path)


def rule_row(document: dict[str, Any], code: str) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in document["rules"] if r["code"] == code)
    return row


def findings(document: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [d for d in document["diagnostics"] if d["code"] == code]


def root_row(status: dict[str, Any], root: str) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in status["roots"] if r["root"] == root)
    return row


# -- precedence and shadowing -----------------------------------------------------------


def test_core_only_findings_carry_the_core_origin(roots: Roots) -> None:
    report = roots.check_json()
    assert {d["code"] for d in report["diagnostics"]} == {"INW005", "INW011"}
    assert {d["origin"] for d in report["diagnostics"]} == {"core"}
    assert report["ruleSet"]["userDefinitions"] == []
    assert len(report["ruleSet"]["fingerprint"]) == 64


def test_project_beats_user_beats_core(roots: Roots) -> None:
    roots.add_user("INW011.toml", edited("INW011", summary='"user copy"', severity='"warning"'))
    roots.add_project("INW011.toml", edited("INW011", summary='"project copy"'))
    row = rule_row(roots.rules_json(), "INW011")
    assert row["origin"]["root"] == "project"
    assert [d["root"] for d in row["shadows"]] == ["user", "core"]
    assert row["summary"] == "project copy"
    assert row["severity"] == "error"  # nothing of the user copy survives
    report = roots.check_json()
    assert [d["origin"] for d in findings(report, "INW011")] == ["project"]
    text = roots.run("check", "--no-cache")
    assert "INW011 [project rule]" in text.stdout


def test_a_user_shadow_applies_when_the_project_has_none(roots: Roots) -> None:
    roots.add_user("INW011.toml", edited("INW011", severity='"warning"'))
    report = roots.check_json()
    (finding,) = findings(report, "INW011")
    assert finding["origin"] == "user"
    assert finding["severity"] == "warning"
    assert report["ruleSet"]["userDefinitions"] == [
        {"code": "INW011", "effect": "shadows core", "path": str(roots.user / "INW011.toml")}
    ]
    text = roots.run("check", "--no-cache")
    assert "INW011 (warning) [user rule]" in text.stdout
    assert "User rule definitions in effect" in text.stdout


def test_shadowing_is_whole_file(roots: Roots) -> None:
    # The shadow has no [guidance] table: the core guidance must not leak through.
    text = core_text("INW011").split("[guidance]")[0]
    roots.add_project("INW011.toml", text)
    (finding,) = findings(roots.check_json(), "INW011")
    assert finding["fix"] == {"summary": "", "steps": []}
    assert finding["docs"] == "inwards rule INW011"  # no docs of its own: the page offline


def test_a_user_only_rule_runs(roots: Roots) -> None:
    roots.add_user("ACME001.toml", new_rule("ACME001", "acme-no-orm"))
    report = roots.check_json()
    (finding,) = findings(report, "ACME001")
    assert finding["origin"] == "user"
    assert finding["file"] == "shop/domain/order.py"
    assert finding["fix"]["summary"] == "Local rule: keep sqlalchemy out."
    assert report["ruleSet"]["userDefinitions"][0]["effect"] == "new"


def test_a_project_only_rule_runs(roots: Roots) -> None:
    roots.add_project("ACME001.toml", new_rule("ACME001", "acme-no-orm", severity="warning"))
    (finding,) = findings(roots.check_json(), "ACME001")
    assert (finding["origin"], finding["severity"]) == ("project", "warning")


def test_a_user_rule_shadowed_by_a_project_rule(roots: Roots) -> None:
    roots.add_user("ACME001.toml", new_rule("ACME001", "acme-no-orm", summary="User"))
    roots.add_project("ACME001.toml", new_rule("ACME001", "acme-no-orm", summary="Project"))
    (finding,) = findings(roots.check_json(), "ACME001")
    assert finding["origin"] == "project"
    assert finding["fix"]["summary"].startswith("Project")
    status = roots.status_json()
    assert root_row(status, "user")["new"] == ["ACME001"]
    assert root_row(status, "project")["shadowing"] == {"user": ["ACME001"]}
    text = roots.run("status").stdout
    assert "1 rule: 1 new (ACME001)" in text
    assert "1 rule: 1 shadowing a user rule (ACME001)" in text


def test_status_counts_shadows_per_direction(roots: Roots) -> None:
    roots.add_user("INW005.toml", core_text("INW005"))
    roots.add_user("INW011.toml", core_text("INW011"))
    roots.add_user("ACME001.toml", new_rule("ACME001", "acme-no-orm"))
    roots.add_project("INW011.toml", core_text("INW011"))
    roots.add_project("INW001.toml", core_text("INW001"))
    status = roots.status_json()
    user = root_row(status, "user")
    project = root_row(status, "project")
    assert (user["definitions"], user["shadowing"], user["new"]) == (
        3,
        {"core": ["INW005", "INW011"]},
        ["ACME001"],
    )
    assert (project["definitions"], project["shadowing"], project["new"]) == (
        2,
        {"core": ["INW001"], "user": ["INW011"]},
        [],
    )
    # INW001, INW005, INW011 twice; and what an installed org rule pack shadows (the example
    # pack, tests/rule-packs, rewords FAPI006)
    org = sum(len(codes) for codes in root_row(status, "org")["shadowing"].values())
    assert status["totals"]["shadowed"] == 4 + org
    text = roots.run("status").stdout
    assert "3 rules: 2 shadowing core rules (INW005, INW011), 1 new (ACME001)" in text
    assert "2 rules: 1 shadowing a core rule (INW001), 1 shadowing a user rule (INW011)" in text


def test_selection_applies_after_resolution(roots: Roots) -> None:
    pyproject = roots.project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.inwards.rules]\nignore = ["INW011"]\n', encoding="utf-8"
    )
    roots.add_project("INW011.toml", edited("INW011", severity='"warning"'))
    row = rule_row(roots.rules_json(), "INW011")
    assert (row["enabled"], row["decidedBy"], row["origin"]["root"]) == (
        False,
        "rules.ignore",
        "project",
    )
    assert findings(roots.check_json(), "INW011") == []
    assert roots.status_json()["totals"]["disabledByConfig"] == ["INW011"]


# -- roots on disk ------------------------------------------------------------------------


def test_absent_roots_are_fine_and_named(roots: Roots) -> None:
    status = roots.status_json()
    assert root_row(status, "user")["state"] == "absent"
    assert root_row(status, "project")["state"] == "absent"
    assert root_row(status, "user")["location"] == str(roots.user)
    done = roots.run("check", "--no-cache")
    assert done.code == 1 and done.stderr == ""


def test_user_root_from_inwards_user_rules_dir(roots: Roots, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere).mkdir()
    (elsewhere / "INW011.toml").write_text(edited("INW011", severity='"warning"'))
    (finding,) = findings(
        roots.check_json(env={"INWARDS_USER_RULES_DIR": str(elsewhere)}), "INW011"
    )
    assert finding["origin"] == "user"


def test_a_relative_xdg_config_home_is_ignored_with_a_warning(roots: Roots, tmp_path: Path) -> None:
    home = tmp_path / "home"
    rules = home / ".config" / "inwards" / "rules"
    rules.mkdir(parents=True)
    (rules / "INW011.toml").write_text(edited("INW011", severity='"warning"'))
    env = {"XDG_CONFIG_HOME": "relative/config", "HOME": str(home)}
    done = roots.run("check", "--no-cache", "--format", "json", env=env)
    assert "XDG_CONFIG_HOME" in done.stderr and "relative" in done.stderr
    (finding,) = findings(json.loads(done.stdout), "INW011")
    assert finding["origin"] == "user"  # the default ~/.config was used instead
    status = roots.status_json(env=env)
    assert root_row(status, "user")["location"] == str(rules)
    assert "relative" in root_row(status, "user")["warning"]


def test_an_unset_xdg_config_home_means_the_home_config(roots: Roots, tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"XDG_CONFIG_HOME": "", "HOME": str(home)}
    status = roots.status_json(env=env)
    assert root_row(status, "user")["location"] == str(home / ".config" / "inwards" / "rules")


def test_an_unreadable_user_root_warns_and_the_run_goes_on(roots: Roots) -> None:
    roots.user.parent.mkdir(parents=True)
    roots.user.write_text("not a directory")
    done = roots.run("check", "--no-cache")
    assert done.code == 1
    assert f"warning: {roots.user}: is not a directory." in done.stderr
    assert root_row(roots.status_json(), "user")["state"] == "unreadable"


def test_an_unreadable_project_root_is_a_config_error(roots: Roots) -> None:
    roots.project_rules.parent.mkdir(parents=True)
    roots.project_rules.write_text("not a directory")
    done = roots.run("check", "--no-cache")
    assert done.code == 2
    assert done.stdout == ""
    assert "config error:" in done.stderr and "is not a directory" in done.stderr


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions")
def test_a_user_root_without_permission_is_reported(roots: Roots) -> None:
    roots.add_user("INW011.toml", core_text("INW011"))
    roots.user.chmod(0)
    try:
        done = roots.run("check", "--no-cache")
        assert done.code == 1
        assert "warning:" in done.stderr and "permission denied" in done.stderr
        assert root_row(roots.status_json(), "user")["state"] == "unreadable"
    finally:
        roots.user.chmod(0o755)


def test_symlinked_roots_and_files_are_followed_once(roots: Roots, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "inwards-rules"
    real.mkdir(parents=True)
    (real / "INW011.toml").write_text(edited("INW011", severity='"warning"'))
    roots.user.parent.mkdir(parents=True)
    roots.user.symlink_to(real, target_is_directory=True)
    (real / "group").mkdir()
    (real / "group" / "INW011.toml").symlink_to(real / "INW011.toml")  # same file twice
    done = roots.run("check", "--no-cache", "--format", "json")
    assert done.stderr == ""
    (finding,) = findings(json.loads(done.stdout), "INW011")
    assert (finding["origin"], finding["severity"]) == ("user", "warning")
    assert root_row(roots.status_json(), "user")["definitions"] == 1


def test_a_symlink_loop_is_reported_not_followed(roots: Roots) -> None:
    roots.add_project("INW011.toml", core_text("INW011"))
    (roots.project_rules / "loop").symlink_to(roots.project_rules, target_is_directory=True)
    done = roots.run("check", "--no-cache")
    assert done.code == 2
    assert "loop" in done.stderr and "config error:" in done.stderr
    roots.user.mkdir(parents=True)
    (roots.user / "loop").symlink_to(roots.user, target_is_directory=True)
    (roots.project_rules / "loop").unlink()
    done = roots.run("check", "--no-cache")
    assert done.code == 1 and "warning:" in done.stderr and "loop" in done.stderr


def test_a_broken_symlink_in_a_root_is_named(roots: Roots, tmp_path: Path) -> None:
    roots.project_rules.mkdir(parents=True)
    (roots.project_rules / "INW011.toml").symlink_to(tmp_path / "gone.toml")
    done = roots.run("check", "--no-cache")
    assert done.code == 2 and "INW011.toml" in done.stderr and "broken link" in done.stderr


# -- bad input, per root ---------------------------------------------------------------

BAD_DEFINITIONS: list[tuple[str, dict[str, str], str]] = [
    ("not-toml", {"INW011.toml": 'code = "INW011\n'}, "is not valid TOML"),
    (
        "unknown-key",
        {"INW011.toml": 'colour = "red"\n' + core_text("INW011")},
        "colour: is not a definition key",
    ),
    ("wrong-type", {"INW011.toml": edited("INW011", suppressible='"yes"')}, "suppressible:"),
    (
        "unknown-kind",
        {"INW011.toml": edited("INW011", check='"inw.no-such-kind"')},
        '"inw.no-such-kind" is not a check kind',
    ),
    (
        "family-not-installed",
        {"INW011.toml": edited("INW011", check='"flask.blueprint-wiring"')},
        '"flask.blueprint-wiring" is not a check kind',
    ),
    (
        "options-rejected",
        {"INW005.toml": core_text("INW005") + '\n[options]\nmodules = "shop"\n'},
        "options.modules",
    ),
    ("code-file-mismatch", {"INW011.toml": edited("INW011", code='"INW001"')}, "they must agree"),
    (
        "two-files-one-code",
        {"INW011.toml": core_text("INW011"), "inw011.toml": core_text("INW011")},
        "is defined twice",
    ),
    (
        "same-code-other-name",
        {"INW011.toml": edited("INW011", name='"dynamic-imports-please"')},
        "a shadow keeps the name",
    ),
    (
        "same-name-other-code",
        {"ACME001.toml": new_rule("ACME001", "dynamic-import")},
        '"dynamic-import" is already the name of INW011',
    ),
    (
        "owned-prefix",
        {"INW777.toml": new_rule("INW777", "inw-seven")},
        "the prefix INW, which the installed family",
    ),
]


@pytest.mark.parametrize(
    ("files", "message"),
    [pytest.param(files, message, id=name) for name, files, message in BAD_DEFINITIONS],
)
def test_a_broken_project_definition_is_a_config_error(
    roots: Roots, files: dict[str, str], message: str
) -> None:
    for name, text in files.items():
        roots.add_project(name, text)
    done = roots.run("check", "--no-cache")
    assert done.code == 2, done.stdout
    assert done.stdout == ""
    assert "config error:" in done.stderr
    assert message in done.stderr
    assert ".inwards/rules/" in done.stderr


@pytest.mark.parametrize(
    ("files", "message"),
    [pytest.param(files, message, id=name) for name, files, message in BAD_DEFINITIONS],
)
def test_a_broken_user_definition_warns_and_the_lower_one_stays(
    roots: Roots, files: dict[str, str], message: str
) -> None:
    for name, text in files.items():
        roots.add_user(name, text)
    done = roots.run("check", "--no-cache", "--format", "json")
    assert done.code == 1
    assert "warning:" in done.stderr and message in done.stderr
    assert str(roots.user) in done.stderr
    report = json.loads(done.stdout)
    assert {d["origin"] for d in report["diagnostics"]} == {"core"}
    assert {d["code"] for d in report["diagnostics"]} == {"INW005", "INW011"}
    status = roots.status_json()
    assert any(message in problem for problem in root_row(status, "user")["problems"])


def test_problem_messages_name_the_line_and_column_of_the_key(roots: Roots) -> None:
    path = roots.add_project("INW011.toml", edited("INW011", severity='"fatal"'))
    line = next(
        number
        for number, text in enumerate(path.read_text().split("\n"), 1)
        if text.startswith("severity")
    )
    done = roots.run("check", "--no-cache")
    assert f".inwards/rules/INW011.toml:{line}:1: severity:" in done.stderr


# -- policy and --isolated ---------------------------------------------------------------


def set_policy(roots: Roots, value: str) -> None:
    pyproject = roots.project / "pyproject.toml"
    text = pyproject.read_text().replace(
        "[tool.inwards]\n", f'[tool.inwards]\nuser-rules = "{value}"\n'
    )
    pyproject.write_text(text, encoding="utf-8")


def user_setup(roots: Roots) -> None:
    shadow = edited("INW011", severity='"warning"').replace(
        core_text("INW011").split("[guidance]")[1].split("\n")[1], 'summary = "From my laptop."'
    )
    # A copy made before guidance variants existed: its guidance is every finding's.
    shadow = shadow.split("[guidance.variants.")[0]
    roots.add_user("INW011.toml", shadow)
    roots.add_user("ACME001.toml", new_rule("ACME001", "acme-no-orm"))


def test_user_rules_on(roots: Roots) -> None:
    user_setup(roots)
    report = roots.check_json()
    assert findings(report, "INW011")[0]["severity"] == "warning"
    assert len(findings(report, "ACME001")) == 1


def test_user_rules_guidance_only_takes_guidance_and_nothing_else(roots: Roots) -> None:
    user_setup(roots)
    set_policy(roots, "guidance-only")
    report = roots.check_json()
    (finding,) = findings(report, "INW011")
    assert finding["severity"] == "error"  # the core severity stays
    assert finding["fix"]["summary"] == "From my laptop."
    assert findings(report, "ACME001") == []
    assert report["ruleSet"]["userDefinitions"] == [
        {"code": "INW011", "effect": "guidance only", "path": str(roots.user / "INW011.toml")}
    ]
    row = rule_row(roots.rules_json(), "INW011")
    assert row["origin"]["root"] == "core" and row["guidanceFrom"]["root"] == "user"
    assert roots.status_json()["totals"]["ignoredByPolicy"] == ["ACME001"]


@pytest.mark.parametrize("how", ["policy-off", "isolated"])
def test_user_rules_off_and_isolated_ignore_the_user_root(roots: Roots, how: str) -> None:
    user_setup(roots)
    extra: tuple[str, ...] = ()
    if how == "policy-off":
        set_policy(roots, "off")
    else:
        extra = ("--isolated",)
    report = roots.check_json(*extra)
    assert {d["origin"] for d in report["diagnostics"]} == {"core"}
    assert findings(report, "ACME001") == []
    assert report["ruleSet"]["userDefinitions"] == []
    user = root_row(roots.status_json(*extra), "user")
    assert user["state"] == "ignored"
    assert ("--isolated" if how == "isolated" else 'user-rules = "off"') in user["note"]
    assert "ACME001" not in {r["code"] for r in roots.rules_json(*extra)["rules"]}


def test_isolated_does_not_hide_a_broken_project_rule(roots: Roots) -> None:
    roots.add_project("INW011.toml", 'code = "INW011\n')
    assert roots.run("check", "--isolated").code == 2


# -- digests ---------------------------------------------------------------------------


def test_digests_change_on_deletion_rename_and_same_size_edit(roots: Roots) -> None:
    first = roots.add_user("INW011.toml", core_text("INW011"))
    roots.add_user("INW005.toml", core_text("INW005"))

    def user_digest() -> str:
        digest: str = root_row(roots.status_json(), "user")["digest"]
        return digest

    start = user_digest()
    assert user_digest() == start  # stable
    text = first.read_text()
    first.write_text(text.replace('severity = "error"', 'severity = "errar"'))  # same size
    assert first.stat().st_size == len(text.encode())
    edited_digest = user_digest()
    assert edited_digest != start
    first.write_text(text)
    assert user_digest() == start
    first.rename(roots.user / "sub-INW011.toml")
    assert user_digest() != start
    (roots.user / "sub-INW011.toml").unlink()
    assert user_digest() not in (start, edited_digest)


def test_status_says_which_root_changed_since_the_last_check(roots: Roots) -> None:
    roots.add_project("INW011.toml", core_text("INW011"))
    assert {r["changedSinceLastCheck"] for r in roots.status_json()["roots"]} == {None}
    assert roots.run("check").code == 1  # with the cache: records the digests
    assert {r["changedSinceLastCheck"] for r in roots.status_json()["roots"]} == {False}
    roots.add_user("INW005.toml", core_text("INW005"))
    status = roots.status_json()
    assert root_row(status, "user")["changedSinceLastCheck"] is True
    assert root_row(status, "project")["changedSinceLastCheck"] is False


def test_the_fingerprint_follows_the_active_rules_only(roots: Roots) -> None:
    base = roots.check_json()["ruleSet"]["fingerprint"]
    roots.add_project("INW011.toml", core_text("INW011") + "\n# a comment\n")
    shadowed = roots.check_json()["ruleSet"]["fingerprint"]
    assert shadowed != base
    roots.add_user("INW011.toml", edited("INW011", severity='"warning"'))  # shadowed anyway
    assert roots.check_json()["ruleSet"]["fingerprint"] == shadowed


def test_editing_a_rule_never_reparses(roots: Roots) -> None:
    assert roots.run("check").code == 1
    pack = next((roots.project / ".inwards" / "cache").glob("extraction-*/facts.json"))
    before = pack.stat().st_mtime_ns, pack.read_bytes()
    roots.add_project("INW011.toml", edited("INW011", severity='"warning"'))
    assert roots.run("check").code == 1
    assert (pack.stat().st_mtime_ns, pack.read_bytes()) == before


# -- shadow, new, explain --------------------------------------------------------------


def test_shadow_copies_the_bytes_and_records_the_base(roots: Roots) -> None:
    done = roots.run("rules", "shadow", "dynamic-import", "--to", "project")
    assert done.code == 0, done.stderr
    path = roots.project_rules / "INW011.toml"
    assert done.stdout.strip() == str(path)
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # a file to commit, not a private one
    text = path.read_text()
    # The shipped header gives way to one saying what the copy is and what it overrides;
    # the rest is the core definition's text, then [shadow].
    header, _, rest = text.partition('code = "INW011"')
    assert header.startswith("# Shadow copy of INW011, made by `inwards rules shadow INW011")
    assert "core definition shipped with inwards-lint" in header
    assert "overrides that definition in this project" in header
    assert "Core definition of" not in text
    body = core_text("INW011").partition('code = "INW011"')[2]
    assert rest.startswith(body)
    tail = rest[len(body) :]
    assert (
        "[shadow]" in tail and 'root = "core"' in tail and 'distribution = "inwards-lint"' in tail
    )
    import hashlib

    assert hashlib.sha256((CORE / "INW011.toml").read_bytes()).hexdigest() in tail
    row = rule_row(roots.rules_json(), "INW011")
    assert row["origin"]["root"] == "project" and row["stale"] is None


def test_shadow_refuses_to_overwrite_without_force(roots: Roots) -> None:
    path = roots.add_project("INW011.toml", "# mine\n" + core_text("INW011"))
    before = path.read_bytes()
    done = roots.run("rules", "shadow", "INW011", "--to", "project")
    assert done.code == 2 and "--force" in done.stderr
    assert path.read_bytes() == before
    # The base of a project shadow is the definition in force below the project root.
    roots.add_user("INW011.toml", edited("INW011", severity='"warning"'))
    assert roots.run("rules", "shadow", "INW011", "--to", "project", "--force").code == 0
    copied = path.read_text()
    assert "\n# from the user definition " in copied  # its header names the user copy
    assert edited("INW011", severity='"warning"').partition("\ncode =")[2] in copied
    assert 'root = "user"' in copied


def test_shadow_print_writes_nothing(roots: Roots) -> None:
    done = roots.run("rules", "shadow", "INW005", "--to", "user", "--print")
    assert done.code == 0 and done.stdout.startswith("# Shadow copy of INW005")
    assert "overrides that definition for you, in every project" in done.stdout
    assert core_text("INW005").partition("\ncode =")[2] in done.stdout
    assert not roots.user.exists()


def test_shadow_warns_when_a_higher_root_already_shadows(roots: Roots) -> None:
    roots.add_project("INW011.toml", core_text("INW011"))
    done = roots.run("rules", "shadow", "INW011", "--to", "user")
    assert done.code == 0
    assert (roots.user / "INW011.toml").exists()  # the directory was created
    assert "warning:" in done.stderr and "no effect" in done.stderr


def test_shadow_refuses_codes_defined_nowhere_below(roots: Roots) -> None:
    roots.add_project("ACME001.toml", new_rule("ACME001", "acme-no-orm"))
    done = roots.run("rules", "shadow", "ACME001", "--to", "user")
    assert done.code == 2 and "nothing to shadow" in done.stderr
    done = roots.run("rules", "shadow", "INW099", "--to", "user")
    assert done.code == 2 and 'Did you mean "INW009"' in done.stderr


def test_a_stale_shadow_is_reported_everywhere(roots: Roots) -> None:
    roots.add_user("INW011.toml", edited("INW011", severity='"warning"'))
    assert roots.run("rules", "shadow", "INW011", "--to", "project").code == 0
    assert roots.run("check", "--no-cache").stderr == ""
    # The definition the copy was based on changes (as core does on an upgrade).
    roots.add_user("INW011.toml", edited("INW011", severity='"warning"') + "\n# v2\n")
    check = roots.run("check", "--no-cache")
    assert check.code == 1
    assert "warning:" in check.stderr and "stale shadow of INW011" in check.stderr
    status = roots.run("status")
    assert "Stale shadows (1):" in status.stdout
    explain = roots.run("rules", "explain", "INW011")
    assert "STALE:" in explain.stdout
    assert rule_row(roots.rules_json(), "INW011")["stale"]


def test_explain_shows_the_chain_and_a_diff(roots: Roots) -> None:
    roots.add_user("INW011.toml", edited("INW011", severity='"warning"'))
    done = roots.run("rules", "explain", "inw011")
    assert done.code == 0, done.stderr
    assert "in force: the user definition" in done.stdout
    assert '-severity = "error"' in done.stdout and '+severity = "warning"' in done.stdout
    assert "inwards_core/families/inw/definitions/INW011.toml" in done.stdout
    document = json.loads(roots.run("rules", "explain", "dynamic-import", "--json").stdout)
    assert [d["root"] for d in document["chain"]] == ["user", "core"]


def test_new_writes_a_template_that_resolves(roots: Roots) -> None:
    done = roots.run("rules", "new", "ACME007", "--kind", "inw.pure-domain", "--to", "project")
    assert done.code == 0, done.stderr
    path = roots.project_rules / "ACME007.toml"
    assert path.read_text().startswith("# ACME007")
    row = rule_row(roots.rules_json(), "ACME007")
    assert (row["origin"]["root"], row["kind"]) == ("project", "inw.pure-domain")
    again = roots.run("rules", "new", "ACME007", "--kind", "inw.pure-domain", "--to", "project")
    assert again.code == 2 and "already exists" in again.stderr


def test_new_refuses_a_prefix_a_family_owns_and_unknown_kinds(roots: Roots) -> None:
    owned = roots.run("rules", "new", "INW777", "--kind", "inw.pure-domain", "--to", "user")
    assert owned.code == 2 and "belongs to the installed family" in owned.stderr
    unknown = roots.run("rules", "new", "ACME001", "--kind", "inw.nope", "--to", "user")
    assert unknown.code == 2 and "Known kinds" in unknown.stderr
    assert not roots.user.exists()


def test_the_example_shop_commits_a_project_rule(tmp_path: Path) -> None:
    import shutil

    shop = tmp_path / "shop"
    shutil.copytree(REPO / "examples" / "shop", shop, ignore=shutil.ignore_patterns(".inwards"))
    shutil.copytree(REPO / "examples" / "shop" / ".inwards" / "rules", shop / ".inwards" / "rules")
    clean = run_inwards("check", "--no-cache", cwd=shop)
    assert clean.code == 0, clean.stdout
    listed = json.loads(run_inwards("rules", "--json", cwd=shop).stdout)
    row = rule_row(listed, "SHOP001")
    assert (row["origin"]["root"], row["kind"], row["enabled"]) == (
        "project",
        "inw.protected",
        True,
    )
    place_order = shop / "src" / "shop" / "application" / "place_order.py"
    place_order.write_text(
        place_order.read_text() + "from shop.adapters.outbound.sql_orders import SqlOrders\n"
    )
    report = json.loads(run_inwards("check", "--no-cache", "--format", "json", cwd=shop).stdout)
    (finding,) = findings(report, "SHOP001")
    assert (finding["file"], finding["origin"]) == (
        "src/shop/application/place_order.py",
        "project",
    )


@pytest.mark.parametrize(
    "content", [b"{not json", b'{"schema": "inwards/rule-roots@3", "tables": []}', b"\xff\xfe"]
)
def test_a_corrupt_rule_manifest_is_ignored_and_rewritten(roots: Roots, content: bytes) -> None:
    roots.add_project("INW011.toml", edited("INW011", severity='"warning"'))
    assert roots.run("check").code == 1
    manifest = roots.project / ".inwards" / "cache" / "rule-roots.json"
    manifest.write_bytes(content)
    done = roots.run("check", "--format", "json")
    assert done.code == 1 and done.stderr == ""
    (finding,) = findings(json.loads(done.stdout), "INW011")
    assert finding["severity"] == "warning"
    assert json.loads(manifest.read_bytes())["schema"] == "inwards/rule-roots@3"
