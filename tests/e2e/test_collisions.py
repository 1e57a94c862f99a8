"""The collision policy (`[tool.inwards] on-collision`) through the installed CLI, with a
real XDG_CONFIG_HOME user root and a project directory: a team's ACME001 defined both in
a developer's user root (stricter) and in the repository (relaxed, another name)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import Run, assert_valid_output, run_inwards, write_tree


def project_files(policy: str | None) -> dict[str, str]:
    line = f'on-collision = "{policy}"\n' if policy is not None else ""
    return {
        "pyproject.toml": (
            "[tool.inwards]\n"
            f"{line}"
            "layers = [\n"
            '  { name = "domain", modules = ["shop.domain"] },\n'
            '  { name = "application", modules = ["shop.application"] },\n'
            "]\n"
            # INW005 is the core rule of the same kind: only the team's rule reports here.
            '[tool.inwards.rules]\nignore = ["INW005"]\n'
        ),
        "shop/__init__.py": "",
        "shop/domain/__init__.py": "",
        "shop/domain/order.py": "import sqlalchemy\n",
        "shop/application/__init__.py": "",
        "shop/application/service.py": "from shop.domain import order\n",
    }


def acme001(name: str, severity: str) -> str:
    """A team rule under a prefix no installed family owns (pure-domain kind)."""
    return (
        f'code = "ACME001"\nname = "{name}"\nsummary = "The domain imports a library."\n'
        f'check = "inw.pure-domain"\ndefault = "on"\nseverity = "{severity}"\n'
    )


USER_TEXT = acme001("acme-pure-domain-strict", "error")
PROJECT_TEXT = acme001("acme-pure-domain", "warning")
SEVERITY_LINE = PROJECT_TEXT.split("\n").index('severity = "warning"') + 1


class Setup:
    def __init__(self, tmp_path: Path, policy: str | None = None) -> None:
        self.project = write_tree(tmp_path / "project", project_files(policy))
        self.config_home = tmp_path / "xdg"
        self.user_file = self.config_home / "inwards" / "rules" / "ACME001.toml"
        self.project_file = self.project / ".inwards" / "rules" / "ACME001.toml"
        for path, text in ((self.user_file, USER_TEXT), (self.project_file, PROJECT_TEXT)):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    def run(self, *args: str) -> Run:
        return run_inwards(*args, cwd=self.project, env={"XDG_CONFIG_HOME": str(self.config_home)})

    def status_json(self, *args: str) -> dict[str, Any]:
        done = self.run("status", "--json", *args)
        assert done.code == 0, done.stderr
        document: dict[str, Any] = json.loads(done.stdout)
        assert_valid_output(document)
        return document


def test_status_lists_the_collision_with_both_files(tmp_path: Path) -> None:
    setup = Setup(tmp_path)
    (collision,) = setup.status_json()["collisions"]
    assert collision["code"] == "ACME001"
    assert collision["reasons"] == ["severity", "name"]
    assert collision["policy"] == "warn"
    assert collision["project"]["path"] == ".inwards/rules/ACME001.toml"
    assert Path(collision["user"]["path"]).name == "ACME001.toml"
    assert "xdg" in collision["user"]["path"]

    text = setup.run("status")
    assert text.code == 0, text.stderr
    section = text.stdout.split("Collisions (1; ", 1)[1].split("\n\n", 1)[0]
    assert section.startswith('on-collision = "warn"')
    assert "project .inwards/rules/ACME001.toml" in section
    assert f"user    {collision['user']['path']}" in section
    assert 'severity: user "error", project "warning"' in section
    assert 'name: user "acme-pure-domain-strict", project "acme-pure-domain"' in section


def test_warn_exits_as_the_findings_say_with_one_warning(tmp_path: Path) -> None:
    setup = Setup(tmp_path)
    done = setup.run("check", "--no-cache")
    # The project's definition is in force: its finding is a warning, so exit 0.
    assert done.code == 0, done.stdout + done.stderr
    assert "ACME001" in done.stdout
    warnings = [line for line in done.stderr.splitlines() if "collides with" in line]
    assert len(warnings) == 1
    (line,) = warnings
    assert line.startswith("warning: .inwards/rules/ACME001.toml: ACME001 collides with")
    assert str(setup.user_file) in line or "xdg/inwards/rules/ACME001.toml" in line
    assert "the project's definition is in force" in line

    rules = setup.run("rules")
    assert rules.code == 0 and rules.stderr.count("collides with") == 1, rules.stderr

    report = json.loads(setup.run("check", "--format", "json", "--no-cache").stdout)
    findings = [d for d in report["diagnostics"] if d["code"] == "ACME001"]
    assert findings and {d["severity"] for d in findings} == {"warning"}
    assert {d["origin"] for d in findings} == {"project"}


def test_error_stops_check_and_rules_with_exit_2(tmp_path: Path) -> None:
    setup = Setup(tmp_path, "error")
    where = f".inwards/rules/ACME001.toml:{SEVERITY_LINE}: severity: ACME001 collides with"
    for command in (("check", "--no-cache"), ("rules",)):
        done = setup.run(*command)
        assert done.code == 2, (command, done.stdout, done.stderr)
        assert where in done.stderr, done.stderr
        assert 'on-collision is "error"' in done.stderr
    status = setup.status_json()
    assert [c["policy"] for c in status["collisions"]] == ["error"]
    (project,) = [r for r in status["roots"] if r["root"] == "project"]
    assert any("on-collision" in problem for problem in project["problems"])


def test_ignore_is_silent_but_status_lists_it(tmp_path: Path) -> None:
    setup = Setup(tmp_path, "ignore")
    done = setup.run("check", "--no-cache")
    assert done.code == 0 and "collides" not in done.stderr, done.stderr
    assert [c["policy"] for c in setup.status_json()["collisions"]] == ["ignore"]


@pytest.mark.parametrize("policy", ["error", None])
def test_isolated_leaves_no_collision(tmp_path: Path, policy: str | None) -> None:
    setup = Setup(tmp_path, policy)
    done = setup.run("check", "--no-cache", "--isolated")
    assert done.code == 0 and "collides" not in done.stderr, done.stderr
    assert setup.status_json("--isolated")["collisions"] == []


def test_an_unknown_policy_is_a_config_error_at_its_line(tmp_path: Path) -> None:
    setup = Setup(tmp_path, "loud")
    done = setup.run("check", "--no-cache")
    assert done.code == 2
    assert (
        'pyproject.toml:2:1: tool.inwards.on-collision: must be one of "warn", "error", '
        '"ignore", not "loud".'
    ) in done.stderr


def test_error_is_reported_with_the_other_problems_of_a_broken_configuration(
    tmp_path: Path,
) -> None:
    """The fallback reader keeps the policy when the configuration fails elsewhere: one
    run lists the broken layer and the collision."""
    setup = Setup(tmp_path, "error")
    pyproject = setup.project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace('name = "application"', "name = 7"),
        encoding="utf-8",
    )
    done = setup.run("check", "--no-cache")
    assert done.code == 2
    assert "tool.inwards.layers[1].name" in done.stderr, done.stderr
    assert f".inwards/rules/ACME001.toml:{SEVERITY_LINE}: severity: ACME001 collides" in (
        done.stderr
    )
