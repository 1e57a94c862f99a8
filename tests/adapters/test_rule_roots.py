"""read_root on real trees: links out of the project, the walk's bounds, what is read."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from inwards_cli.adapters import root_walk
from inwards_cli.adapters.root_walk import read_root
from inwards_core.model.findings import RootKind
from inwards_core.ports import RootState

DEFINITION = b'code = "ACME001"\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # problems name paths relative to the working directory
    rules = tmp_path / "project" / ".inwards" / "rules"
    rules.mkdir(parents=True)
    (rules / "ACME001.toml").write_bytes(DEFINITION)
    return tmp_path / "project"


def messages(report: root_walk.RootReport) -> list[str]:
    return [f"{problem.path}: {problem.message}" for problem in report.problems]


def test_links_out_of_the_project_are_reported_in_the_project_root(
    project: Path, tmp_path: Path
) -> None:
    rules = project / ".inwards" / "rules"
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "ACME002.toml").write_bytes(b'code = "ACME002"\n')
    (rules / "all").symlink_to("/")
    (rules / "ACME002.toml").symlink_to(tmp_path / "elsewhere" / "ACME002.toml")
    (rules / "inside").symlink_to(project / ".inwards" / "shared", target_is_directory=True)
    (project / ".inwards" / "shared").mkdir()
    (project / ".inwards" / "shared" / "ACME003.toml").write_bytes(b'code = "ACME003"\n')
    report, documents = read_root(RootKind.PROJECT, rules, confine_to=project)
    outside = os.path.realpath(tmp_path / "elsewhere" / "ACME002.toml")
    assert messages(report) == [
        "project/.inwards/rules/ACME002.toml: is a symbolic link to "
        f"{outside}, outside the project directory; it was not followed.",
        "project/.inwards/rules/all: is a symbolic link to /, outside the project directory; "
        "it was not followed.",
    ]
    assert [d.relative for d in documents] == ["ACME001.toml", "inside/ACME003.toml"]


def test_links_out_of_the_user_root_are_followed(project: Path, tmp_path: Path) -> None:
    rules = project / ".inwards" / "rules"
    (tmp_path / "dotfiles").mkdir()
    (tmp_path / "dotfiles" / "ACME002.toml").write_bytes(b'code = "ACME002"\n')
    (rules / "shared").symlink_to(tmp_path / "dotfiles", target_is_directory=True)
    report, documents = read_root(RootKind.USER, rules)
    assert report.problems == ()
    assert [d.relative for d in documents] == ["ACME001.toml", "shared/ACME002.toml"]


def test_a_project_root_that_leads_out_of_the_project_is_not_read(
    project: Path, tmp_path: Path
) -> None:
    (tmp_path / "shared-rules").mkdir()
    elsewhere = project / ".inwards" / "elsewhere"
    elsewhere.symlink_to(tmp_path / "shared-rules", target_is_directory=True)
    report, documents = read_root(RootKind.PROJECT, elsewhere, confine_to=project)
    assert report.state is RootState.UNREADABLE and documents == ()
    assert "outside the project directory; it was not followed." in messages(report)[0]


def test_the_walk_stops_after_max_root_entries(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(root_walk, "MAX_ROOT_ENTRIES", 5)
    rules = project / ".inwards" / "rules"
    for group in ("a", "b"):
        (rules / group).mkdir()
        for number in range(3):
            (rules / group / f"ACME{group.upper()}{number:02}.toml").write_bytes(b"")
    report, documents = read_root(RootKind.USER, rules)
    # The root holds 3 entries and a/ 3 more: past 5, so the walk stops at a/.
    assert messages(report) == [
        "project/.inwards/rules: holds more than 5 files, folders and links (counting what "
        "links lead to); the walk stopped at project/.inwards/rules/a, so some definitions "
        "were not read."
    ]
    assert [d.relative for d in documents] == ["ACME001.toml"]


def test_a_link_to_the_root_directory_ends_within_the_bound(project: Path) -> None:
    rules = project / ".inwards" / "rules"
    (rules / "everything").symlink_to("/")
    started = time.monotonic()
    report, _ = read_root(RootKind.USER, rules)
    assert time.monotonic() - started < 3
    ended = [line for line in messages(report) if "the walk stopped" in line]
    more = [line for line in messages(report) if "more problems than the 20" in line]
    # A small machine may hold fewer than 10000 entries within 8 folders of `/`.
    assert len(report.problems) <= root_walk.MAX_ROOT_PROBLEMS + 2
    assert len(ended) <= 1 and len(more) <= 1


def test_problems_past_the_cap_are_counted(project: Path) -> None:
    rules = project / ".inwards" / "rules"
    for number in range(root_walk.MAX_ROOT_PROBLEMS + 5):
        (rules / f"BROKEN{number:03}.toml").symlink_to(rules / f"gone{number}")
    report, _ = read_root(RootKind.USER, rules)
    assert len(report.problems) == root_walk.MAX_ROOT_PROBLEMS + 1
    assert messages(report)[-1] == (
        "project/.inwards/rules: has 5 more problems than the 20 named here."
    )


def test_folders_deeper_than_max_root_depth_are_not_read(project: Path) -> None:
    rules = project / ".inwards" / "rules"
    deep = rules.joinpath(*[f"g{level}" for level in range(root_walk.MAX_ROOT_DEPTH + 1)])
    deep.mkdir(parents=True)
    (deep / "ACME009.toml").write_bytes(b"")
    (deep.parent / "ACME008.toml").write_bytes(b"")
    report, documents = read_root(RootKind.USER, rules)
    assert [problem.path.rsplit("/", 1)[-1] for problem in report.problems] == [deep.name]
    assert "folders deep below the root" in report.problems[0].message
    assert sorted(d.relative.rsplit("/", 1)[-1] for d in documents) == [
        "ACME001.toml",
        "ACME008.toml",
    ]


def test_only_regular_files_of_bounded_size_are_read(project: Path, tmp_path: Path) -> None:
    rules = project / ".inwards" / "rules"
    os.mkfifo(tmp_path / "fifo")
    (rules / "ACME002.toml").symlink_to(tmp_path / "fifo")  # not a file: passed over
    big = rules / "ACME003.toml"
    big.write_bytes(b"")
    os.truncate(big, root_walk.MAX_DEFINITION_BYTES + 1)
    report, documents = read_root(RootKind.USER, rules)
    assert messages(report) == [
        "project/.inwards/rules/ACME003.toml: is larger than 1024 KiB, too large for a definition."
    ]
    assert [d.relative for d in documents] == ["ACME001.toml"]
