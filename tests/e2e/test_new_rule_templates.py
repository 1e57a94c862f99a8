"""`inwards rules new` writes a template the next `check` accepts as it is, for every kind of
every installed family: a kind with required options gets placeholders it takes, and the
rule starts off (opt-in) until they name real code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inwards_core.api import installed_families
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
