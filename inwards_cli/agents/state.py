"""`.inwards/state/`: what the agent hooks keep between the runs of one session (the start
record and the session log), private to the user who runs them.

The directory is reached without following a link: `.inwards` and `state` are opened one
step at a time from the project directory, each refused when it is a symbolic link or not a
directory, and every file in it is opened relative to that open directory (never by a path
that could be redirected between a check and a write), without following a link, as a
regular file of bounded size. Directories are made 0700 and files 0600.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from inwards_cli.adapters.atomic import write_atomically
from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file

STATE_DIR = Path(".inwards") / "state"
START_SUFFIX = ".start.json"
LOG_SUFFIX = ".jsonl"
MAX_START_BYTES = 64 * 1024 * 1024
"""A start record larger than this is not read (one of a project of 100,000 files and as
many findings takes about 15 MB)."""
MAX_LOG_BYTES = 16 * 1024 * 1024
"""A session log stops growing here (about 50,000 hook runs) and is read up to it."""
KEEP_SECONDS = 7 * 24 * 3600
KEEP_SESSIONS = 50

_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# Claude Code's session ids are UUIDs; anything else is named by its hash, so that a
# payload can't choose a file name ("../x", a NUL, a name of thousands of characters).
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")


class StateError(Exception):
    """The state directory can't be used safely; the message is one line saying why."""


def session_stem(session_id: str) -> str:
    """The stem of a session's files in the state directory."""
    if _SAFE_ID.fullmatch(session_id):
        return session_id
    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()
    return "h-" + digest[:32]


