"""One way to load rule families: the library (`installed_families`, `PluginHost`) and the
CLI find the same plugins through inwards_core.adapters.entry_points, and a plugin that
fails says the same thing in both."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from inwards_core import Family, FamilyLoadError, PluginHost, hookimpl, installed_families
from inwards_core.adapters.entry_points import installed_entry_points
from tests.e2e.helpers import run_inwards, write_tree

BROKEN_SITE = {
    "acme_broken.py": "raise RuntimeError('boom')\n",
    "acme_broken-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: acme-broken\nVersion: 1.0\n",
    "acme_broken-1.0.dist-info/entry_points.txt": "[inwards]\nbroken = acme_broken\n",
}
FAILED = 'The rule family plugin "broken" (acme_broken) of acme-broken 1.0 failed to load: boom'
PROJECT = {
    "pyproject.toml": '[tool.inwards]\nlayers = [{ name = "domain", modules = ["shop"] }]\n',
    "shop/__init__.py": "",
}


def test_a_plugin_that_fails_names_itself_its_target_and_its_distribution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = write_tree(tmp_path / "site", BROKEN_SITE)
    monkeypatch.syspath_prepend(str(site))
    with pytest.raises(FamilyLoadError) as caught:
        installed_families()
    assert str(caught.value) == FAILED


def test_the_cli_says_the_same(tmp_path: Path) -> None:
    site = write_tree(tmp_path / "site", BROKEN_SITE)
    project = write_tree(tmp_path / "project", PROJECT)
    for command in (("check",), ("rules",), ("schema", "config")):
        run = run_inwards(*command, cwd=project, env={"PYTHONPATH": str(site)})
        assert (run.code, run.stdout) == (2, "")
        assert run.stderr == f"error: {FAILED}\n"


def test_the_library_never_loads_a_plugin_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`python -c` and a script's REPL put the working directory on sys.path: a checkout
    holding a distribution's metadata and its module must not get them imported."""
    write_tree(tmp_path, BROKEN_SITE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend("")
    assert "INW" in {family.prefix for family in installed_families()}
    host = PluginHost.create(entry_points=installed_entry_points())
    assert "broken" not in host.plugin_distributions()


class _Misspelt:
    @hookimpl
    def inwards_register_rule_familes(self) -> Sequence[Family]:
        return []


def test_a_plugin_implementing_an_unknown_hook_is_a_load_error() -> None:
    with pytest.raises(FamilyLoadError) as caught:
        installed_families(entry_points=False, plugins=[_Misspelt()])
    assert "inwards_register_rule_familes" in str(caught.value)
