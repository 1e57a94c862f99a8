"""Writing files so that a reader sees the old bytes or the new ones, never a mix.

One home for every file inwards writes: the cache's packs and manifest (private, 0600) and
the files people keep and commit — reports, baselines, rule definitions — which get the mode
an ordinary new file would get, or keep the mode of the file they replace. Only a regular
file is ever replaced: a device, a FIFO or a descriptor (`-o /dev/stdout`) is written in
place, and a link to a file is refused, never followed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
from pathlib import Path

TEMP_SUFFIX = ".tmp"
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def write_atomically(
    target: Path, payload: bytes, *, mode: int = 0o600, dir_fd: int | None = None
) -> None:
    """Write a sibling temp file (created with `mode` less the umask, never an existing
    file), then rename it over `target`. The temp files of writers that died before their
    rename (SIGKILL, a power cut) are removed first. With `dir_fd` (an open directory),
    `target` is a name in that directory, which no path is looked up again to reach."""
    sweep_dead_writers(target, dir_fd=dir_fd)
    # os.urandom, not `secrets`: the same bytes, without its imports on every start-up.
    temp = target.with_name(f"{target.name}.{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY
    try:
        # Opened inside the `try`: a SIGTERM (`inwards_cli.termination`) or Ctrl-C that
        # comes just after the open still removes the temp file. Its name holds our pid
        # and fresh random bits, so a file of that name can only be ours.
        descriptor = os.open(temp, flags, mode, dir_fd=dir_fd)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(payload)
        os.replace(temp, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=dir_fd)
        raise


def sweep_dead_writers(target: Path, *, dir_fd: int | None = None) -> None:
    """Remove `target`'s temp files (`<name>.<pid>.<hex>.tmp`, as `write_atomically` names
    them) whose writing process no longer runs. A live writer's, or one whose process can't
    be asked about, stays. With `dir_fd`, `target` is a name in that open directory."""
    prefix = target.name + "."
    try:
        scanned = os.scandir(target.parent if dir_fd is None else dir_fd)
    except OSError:
        return
    with scanned:
        for entry in scanned:
            if not (entry.name.startswith(prefix) and entry.name.endswith(TEMP_SUFFIX)):
                continue
            found = _TEMP_NAME.fullmatch(entry.name[len(prefix) :])
            if found is None or not _gone(int(found.group(1))):
                continue
            with contextlib.suppress(OSError):
                if entry.is_file(follow_symlinks=False):
                    os.unlink(entry.path if dir_fd is None else entry.name, dir_fd=dir_fd)


_TEMP_NAME = re.compile(r"([0-9]{1,10})\.[0-9a-f]{8}" + re.escape(TEMP_SUFFIX))


def _gone(pid: int) -> bool:
    if os.name != "posix" or pid == os.getpid() or pid <= 0:
        return False  # elsewhere os.kill(pid, 0) would end the process, not ask about it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, but not ours to signal
        return False
    return False


def write_user_file(target: Path, payload: bytes) -> None:
    """A file people keep (a report, a baseline, a rule definition), written as `cp` would
    but never through a link to a file:

    - nothing there: its folder is created and a new file gets 0666 less the umask;
    - a regular file: replaced atomically, keeping its mode; refused when read-only;
    - a device or a FIFO (links followed): written in place, never replaced;
    - a descriptor alias (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N): written to
      that descriptor of this process;
    - any other symbolic link (to a regular file, a directory or nothing): refused.

    Raises `RefusedTargetError` for a refusal and OSError for a failed write (the old file,
    if any, is then untouched); callers turn both into a message naming the file."""
    descriptor = descriptor_alias(target)
    if descriptor is not None:
        _write_to_descriptor(descriptor, payload)
        return
    try:
        status = os.lstat(target)
    except FileNotFoundError:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, payload, mode=0o666)
        return
    if stat.S_ISLNK(status.st_mode):
        _write_through_link(target, payload)
    elif stat.S_ISREG(status.st_mode):
        _replace_regular_file(target, payload, status)
    elif stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(target))
    else:
        _write_in_place(target, payload, follow_symlinks=False)


class RefusedTargetError(OSError):
    """A target inwards will not write: a read-only file, or a symbolic link that does not
    lead to a device, a FIFO or one of our descriptors."""

    def __init__(self, target: Path, reason: str) -> None:
        super().__init__(errno.EPERM, reason, str(target))


def failure_reason(error: OSError) -> str:
    """The why of a failed write for a message: "no space left on device", "is read-only"."""
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]


_STANDARD_ALIASES = {"/dev/stdout": 1, "/dev/stderr": 2}
_DESCRIPTOR_ALIAS = re.compile(r"/(?:dev/fd|proc/self/fd)/([0-9]{1,9})")


def descriptor_alias(target: str | os.PathLike[str]) -> int | None:
    """The descriptor number `target` names (/dev/stdout, /dev/stderr, /dev/fd/N,
    /proc/self/fd/N), or None. Judged from the name as given, not from the disk."""
    if os.name != "posix":
        return None
    named = "/" + os.path.abspath(target).lstrip("/")  # "//dev/stdout" is /dev/stdout too
    if named in _STANDARD_ALIASES:
        return _STANDARD_ALIASES[named]
    found = _DESCRIPTOR_ALIAS.fullmatch(named)
    return None if found is None else int(found.group(1))


def _write_all(descriptor: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        view = view[os.write(descriptor, view) :]


def _write_to_descriptor(descriptor: int, payload: bytes) -> None:
    # Written to the descriptor itself, as /dev/fd means on BSD and macOS: opening
    # /proc/self/fd/N on Linux would start a new offset at 0 (clobbering what is before it
    # in a file opened for appending) and can't open a socket at all.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()  # what we printed before comes first
    _write_all(descriptor, payload)


def _write_through_link(target: Path, payload: bytes) -> None:
    """Only a link to something that isn't a file is written through: a link committed at
    the path a CI job writes to (`report.sarif -> ~/.bashrc`) must not choose what we
    overwrite or create."""
    leads_to = os.path.realpath(target)
    try:
        final = os.stat(target)
    except FileNotFoundError:
        raise RefusedTargetError(
            target,
            f"is a symbolic link to {leads_to}, which does not exist; inwards does not "
            "create files through links (remove the link or name another file)",
        ) from None
    if stat.S_ISREG(final.st_mode) or stat.S_ISDIR(final.st_mode):
        what = "file" if stat.S_ISREG(final.st_mode) else "directory"
        raise RefusedTargetError(
            target,
            f"is a symbolic link to the {what} {leads_to}; inwards does not write through "
            "links (remove the link, or name the file itself)",
        )
    _write_in_place(target, payload, follow_symlinks=True)


def _replace_regular_file(target: Path, payload: bytes, status: os.stat_result) -> None:
    # No write permission bit at all counts as read-only too: as root os.access says yes to
    # every file, and a 0444 report or baseline was made read-only on purpose (cp refuses it).
    if status.st_mode & 0o222 == 0 or not os.access(target, os.W_OK):
        raise RefusedTargetError(target, "is read-only; make it writable or name another file")
    write_atomically(target, payload, mode=0o666)
    with contextlib.suppress(OSError):
        os.chmod(target, stat.S_IMODE(status.st_mode))


def _write_in_place(target: Path, payload: bytes, *, follow_symlinks: bool) -> None:
    """A device or a FIFO is opened and written, never replaced (`-o /dev/null` as root
    must not turn /dev/null into a file). The open doesn't wait: a FIFO that nothing reads
    yet is an error, not a run that hangs until someone opens it."""
    flags = os.O_WRONLY | _O_NOCTTY | _O_BINARY | _O_NONBLOCK
    flags |= 0 if follow_symlinks else _O_NOFOLLOW
    try:
        descriptor = os.open(target, flags)  # no O_CREAT: if it vanished, that is an error
    except OSError as error:
        if error.errno == errno.ENXIO and stat.S_ISFIFO(os.stat(target).st_mode):
            raise RefusedTargetError(
                target, "is a FIFO that nothing reads; start its reader first"
            ) from None
        raise
    try:
        if _O_NONBLOCK:
            os.set_blocking(descriptor, True)  # the writes may wait for a slow reader
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISREG(mode):  # it changed since we looked: don't write into a file's head
            raise RefusedTargetError(target, "changed while it was being written; try again")
        _write_all(descriptor, payload)
    finally:
        os.close(descriptor)
