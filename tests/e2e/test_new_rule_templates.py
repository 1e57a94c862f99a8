"""`inwards rules new` writes a template the next `check` accepts as it is, for every kind of
every installed family: a kind with required options gets placeholders it takes, and the
rule starts off (opt-in) until they name real code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inwards_core.api import installed_families
from inwards_core.rules.scaffold import FIX_STEP, FIX_SUMMARY, RULE_SUMMARY
from tests.e2e.helpers import EXAMPLES, run_inwards

KINDS = sorted(kind.id for family in installed_families() for kind in family.kinds)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("templates") / "shop"
    shutil.copytree(EXAMPLES / "shop", project)
    return project


@pytest.mark.parametrize("kind", KINDS)
def test_a_fresh_template_checks_cleanly(kind: str, shop: Path) -> None:
    rules = shop / ".inwards" / "rules"
    shutil.rmtree(rules, ignore_errors=True)
    written = run_inwards("rules", "new", "ACME001", "--kind", kind, "--to", "project", cwd=shop)
    assert written.code == 0, written.stderr
    text = (rules / "ACME001.toml").read_text(encoding="utf-8")
    checked = run_inwards("check", cwd=shop)
    assert checked.code == 0, checked.stdout + checked.stderr
    assert "ACME001" not in checked.stdout  # no finding, no warning about placeholders
    listed = run_inwards("rules", cwd=shop)
    assert "ACME001" in listed.stdout  # it resolved
    if "replace the placeholder" in text:
        assert 'default = "opt-in"' in text
        assert 'then set default = "on"' in text


def test_a_required_option_is_never_said_to_have_a_default(shop: Path) -> None:
    shutil.rmtree(shop / ".inwards" / "rules", ignore_errors=True)
    done = run_inwards(
        "rules", "new", "ACME002", "--kind", "inw.forbidden", "--to", "project", "--print", cwd=shop
    )
    assert done.code == 0, done.stderr
    lines = done.stdout.splitlines()
    for key in ("modules", "forbidden"):
        comment = next(line for line in lines if line.startswith(f"# {key} ("))
        assert "required" in comment and "default" not in comment
    # Defaults are written as TOML, as the user would write them.
    assert "# indirect (true or false), default: false" in done.stdout or (
        "# indirect (bool), default: false" in done.stdout
    )


def test_placeholders_left_in_a_definition_are_named_by_new_and_warned_about(
    shop: Path,
) -> None:
    """`rules new` names the keys to fill in; until they are, every run that loads the rules
    warns about each text left (file, line, key), on stderr, never failing the run; the
    texts come from one place, inwards_core.rules.scaffold."""
    rules = shop / ".inwards" / "rules"
    shutil.rmtree(rules, ignore_errors=True)
    written = run_inwards(
        "rules", "new", "ACME003", "--kind", "inw.forbidden", "--to", "project", cwd=shop
    )
    assert written.code == 0, written.stderr
    assert written.stdout == f"{rules / 'ACME003.toml'}\n"
    path = rules / "ACME003.toml"
    lines = path.read_text(encoding="utf-8").splitlines()

    def line_of(text: str) -> int:
        return next(number for number, line in enumerate(lines, 1) if text in line)

    wanted = {
        "summary": line_of(f'summary = "{RULE_SUMMARY}"'),
        "options.modules": line_of("modules = ["),
        "options.forbidden": line_of("forbidden = ["),
        "guidance.summary": line_of(f'summary = "{FIX_SUMMARY}"'),
        "guidance.steps[1]": line_of(FIX_STEP),
    }
    named = ", ".join(f"{key} (line {line})" for key, line in wanted.items())
    assert f"Fill in what the template leaves to you: {named} " in written.stderr
    # Turned on, with its options filled in but its texts left: findings carry the texts,
    # and the run says where each is.
    text = path.read_text(encoding="utf-8").replace('default = "opt-in"', 'default = "on"')
    text = text.replace('modules = ["CHANGE.ME"]', 'modules = ["shop.domain"]')
    path.write_text(text.replace('forbidden = ["CHANGE.ME"]', 'forbidden = ["decimal"]'))
    for command in (("check", "--no-cache"), ("rules",), ("rule", "ACME003")):
        run = run_inwards(*command, cwd=shop)
        warned = [line for line in run.stderr.splitlines() if "placeholder" in line]
        keys = ("summary", "guidance.summary", "guidance.steps[1]")
        assert tuple(w.split(": ")[2] for w in warned) == keys, run.stderr
        for warning, key in zip(warned, keys, strict=True):
            assert warning.startswith(f"warning: .inwards/rules/ACME003.toml:{wanted[key]}:")
        if command[0] == "check":
            assert run.code == 1  # the rule's findings, not the placeholders, fail it
            assert FIX_SUMMARY in run.stdout
    # The author's own words: no warning left.
    text = path.read_text(encoding="utf-8")
    for placeholder in (RULE_SUMMARY, FIX_SUMMARY, FIX_STEP):
        text = text.replace(placeholder, "Keep decimal out of the domain.")
    path.write_text(text)
    run = run_inwards("check", "--no-cache", cwd=shop)
    assert "placeholder" not in run.stderr and run.code == 1


def test_a_placeholder_warning_never_fails_a_run(shop: Path) -> None:
    rules = shop / ".inwards" / "rules"
    shutil.rmtree(rules, ignore_errors=True)
    assert (
        run_inwards(
            "rules", "new", "ACME004", "--kind", "inw.acyclic", "--to", "project", cwd=shop
        ).code
        == 0
    )
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=shop)
    assert run.code == 0, run.stderr
    assert run.stderr.count("ACME004.toml") == 3
