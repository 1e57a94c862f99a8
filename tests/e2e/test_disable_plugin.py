"""--disable-plugin NAME and INWARDS_DISABLE_PLUGINS: run without a family, such as one that
fails to load, on every command that loads families."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.distributions import needs_tidy
from tests.e2e.helpers import EXAMPLES, run_inwards, write_tree


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", project)
    return project


@pytest.fixture
def broken_site(tmp_path: Path) -> dict[str, str]:
    """An installed distribution whose `inwards` plugin fails to import."""
    site = write_tree(
        tmp_path / "site",
        {
            "broken_family-0.1.dist-info/METADATA": "Name: broken-family\nVersion: 0.1\n\n",
            "broken_family-0.1.dist-info/entry_points.txt": (
                "[inwards]\nbroken = broken_family_that_is_not_there.plugin\n"
            ),
        },
    )
    return {"PYTHONPATH": str(site)}


def test_a_broken_family_stops_every_run_until_disabled(
    shop: Path, broken_site: dict[str, str]
) -> None:
    stopped = run_inwards("check", cwd=shop, env=broken_site)
    assert stopped.code == 2
    assert '"broken"' in stopped.stderr and "failed to load" in stopped.stderr
    for disable in (["--disable-plugin", "broken"], ["--disable-plugin=broken-family"]):
        fast = run_inwards("check", *disable, cwd=shop, env=broken_site)
        assert fast.code == 0, fast.stderr
        # through typer too (an option the fast path leaves to it)
        typed = run_inwards("check", "--statistics", "-h", cwd=shop, env=broken_site)
        assert "--disable-plugin" in typed.stdout
    by_variable = run_inwards(
        "check", cwd=shop, env={**broken_site, "INWARDS_DISABLE_PLUGINS": "x,broken"}
    )
    assert by_variable.code == 0
    assert '"x"' in by_variable.stderr  # unknown: a warning, the run goes on


@pytest.mark.parametrize(
    "command",
    [
        ["rules"],
        ["rule", "INW001"],
        ["status"],
        ["rules", "explain", "INW001"],
        ["schema", "definition"],
        ["rules", "new", "ACME001", "--kind", "inw.forbidden", "--to", "project", "--print"],
        ["rules", "shadow", "INW005", "--to", "project", "--print"],
        ["baseline", "--output-file", "accepted.json"],
    ],
)
def test_every_command_that_loads_families_takes_it(
    command: list[str], shop: Path, broken_site: dict[str, str]
) -> None:
    assert run_inwards(*command, cwd=shop, env=broken_site).code == 2
    done = run_inwards(*command, "--disable-plugin", "broken", cwd=shop, env=broken_site)
    assert done.code == 0, done.stderr


@needs_tidy
def test_a_disabled_familys_rules_are_absent(shop: Path) -> None:
    listed = run_inwards("rules", "--disable-plugin", "tidy", cwd=shop)
    assert listed.code == 0
    assert "TIDY001" not in listed.stdout and "INW001" in listed.stdout
    assert "TIDY001" in run_inwards("rules", cwd=shop).stdout


@needs_tidy
def test_a_shadow_of_a_disabled_familys_rule_says_why_it_has_no_kind(shop: Path) -> None:
    assert run_inwards("rules", "shadow", "TIDY001", "--to", "project", cwd=shop).code == 0
    done = run_inwards("check", "--disable-plugin", "tidy", cwd=shop)
    assert done.code == 2
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert '"tidy.star-import" is a check kind of the plugin "tidy", which this run leaves out' in (
        done.stderr
    )
    assert "TIDY001.toml aside" in done.stderr


def test_an_unknown_name_is_a_usage_warning(shop: Path) -> None:
    done = run_inwards("check", "--disable-plugin", "nope", cwd=shop)
    assert done.code == 0
    assert 'warning: no installed rule family plugin is named "nope"' in done.stderr
    assert "inw (inwards-lint)" in done.stderr


def test_without_inw_the_brief_loses_inws_lines(shop: Path) -> None:
    library = "Libraries kept out: web frameworks"
    assert library in run_inwards("context", cwd=shop).stdout
    without = run_inwards("context", cwd=shop, env={"INWARDS_DISABLE_PLUGINS": "inw"})
    assert without.code == 0, without.stderr
    assert without.stdout.startswith("## Architecture brief (inwards)\n")
    assert library not in without.stdout


def test_without_inw_explain_module_says_no_family_explains_modules(shop: Path) -> None:
    assert run_inwards("explain-module", "shop.domain", cwd=shop).code == 0
    without = run_inwards(
        "explain-module", "shop.domain", cwd=shop, env={"INWARDS_DISABLE_PLUGINS": "inw"}
    )
    assert without.code == 2
    assert "explain-module: no rule family of this run explains modules" in without.stderr


def test_without_inw_import_config_has_no_kinds_to_convert_into(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "shop"\n',
            "shop/__init__.py": "",
            ".importlinter": (
                "[importlinter]\nroot_package = shop\n[importlinter:contract:x]\nname = X\n"
                "type = independence\nmodules =\n    shop.a\n    shop.b\n"
            ),
        },
    )
    assert run_inwards("import-config", "--dry-run", cwd=tmp_path).code == 0
    without = run_inwards(
        "import-config", "--dry-run", cwd=tmp_path, env={"INWARDS_DISABLE_PLUGINS": "inw"}
    )
    assert without.code == 2
    assert "import-config: no rule family of this run has kinds for import-linter's" in (
        without.stderr
    )
