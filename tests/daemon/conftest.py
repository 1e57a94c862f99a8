"""Real daemons in real processes, each in a private runtime directory of its test (short:
a Unix socket's path has at most about 107 bytes) and stopped at the test's end, whatever
happened."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from inwards_cli.daemon.client import ask


@pytest.fixture
def runtime() -> Iterator[Path]:
    """A runtime directory (its `XDG_RUNTIME_DIR`); every daemon that served from it is
    stopped afterwards (by request, then by signal)."""
    base = Path(tempfile.mkdtemp(prefix="iwd", dir="/tmp"))
    os.chmod(base, 0o700)
    try:
        yield base
    finally:
        stop_every_daemon(base)
        shutil.rmtree(base, ignore_errors=True)


def stop_every_daemon(base: Path) -> None:
    folder = base / "inwards"
    if not folder.is_dir() or folder.is_symlink():
        return
    for socket in folder.glob("*.sock"):
        with contextlib.suppress(Exception):
            ask(str(socket), {"protocol": "inwards-daemon/1", "kind": "stop"}, None, seconds=2)
    deadline = time.monotonic() + 5
    for lock in folder.glob("*.lock"):
        with contextlib.suppress(OSError, ValueError):
            pid = int(lock.read_text().split()[0])
            while time.monotonic() < deadline and _alive(pid):
                time.sleep(0.05)
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat", encoding="ascii") as stream:
        if stream.read().split(") ", 1)[1].startswith("Z"):
            return False  # exited, not reaped yet
    return True
