"""Writing files so that a reader sees the old bytes or the new ones, never a mix.

One home for every file inwards writes: the cache's packs and manifest (private, 0600) and
the files people keep and commit — reports, baselines, rule definitions — which get the mode
an ordinary new file would get, or keep the mode of the file they replace.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

TEMP_SUFFIX = ".tmp"
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


def write_atomically(target: Path, payload: bytes, *, mode: int = 0o600) -> None:
    """Write a sibling temp file (created with `mode` less the umask, never an existing
    file), then rename it over `target`."""
    temp = target.with_name(f"{target.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY
    descriptor = os.open(temp, flags, mode)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(payload)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def write_user_file(target: Path, payload: bytes) -> None:
    """A file people keep (a report, a baseline, a rule definition): its folder is created,
    a replaced file keeps its mode, a new one gets the usual 0666 less the umask.
    Raises OSError; callers turn it into a message naming the file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = target.stat().st_mode & 0o777 if target.is_file() else None
    except OSError:
        mode = None
    write_atomically(target, payload, mode=0o666)
    if mode is not None:
        with contextlib.suppress(OSError):
            os.chmod(target, mode)
