"""The one entry-point reader (inwards_core.adapters.entry_points) agrees with
importlib.metadata, and searches only the installed environment."""

from __future__ import annotations

import os
import site
import sys
from importlib import metadata
from pathlib import Path

import pytest

from inwards_core.adapters.entry_points import (
    EntryPoint,
    entry_points,
    installed_paths,
    paths_stamp,
)


def test_same_entry_points_as_importlib_metadata() -> None:
    ours = {(point.name, point.target.replace(" ", "")) for point in entry_points()}
    theirs = {
        (point.name, point.value.replace(" ", ""))
        for point in metadata.entry_points(group="inwards")
    }
    assert ours == theirs
    assert ("inw", "inwards_core.families.inw.plugin") in ours


def test_first_distribution_on_the_path_wins(tmp_path: Path) -> None:
    for folder, target in (("a", "first.plugin"), ("b", "second.plugin")):
        info = tmp_path / folder / "acme_rules-1.2.dist-info"
        info.mkdir(parents=True)
        (info / "entry_points.txt").write_text(
            f"[console_scripts]\nacme = acme:main\n\n[inwards]\nacme = {target}\n",
            encoding="utf-8",
        )
    found = entry_points(paths=[str(tmp_path / "a"), str(tmp_path / "b")])
    assert [(p.name, p.target, p.distribution, p.version) for p in found] == [
        ("acme", "first.plugin", "acme_rules", "1.2")
    ]


def test_an_install_or_uninstall_after_the_first_read_is_seen(tmp_path: Path) -> None:
    """What a process kept running reads (the language server, the daemon): the metadata
    is read again once the directory changed, and only then."""
    paths = [str(tmp_path)]
    assert entry_points(paths=paths) == []
    info = tmp_path / "acme_rules-1.2.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("[inwards]\nacme = acme.plugin\n", encoding="utf-8")
    assert [point.name for point in entry_points(paths=paths)] == ["acme"]
    stamp = paths_stamp(paths)
    (info / "entry_points.txt").write_text("[inwards]\nother = acme.plugin\n", encoding="utf-8")
    # An edit inside a metadata folder leaves the directory as it was: still the first read.
    assert paths_stamp(paths) == stamp
    assert [point.name for point in entry_points(paths=paths)] == ["acme"]
    (info / "entry_points.txt").unlink()
    info.rmdir()  # uninstalled
    assert paths_stamp(paths) != stamp
    assert entry_points(paths=paths) == []


def test_missing_and_unreadable_paths_are_skipped(tmp_path: Path) -> None:
    assert entry_points(paths=[str(tmp_path / "nowhere"), str(tmp_path)]) == []


def test_the_project_name_comes_from_the_metadata_when_a_message_needs_it(
    tmp_path: Path,
) -> None:
    info = tmp_path / "acme_rules-1.2.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("[inwards]\nacme = acme.plugin\n", encoding="utf-8")
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: Acme-Rules\nVersion: 1.2\n\nName: not a header\n",
        encoding="utf-8",
    )
    [point] = entry_points(paths=[str(tmp_path)])
    assert point.project_name() == "Acme-Rules"
    assert EntryPoint("acme", "acme.plugin", "acme_rules", "1.2").project_name() == "acme_rules"


def test_installed_paths_leave_out_the_working_directory_and_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """But not the interpreter's site-packages, even in the project (a .venv there)."""
    project = tmp_path / "project"
    venv = project / ".venv" / "lib" / "site-packages"
    for folder in (project / "src", venv, tmp_path / "tools"):
        folder.mkdir(parents=True)
    monkeypatch.chdir(project / "src")
    monkeypatch.setattr(site, "getsitepackages", lambda: [str(venv)])
    path = ["", str(project / "src"), os.curdir, str(project), str(tmp_path / "tools"), str(venv)]
    monkeypatch.setattr(sys, "path", path)
    assert installed_paths() == [str(project), str(tmp_path / "tools"), str(venv)]
    assert installed_paths(project) == [str(tmp_path / "tools"), str(venv)]