class StateDirectory:
    """An open `.inwards/state/` of one project; use it as a context manager."""

    def __init__(self, descriptor: int, shown: str) -> None:
        self._descriptor = descriptor
        self.shown = shown

    @classmethod
    def open(cls, project_dir: Path, *, create: bool) -> StateDirectory | None:
        """The state directory of `project_dir`, made when `create` and missing; None when
        it is missing and not to be made. Raises `StateError` when `.inwards` or `state` is
        a link, not a directory, or (`state`) not the user's own."""
        shown = STATE_DIR.as_posix()
        top = os.open(project_dir, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
        try:
            middle = _subdirectory(top, ".inwards", create=create, private=False)
            if middle is None:
                return None
            try:
                state = _subdirectory(middle, "state", create=create, private=True)
            finally:
                os.close(middle)
        finally:
            os.close(top)
        return None if state is None else cls(state, shown)

    def close(self) -> None:
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1

    def __enter__(self) -> StateDirectory:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- files ------------------------------------------------------------------------

    def read(self, name: str, *, max_bytes: int) -> bytes | None:
        """The bytes of the regular file `name`; None when there is none. Raises
        `StateError` for a link, anything but a regular file, or one over `max_bytes`."""
        try:
            return read_regular_file(
                name, follow_symlinks=False, max_bytes=max_bytes, dir_fd=self._descriptor
            )
        except FileNotFoundError:
            return None
        except NotARegularFileError as error:
            raise StateError(f"{self.shown}/{name} {error.strerror}.") from None
        except OSError as error:
            raise StateError(f"{self.shown}/{name} can't be read: {_why(error)}.") from None

    def write(self, name: str, data: bytes) -> None:
        """Replace `name` with `data` at once (a reader sees the old bytes or the new)."""
        write_atomically(Path(name), data, mode=0o600, dir_fd=self._descriptor)

    def append(self, name: str, data: bytes, *, max_bytes: int = MAX_LOG_BYTES) -> bool:
        """Add `data` at the end of `name` (made when missing) in one write, so that the
        lines of hook runs of one session at once don't interleave; False, and nothing
        written, once the file holds `max_bytes`."""
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC
        try:
            descriptor = os.open(name, flags, 0o600, dir_fd=self._descriptor)
        except OSError as error:
            raise StateError(f"{self.shown}/{name} can't be written: {_why(error)}.") from None
        try:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode):
                raise StateError(f"{self.shown}/{name} is not a regular file.")
            if status.st_size >= max_bytes:
                return False
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
            return True
        finally:
            os.close(descriptor)

    def entries(self) -> Iterator[tuple[str, float]]:
        """The regular files in the directory, with the time each was last changed."""
        with os.scandir(self._descriptor) as scanned:
            for entry in scanned:
                with contextlib.suppress(OSError):
                    status = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(status.st_mode):
                        yield entry.name, status.st_mtime

    def remove(self, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=self._descriptor)

    # -- the documents ----------------------------------------------------------------

    def stamp(self, name: str) -> tuple[int, int, int] | None:
        """The inode, size and modification time of `name` itself (a link is not
        followed); None when it is not there. A file written again (atomically: a new
        inode) has another stamp."""
        try:
            found = os.stat(name, dir_fd=self._descriptor, follow_symlinks=False)
        except OSError:
            return None
        return (found.st_ino, found.st_size, found.st_mtime_ns)

    def read_json(self, name: str, *, max_bytes: int) -> Any:
        """The JSON document in `name`, None when there is none; `StateError` when it
        can't be read or parsed."""
        data = self.read(name, max_bytes=max_bytes)
        if data is None:
            return None
        try:
            return json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise StateError(f"{self.shown}/{name} is not a JSON document.") from None

    def write_json(self, name: str, document: Mapping[str, Any]) -> None:
        self.write(name, dumps(document).encode("utf-8"))

    def read_lines(self, name: str) -> list[dict[str, Any]]:
        """The JSON objects of the lines of `name` (a session log); a line that is not one
        (cut by a full disk, edited by hand) is passed over."""
        data = self.read(name, max_bytes=MAX_LOG_BYTES + 1024 * 1024)
        if data is None:
            return []
        found: list[dict[str, Any]] = []
        for line in data.splitlines():
            with contextlib.suppress(UnicodeDecodeError, ValueError, RecursionError):
                value = json.loads(line.decode("utf-8"))
                if isinstance(value, dict):
                    found.append(value)
        return found

    def prune(self, keep: str, now: float) -> list[str]:
        """Remove the files of sessions last written more than `KEEP_SECONDS` before `now`,
        and of all but the newest `KEEP_SESSIONS`; never those of the session `keep`.
        Returns the stems removed."""
        latest: dict[str, float] = {}
        names: dict[str, list[str]] = {}
        for name, changed in self.entries():
            if not name.endswith((START_SUFFIX, LOG_SUFFIX)):
                continue
            stem = name.split(".", 1)[0]
            latest[stem] = max(latest.get(stem, 0.0), changed)
            names.setdefault(stem, []).append(name)
        ranked = sorted((stem for stem in latest if stem != keep), key=lambda s: -latest[s])
        dropped = [
            stem
            for rank, stem in enumerate(ranked, start=1)
            if rank >= KEEP_SESSIONS or latest[stem] < now - KEEP_SECONDS
        ]
        for stem in dropped:
            for name in names[stem]:
                self.remove(name)
        return sorted(dropped)


def dumps(document: Any) -> str:
    """JSON as the state files hold it: compact, keys sorted (the same state, the same
    bytes), non-ASCII kept."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _subdirectory(parent: int, name: str, *, create: bool, private: bool) -> int | None:
    flags = os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC
    shown = ".inwards" if name == ".inwards" else STATE_DIR.as_posix()
    try:
        descriptor = os.open(name, flags, dir_fd=parent)
    except FileNotFoundError:
        if not create:
            return None
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o700, dir_fd=parent)
        return _subdirectory(parent, name, create=False, private=private)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise StateError(
                f"{shown} is a symbolic link or not a directory; the agent hooks keep their "
                "state only in a directory of the project itself."
            ) from None
        raise StateError(f"{shown} can't be opened: {_why(error)}.") from None
    if private:
        status = os.fstat(descriptor)
        if hasattr(os, "geteuid") and status.st_uid != os.geteuid():
            os.close(descriptor)
            raise StateError(f"{shown} belongs to another user; remove it to start afresh.")
        if stat.S_IMODE(status.st_mode) & 0o077:
            os.fchmod(descriptor, 0o700)
    return descriptor


def _why(error: OSError) -> str:
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]
