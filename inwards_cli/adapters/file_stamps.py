"""The digests of the project's files, known from their stat without reading them.

`.inwards/cache/stamps.json` records, for each source file a whole-project check hashed,
its size, modification and change times (ns), inode and device with the sha256 of its
bytes. A later run that finds the same stat takes the recorded digest and reads nothing;
any difference (an edit, a `touch`, a file replaced by a rename or a checkout) reads and
hashes the file again, and the digest decides.

A stat can't tell apart two writes within one tick of the file system's clock, so, as git
does with its index, a file changed within `RACY_SECONDS` of the moment it was hashed is
not recorded: the next run reads it again. The change time (which no program can set back)
is recorded where it means one (POSIX); on Windows it is the creation time and left out.

The record is a cache like the others (see docs/hostile-input.md, "The cache's trust
model"): damaged, oversized or written by another version, it is ignored; `--verify-cache`
hashes every file and names each record that disagrees with the file's bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inwards_cli.adapters.atomic import write_atomically
from inwards_cli.adapters.disk_cache import locked, make_cache_directory, symlinked_component
from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_cli.adapters.reading import read_regular_file
from inwards_core.ports import ProjectFiles, ProjectListing
from inwards_core.verification import CacheMismatch

__all__ = ["RACY_SECONDS", "STAMPS_NAME", "FileStamps", "StampedProjectFiles"]

STAMPS_NAME = "stamps.json"
STAMPS_FORMAT = 1
MAX_STAMPS_BYTES = 128 * 1024 * 1024
RACY_SECONDS = 2  # coarser than any file system's clock tick that inwards meets
_RACY_NS = RACY_SECONDS * 1_000_000_000
_WITH_CHANGE_TIME = sys.platform != "win32"
# Bytes read for a digest are kept for the read that follows a cache miss, up to this much
# (a run answered by the memo never asks for them again).
FRESH_BUDGET = 64 * 1024 * 1024

_Stamp = tuple[int, int, int, int, int]  # size, mtime_ns, ctime_ns (0 on Windows), inode, device


def _stamp_of(status: os.stat_result) -> _Stamp:
    change = status.st_ctime_ns if _WITH_CHANGE_TIME else 0
    return (status.st_size, status.st_mtime_ns, change, status.st_ino, status.st_dev)


class FileStamps:
    """The record in `cache_dir` (`<project>/.inwards/cache`): read on first use, written
    by `flush` with the entries of this run only (a whole-project run digests every source
    file, so a file gone from the tree leaves the record with it)."""

    def __init__(self, cache_dir: Path) -> None:
        self._cache_dir = Path(cache_dir)
        self._path = self._cache_dir / STAMPS_NAME
        self._on_disk: dict[str, list[Any]] | None = None
        self._now: dict[str, list[Any]] = {}  # path -> [*stamp, digest], as of this run
        self._asked = False  # only a run that asked for digests rewrites the record
        self._damaged = False  # the record can't be read (not absent): replace it
        self.warnings: list[str] = []

    @property
    def path(self) -> Path:
        return self._path

    def recorded(self, path: str, status: os.stat_result) -> str | None:
        """The digest recorded for `path` when the stat is the recorded one, else None."""
        self._asked = True
        entry = self._entries().get(path)
        if entry is None or not _well_formed(entry) or tuple(entry[:5]) != _stamp_of(status):
            return None
        self._now[path] = entry
        digest: str = entry[5]
        return digest

    def record(self, path: str, status: os.stat_result, digest: str, hashed_ns: int) -> None:
        """`digest` is the sha256 of `path`'s bytes read after `status` was taken, at
        `hashed_ns` (`time.time_ns()`): kept unless the file changed too recently."""
        stamp = _stamp_of(status)
        if max(stamp[1], stamp[2]) > hashed_ns - _RACY_NS:
            self._now.pop(path, None)
            return
        self._now[path] = [*stamp, digest]

    def flush(self) -> None:
        """Write this run's entries atomically, when they differ from the record's."""
        if not self._asked or (self._now == self._entries() and not self._damaged):
            return
        try:
            if symlinked_component(self._cache_dir, self._path) is not None:
                return  # the extraction cache says so, once
            make_cache_directory(self._cache_dir)
            document = {"format": STAMPS_FORMAT, "entries": dict(sorted(self._now.items()))}
            payload = json.dumps(document, separators=(",", ":")).encode("utf-8")
            with locked(self._cache_dir):
                write_atomically(self._path, payload)
        except OSError as error:
            self.warnings.append(f"the file stamps were not saved: {error.strerror or error}")
            return
        self._on_disk = dict(self._now)
        self._damaged = False

    def _entries(self) -> dict[str, list[Any]]:
        if self._on_disk is None:
            self._on_disk = self._read()
        return self._on_disk

    def _read(self) -> dict[str, list[Any]]:
        if symlinked_component(self._cache_dir, self._path) is not None:
            return {}
        try:
            raw = read_regular_file(self._path, follow_symlinks=False, max_bytes=MAX_STAMPS_BYTES)
        except FileNotFoundError:
            return {}
        except OSError:  # a FIFO, a device, too big: never waited on, replaced
            self._damaged = True
            return {}
        try:
            document = json.loads(raw)
        except (ValueError, RecursionError):
            document = None
        entries = document.get("entries") if isinstance(document, dict) else None
        if not isinstance(entries, dict) or document.get("format") != STAMPS_FORMAT:
            self._damaged = True  # every file is hashed, and the record redone
            return {}
        return entries  # each entry is judged when asked for (`_well_formed`)


def _well_formed(entry: Any) -> bool:
    return (
        type(entry) is list
        and len(entry) == 6
        and all(type(number) is int for number in entry[:5])
        and type(entry[5]) is str
        and len(entry[5]) == 64
    )


class StampedProjectFiles(ProjectFiles):
    """The project's files on disk (`LocalProjectFiles`), with `digest` answered from the
    stamps when a file's stat is the recorded one. A file hashed here is read once: its
    bytes wait for the `read_bytes` that follows a cache miss. With `verify`, every file is
    hashed and a record that disagrees is a mismatch (`mismatches`)."""

    def __init__(
        self,
        project_dir: Path,
        stamps: FileStamps,
        *,
        verify: bool = False,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self._clock = clock
        self._inner = LocalProjectFiles(project_dir)
        self._root = os.path.abspath(project_dir) + os.sep
        self.stamps = stamps
        self._verify = verify
        self._fresh: dict[str, tuple[bytes, _Stamp]] = {}  # hashed, not read yet
        self._fresh_bytes = 0
        self.mismatches: list[CacheMismatch] = []

    def listing(self, under: str) -> ProjectListing:
        return self._inner.listing(under)

    def read_bytes(self, path: str) -> bytes:
        kept = self._fresh.pop(path, None)
        if kept is None:
            return self._inner.read_bytes(path)
        data, stamp = kept
        self._fresh_bytes -= len(data)
        # The bytes wait only as long as the file stays as it was hashed: a run the memo
        # answered never reads them, and a later run of the same session (--watch, a
        # server) must see the file as it is now, not as it was.
        try:
            now = _stamp_of(os.stat(self._native(path)))
        except OSError:
            now = None
        return data if now == stamp else self._inner.read_bytes(path)

    def _native(self, path: str) -> str:
        return self._root + (path if os.sep == "/" else path.replace("/", os.sep))

    def digest(self, path: str) -> str:
        status = os.stat(self._native(path))
        recorded = self.stamps.recorded(path, status)
        if recorded is not None and not self._verify:
            return recorded
        data = self._inner.read_bytes(path)
        digest = hashlib.sha256(data).hexdigest()
        if self._fresh_bytes + len(data) <= FRESH_BUDGET:
            previous = self._fresh.pop(path, None)
            if previous is not None:
                self._fresh_bytes -= len(previous[0])
            self._fresh[path] = (data, _stamp_of(status))
            self._fresh_bytes += len(data)
        if recorded is not None and recorded != digest:
            difference = f"its bytes' sha256 is {digest}, the stamps record {recorded}"
            self.mismatches.append(CacheMismatch(path, difference))
        self.stamps.record(path, status, digest, self._clock())
        return digest
