"""The CLI's entry-point reader agrees with importlib.metadata."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from inwards_cli.adapters.entry_points import entry_points


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


def test_missing_and_unreadable_paths_are_skipped(tmp_path: Path) -> None:
    assert entry_points(paths=[str(tmp_path / "nowhere"), str(tmp_path)]) == []
