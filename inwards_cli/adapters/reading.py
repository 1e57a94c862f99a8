"""Reading a file that may be hostile: only a regular file is read, and opening it never
blocks (a FIFO or a device where a file should be is refused, not waited on).

Every file inwards reads from disk comes through here: the project's sources, its
configuration, rule definitions, baselines and the cache.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["NotARegularFileError", "is_regular_file", "read_regular_file"]

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)
_CHUNK = 16 * 1024 * 1024


class NotARegularFileError(OSError):
    """The path exists but is a FIFO, a device, a socket or a directory."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(errno.EINVAL, f"is {kind}, not a regular file", os.fspath(path))


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_regular_file(
    path: str | os.PathLike[str],
    *,
    follow_symlinks: bool = True,
    max_bytes: int | None = None,
    dir_fd: int | None = None,
) -> bytes:
    """The bytes of `path` when it is a regular file. Raises `NotARegularFileError` for
    anything else, a plain `OSError` when it can't be opened or read (ELOOP for a symlink
    with `follow_symlinks=False`), and `OSError(EFBIG)` when it holds more than
    `max_bytes`. With `dir_fd` (an open directory), a relative `path` is looked up from it."""
    flags = os.O_RDONLY | _O_NONBLOCK | _O_BINARY | _O_NOCTTY
    if not follow_symlinks:
        flags |= _O_NOFOLLOW
    descriptor = os.open(path, flags, dir_fd=dir_fd)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFileError(path, _kind(status.st_mode))
        if max_bytes is not None and status.st_size > max_bytes:
            raise _too_big(path, max_bytes)
        chunks: list[bytes] = []
        size = 0
        while True:
            # Never ask for more than a chunk at once: a sparse file may claim terabytes.
            wanted = min(max(status.st_size - size, 0) + 65536, _CHUNK)
            chunk = os.read(descriptor, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if max_bytes is not None and size > max_bytes:
                raise _too_big(path, max_bytes)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _too_big(path: str | os.PathLike[str], max_bytes: int) -> OSError:
    mebibytes, rest = divmod(max_bytes, 1024 * 1024)
    limit = f"{mebibytes} MiB" if mebibytes and not rest else f"{max_bytes} bytes"
    return OSError(errno.EFBIG, f"is larger than {limit}", os.fspath(path))


def is_regular_file(path: str | Path) -> bool:
    """Whether `path` (links followed) is a regular file; False when it can't be examined."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False
