"""`.inwards/state/`: private, never reached through a link, bounded, pruned."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from inwards_cli.agents.state import (
    KEEP_SECONDS,
    KEEP_SESSIONS,
    StateDirectory,
    StateError,
    session_stem,
)


def test_session_ids_become_safe_file_stems() -> None:
    assert session_stem("6f1c3a52-94d0-4b7e-8a21-5c0e9b7d3f18") == (
        "6f1c3a52-94d0-4b7e-8a21-5c0e9b7d3f18"
    )
    for hostile in ("../../etc/passwd", "a/b", ".hidden", "x" * 500, "nul\0byte", "dot.ted"):
        stem = session_stem(hostile)
        assert stem.startswith("h-") and len(stem) == 34 and "/" not in stem
    assert session_stem("a/b") != session_stem("a/c")


def test_made_private_and_read_back(tmp_path: Path) -> None:
    assert StateDirectory.open(tmp_path, create=False) is None
    with StateDirectory.open(tmp_path, create=True) as state:  # type: ignore[union-attr]
        state.write_json("s.start.json", {"b": 1, "a": [1, 2]})
        assert state.append("s.jsonl", b'{"event": "Stop"}\n')
        assert state.append("s.jsonl", b"not json\n")
        assert state.read_json("s.start.json", max_bytes=100) == {"a": [1, 2], "b": 1}
        assert state.read_lines("s.jsonl") == [{"event": "Stop"}]
        assert state.read_json("absent.json", max_bytes=100) is None
    directory = tmp_path / ".inwards" / "state"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert (directory / "s.start.json").read_text() == '{"a":[1,2],"b":1}'
    for name in ("s.start.json", "s.jsonl"):
        assert stat.S_IMODE((directory / name).stat().st_mode) == 0o600


def test_a_wider_state_directory_is_made_private_again(tmp_path: Path) -> None:
    (tmp_path / ".inwards" / "state").mkdir(parents=True)
    os.chmod(tmp_path / ".inwards" / "state", 0o777)
    StateDirectory.open(tmp_path, create=True).close()  # type: ignore[union-attr]
    assert stat.S_IMODE((tmp_path / ".inwards" / "state").stat().st_mode) == 0o700


@pytest.mark.parametrize("linked", [".inwards", ".inwards/state"])
def test_never_through_a_link(tmp_path: Path, linked: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "state").mkdir(parents=True)
    project = tmp_path / "project"
    (project / ".inwards").mkdir(parents=True)
    if linked == ".inwards":
        os.rmdir(project / ".inwards")
        os.symlink(elsewhere, project / ".inwards")
    else:
        os.symlink(elsewhere / "state", project / ".inwards" / "state")
    with pytest.raises(StateError, match="is a symbolic link or not a directory"):
        StateDirectory.open(project, create=True)
    assert list((elsewhere / "state").iterdir()) == []


def test_files_are_not_read_or_written_through_links(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text('{"secret": true}')
    with StateDirectory.open(tmp_path, create=True) as state:  # type: ignore[union-attr]
        os.symlink(outside, tmp_path / ".inwards" / "state" / "s.start.json")
        os.symlink(outside, tmp_path / ".inwards" / "state" / "s.jsonl")
        with pytest.raises(StateError):
            state.read_json("s.start.json", max_bytes=100)
        with pytest.raises(StateError):
            state.append("s.jsonl", b"{}\n")
        state.write_json("s.start.json", {"fresh": True})  # replaces the link itself
    assert outside.read_text() == '{"secret": true}'
    assert not (tmp_path / ".inwards" / "state" / "s.start.json").is_symlink()


def test_reads_and_appends_are_bounded(tmp_path: Path) -> None:
    with StateDirectory.open(tmp_path, create=True) as state:  # type: ignore[union-attr]
        state.write("big.json", b"x" * 200)
        with pytest.raises(StateError, match="is larger than 100 bytes"):
            state.read("big.json", max_bytes=100)
        assert state.append("s.jsonl", b"x" * 50, max_bytes=40)
        assert not state.append("s.jsonl", b"more\n", max_bytes=40)
        assert state.read("s.jsonl", max_bytes=100) == b"x" * 50


def test_old_and_surplus_sessions_are_pruned(tmp_path: Path) -> None:
    now = 10_000_000.0
    with StateDirectory.open(tmp_path, create=True) as state:  # type: ignore[union-attr]
        directory = tmp_path / ".inwards" / "state"
        for number in range(KEEP_SESSIONS + 5):
            for suffix in (".start.json", ".jsonl"):
                path = directory / f"s{number:03d}{suffix}"
                path.write_text("{}")
                os.utime(path, (now - number, now - number))
        old = directory / "ancient.start.json"
        old.write_text("{}")
        os.utime(old, (now - KEEP_SECONDS - 1, now - KEEP_SECONDS - 1))
        (directory / "notes.txt").write_text("not a session file")
        removed = state.prune("s054", now)
    left = {path.name.split(".")[0] for path in directory.iterdir()}
    assert "ancient" in removed and "ancient" not in left
    assert "s054" in left  # the running session, though the oldest
    assert len(left - {"notes"}) == KEEP_SESSIONS
    assert {f"s{n:03d}" for n in range(KEEP_SESSIONS - 1)} <= left


def test_a_stamp_changes_when_a_document_is_written_again(tmp_path: Path) -> None:
    """What lets the daemon keep a parsed start record while its file is unchanged."""
    with StateDirectory.open(tmp_path, create=True) as state:  # type: ignore[union-attr]
        assert state.stamp("s.start.json") is None
        state.write_json("s.start.json", {"a": 1})
        first = state.stamp("s.start.json")
        assert first is not None and first == state.stamp("s.start.json")
        state.write_json("s.start.json", {"a": 2})  # same size, written atomically
        assert state.stamp("s.start.json") not in (None, first)
        os.symlink(tmp_path / "elsewhere", tmp_path / ".inwards/state/link.json")
        assert state.stamp("link.json") is not None  # the link itself, not followed
