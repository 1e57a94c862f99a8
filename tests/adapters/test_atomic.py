"""write_user_file: only a regular file is replaced; devices, FIFOs and descriptors are
written in place; links to files and read-only files are refused."""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path

import pytest

from inwards_cli.adapters.atomic import (
    RefusedTargetError,
    descriptor_alias,
    failure_reason,
    write_user_file,
)
from inwards_cli.definition_files import refuse_links_out

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")


@posix_only
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/dev/stdout", 1),
        ("/dev/stderr", 2),
        ("/dev/fd/0", 0),
        ("/dev/fd/17", 17),
        ("/proc/self/fd/1", 1),
        ("/proc/self/fd/255", 255),
        ("//dev/./stdout", 1),  # as the kernel would read it
        ("/dev/fd/../fd/3", 3),
        ("/dev/stdin", None),
        ("/dev/null", None),
        ("/dev/fd/x", None),
        ("/dev/fd/", None),
        ("/proc/1/fd/1", None),  # another process's descriptor is not ours to write
        ("/proc/self/fd/1/x", None),
        ("/tmp/dev/stdout", None),
        ("report.txt", None),
    ],
)
def test_descriptor_alias(path: str, expected: int | None) -> None:
    assert descriptor_alias(path) == expected


def test_failure_reason_starts_in_lower_case_and_keeps_the_rest() -> None:
    assert failure_reason(OSError(errno.ENOSPC, "No space left on device")) == (
        "no space left on device"
    )
    refused = RefusedTargetError(Path("r"), "is a symbolic link to /Home/X/.bashrc")
    assert failure_reason(refused) == "is a symbolic link to /Home/X/.bashrc"


def test_a_new_file_and_its_folders_are_created(tmp_path: Path) -> None:
    target = tmp_path / "ci" / "reports" / "inwards.json"
    write_user_file(target, b"{}\n")
    assert target.read_bytes() == b"{}\n"
    assert [p.name for p in target.parent.iterdir()] == ["inwards.json"]


@posix_only
def test_a_regular_file_is_replaced_keeping_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    target.write_bytes(b"old")
    target.chmod(0o640)
    inode = target.stat().st_ino
    write_user_file(target, b"new")
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.stat().st_ino != inode


@posix_only
@pytest.mark.parametrize("mode", [0o444, 0o400, 0o000])
def test_a_file_without_write_bits_is_read_only_even_for_root(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "report.txt"
    target.write_bytes(b"old")
    target.chmod(mode)
    with pytest.raises(RefusedTargetError, match="is read-only"):
        write_user_file(target, b"new")
    target.chmod(0o600)
    assert target.read_bytes() == b"old"


@posix_only
def test_a_link_to_a_file_is_refused_naming_where_it_leads(tmp_path: Path) -> None:
    victim = tmp_path / "bashrc"
    victim.write_bytes(b"keep")
    link = tmp_path / "report.sarif"
    link.symlink_to(victim)
    with pytest.raises(RefusedTargetError) as refused:
        write_user_file(link, b"new")
    assert refused.value.filename == str(link)
    assert f"is a symbolic link to the file {victim}" in failure_reason(refused.value)
    assert victim.read_bytes() == b"keep" and link.is_symlink()


@posix_only
def test_a_dangling_link_is_refused_and_nothing_is_created(tmp_path: Path) -> None:
    link = tmp_path / "report.sarif"
    link.symlink_to(tmp_path / "elsewhere" / "new-file")
    with pytest.raises(RefusedTargetError, match="which does not exist"):
        write_user_file(link, b"new")
    assert not (tmp_path / "elsewhere").exists()


@posix_only
def test_a_link_to_a_directory_or_a_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    link = tmp_path / "link"
    link.symlink_to(folder)
    with pytest.raises(RefusedTargetError, match="the directory"):
        write_user_file(link, b"new")
    with pytest.raises(IsADirectoryError):
        write_user_file(folder, b"new")
    assert list(folder.iterdir()) == []


@posix_only
def test_a_link_to_a_device_is_written_through(tmp_path: Path) -> None:
    link = tmp_path / "discard"
    link.symlink_to(os.devnull)
    write_user_file(link, b"gone")
    assert link.is_symlink()
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@posix_only
def test_a_fifo_is_written_in_place_when_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_user_file(fifo, b"report\n")
        assert os.read(reader, 100) == b"report\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@posix_only
def test_a_fifo_nobody_reads_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(RefusedTargetError, match="is a FIFO that nothing reads"):
        write_user_file(fifo, b"report\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@posix_only
def test_a_descriptor_alias_writes_to_that_descriptor(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    try:
        write_user_file(Path(f"/dev/fd/{write_end}"), b"to the pipe")
        assert os.read(read_end, 100) == b"to the pipe"
    finally:
        os.close(read_end)
        os.close(write_end)


@posix_only
def test_a_closed_descriptor_is_an_error(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    os.close(write_end)
    with pytest.raises(OSError) as failed:
        write_user_file(Path(f"/proc/self/fd/{write_end}"), b"x")
    assert failed.value.errno == errno.EBADF


@posix_only
def test_links_leading_out_of_the_project_are_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    outside = tmp_path / "outside"
    (project / "data").mkdir(parents=True)
    outside.mkdir()
    target = project / ".inwards" / "rules" / "INW001.toml"
    refuse_links_out(project, target)  # nothing there yet: fine
    (project / ".inwards").symlink_to("data")  # stays inside: fine
    refuse_links_out(project, target)
    (project / "data" / "rules").symlink_to(outside)
    with pytest.raises(RefusedTargetError) as refused:
        refuse_links_out(project, target)
    assert refused.value.filename == str(project / ".inwards" / "rules")
    assert f"is a symbolic link to {outside}, outside the project" in str(refused.value)
    (project / "data" / "rules").unlink()
    (project / "data" / "rules").symlink_to(tmp_path / "missing")  # dangling, outside
    with pytest.raises(RefusedTargetError):
        refuse_links_out(project, target)
    refuse_links_out(project, tmp_path / "elsewhere.toml")  # not under the project: not judged
