"""The extraction cache on disk: one JSON pack per namespace under `.inwards/cache/`.

Layout::

    <project>/.inwards/cache/CACHEDIR.TAG
    <project>/.inwards/cache/.gitignore                     "*"
    <project>/.inwards/cache/extraction-<16 hex>/facts.json

The pack is `{"format": 2, "entries": {"<sha256 of the key>": {"key": [digest, module,
is_package, extractor], "facts": <facts data>}}}`: each entry records the key it was made
for, and is a miss for any other (facts copied under another file's name are not trusted).
One file per namespace, because opening two thousand small files costs more than reading one.
It is written one entry a line, so a run reads the entries as bytes and decodes only those
it asks for, and a flush writes the entries it did not change as the bytes it read (a run
after editing one file re-encodes one entry, not thousands). A pack of any other layout
that is the same JSON document (written by hand, or by an older inwards) is read whole.

The cache never makes a run fail: anything it can't read is a miss, anything it can't
write becomes a line in `warnings`. It reads only regular files and never waits on one (a
FIFO or a device in a cache file's place is a miss, replaced at the next write). It refuses
symlinks for `.inwards`, its directories and its pack, so a checked-out repository can't
point it at files elsewhere. Two runs may flush at once: each write replaces the pack
atomically, and the read-merge-write of a flush holds an advisory lock on the namespace
folder (POSIX), so neither loses the other's entries.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from inwards_cli.adapters.atomic import TEMP_SUFFIX, write_atomically
from inwards_cli.adapters.pack_entries import (
    NAME_ONLY,
    VALUE_AT,
    entry_line,
    entry_lines,
    entry_name,
    find_entry_line,
    is_pack_layout,
    key_fields,
    made_for,
    pack_bytes,
)
from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file
from inwards_core.model.facts import ModuleFacts
from inwards_core.model.facts_data import facts_from_data, facts_to_data
from inwards_core.ports import CacheKey, ExtractionCache

if sys.platform != "win32":
    import fcntl

__all__ = [
    "CACHEDIR_TAG",
    "PACK_FORMAT",
    "DiskExtractionCache",
    "locked",
    "make_cache_directory",
    "namespace_folder",
    "symlinked_component",
]

PACK_FORMAT = 2
PACK_NAME = "facts.json"
MAX_PACK_BYTES = 512 * 1024 * 1024
STALE_TEMP_SECONDS = 3600
LOCK_WAIT_SECONDS = 10.0

CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by inwards.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
_GITIGNORE = "# Created by inwards: the cache is never committed.\n*\n"

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def namespace_folder(namespace: str) -> str:
    """The folder name of a namespace: `extraction-` and 16 hex digits of its sha256."""
    return "extraction-" + hashlib.sha256(namespace.encode("utf-8")).hexdigest()[:16]


def symlinked_component(cache_dir: Path, *inside: Path) -> Path | None:
    """The first of `.inwards`, `.inwards/cache` and the paths `inside` it that is a
    symlink; None when each is absent or not a link. The cache neither reads nor writes
    through a link: a checked-out repository could aim it anywhere."""
    for path in (cache_dir.parent, cache_dir, *inside):
        try:
            mode = os.lstat(path).st_mode
        except (OSError, ValueError):
            continue
        if stat.S_ISLNK(mode):
            return path
    return None


class _Refused(Exception):
    """The cache must not be used at all (a symlink where a directory should be)."""


class DiskExtractionCache(ExtractionCache):
    """`cache_dir` is `<project>/.inwards/cache`; `namespace` names the extractor and the
    grammars (the composition root derives it), so a new grammar never reads old facts.

    `put` keeps facts in memory; `flush` writes the pack atomically. Without `prune` it
    merges with whatever another run wrote meanwhile; with `prune` it keeps only the
    entries gotten or put since the previous flush.
    """

    def __init__(self, cache_dir: Path, namespace: str) -> None:
        self._cache_dir = Path(cache_dir)
        self._folder = self._cache_dir / namespace_folder(namespace)
        self._pack = self._folder / PACK_NAME
        self.warnings: list[str] = []
        self._loaded = False
        self._refused = False
        self._rewrite = False  # the pack on disk is unusable: replace it at the next flush
        # entry name -> its line of the pack (`"<name>":<entry JSON>`), as last read or written
        self._on_disk: dict[str, bytes] = {}
        # The pack's bytes, read but not yet split into lines: a run that asks for a few
        # entries (a one-file check) finds their lines in them instead (see `_line_on_disk`).
        self._unsplit: bytes | None = None
        self._found_unsplit = 0
        self._decoded: dict[str, ModuleFacts] = {}
        self._added: dict[str, bytes] = {}  # put since the last flush
        self._used: set[str] = set()  # gotten or put since the last flush

    # -- ExtractionCache ---------------------------------------------------------------

    def get(self, key: CacheKey) -> ModuleFacts | None:
        self._load()
        name = entry_name(key)
        facts = self._decoded.get(name)
        if facts is None:
            line = self._added.get(name)
            if line is None:
                line = self._line_on_disk(name)
            if line is None:
                return None
            try:
                entry = json.loads(line[VALUE_AT:])
                if not made_for(entry, key):
                    return None  # made for another key: the engine puts fresh facts
                facts = facts_from_data(entry.get("facts"))
            except (ValueError, RecursionError):
                return None  # a corrupt entry is a miss too
            self._decoded[name] = facts
        self._used.add(name)
        return facts

    def put(self, key: CacheKey, facts: ModuleFacts) -> None:
        self._load()
        name = entry_name(key)
        entry = entry_line(name, {"key": key_fields(key), "facts": facts_to_data(facts)})
        self._used.add(name)
        self._decoded[name] = facts
        if self._split().get(name) != entry:
            self._added[name] = entry

    def flush(self, *, prune: bool) -> None:
        self._load()
        if self._refused:
            return
        used, self._used = self._used, set()
        stale = prune and not used.issuperset(self._split())
        if not (self._added or self._rewrite or stale):
            return
        try:
            self._check_not_symlinks()
            self._make_directories()
            self._remove_stale_temp_files()
            with locked(self._folder):
                if prune:
                    known = {**self._split(), **self._added}
                    kept = {name: known[name] for name in sorted(used) if name in known}
                else:
                    # Another run may have written since we read: keep its entries too.
                    kept = {**self._lines_of(self._read_pack()), **self._added}
                self._write_pack(kept)
        except _Refused:
            return
        except OSError as error:
            self._used = used  # nothing was saved: the next flush may try again
            self._warn(f"the extraction cache was not saved: {_describe(error)}")
            return
        self._on_disk, self._unsplit = kept, None
        self._decoded = {name: facts for name, facts in self._decoded.items() if name in kept}
        self._added = {}
        self._rewrite = False

    # -- reading -----------------------------------------------------------------------

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        try:
            raw = self._read_pack()
        except _Refused:
            return
        if raw is not None and is_pack_layout(raw):
            self._unsplit = raw
        else:
            self._on_disk = self._lines_of(raw)

    # A run asking for more entries than this splits the pack once instead.
    _FINDS_BEFORE_SPLIT = 16

    def _line_on_disk(self, name: str) -> bytes | None:
        if self._unsplit is not None and self._found_unsplit < self._FINDS_BEFORE_SPLIT:
            self._found_unsplit += 1
            return find_entry_line(self._unsplit, name)
        return self._split().get(name)

    def _split(self) -> dict[str, bytes]:
        """The pack's entries by name, split from its bytes on first need."""
        if self._unsplit is not None:
            self._on_disk, self._unsplit = self._lines_of(self._unsplit), None
        return self._on_disk

    def _check_not_symlinks(self) -> None:
        """Refuse a cache whose directories or pack are symlinks; absent ones are fine."""
        linked = symlinked_component(self._cache_dir, self._folder, self._pack)
        if linked is not None:
            self._refused = True
            self._warn(
                f"the extraction cache is not used: {linked} is a symlink, and the cache "
                "follows none"
            )
            raise _Refused

    def _read_pack(self) -> bytes | None:
        """The pack's bytes; None (and, unless it is absent, a rewrite at the next flush)
        when it can't be read."""
        self._check_not_symlinks()
        try:
            return read_regular_file(self._pack, follow_symlinks=False, max_bytes=MAX_PACK_BYTES)
        except FileNotFoundError:
            return None
        except NotARegularFileError:
            self._rewrite = True  # a FIFO, a device, ...: never waited on, replaced at flush
            return None
        except OSError as error:
            self._rewrite = True
            if error.errno == errno.EFBIG:
                self._warn(
                    f"the extraction cache pack {self._pack} is larger than 512 MiB and was ignored"
                )
            return None

    def _lines_of(self, raw: bytes | None) -> dict[str, bytes]:
        """The entries of a pack's bytes (name -> its line); {} when there are none (and a
        rewrite at the next flush when they are unusable)."""
        if raw is None:
            return {}
        lines = entry_lines(raw)
        if lines is not None:
            return lines
        try:
            document = _load_json(raw)
        except (ValueError, RecursionError):  # not JSON, truncated, not UTF-8, too deep
            self._rewrite = True
            return {}
        if (
            not isinstance(document, dict)
            or type(document.get("format")) is not int
            or document["format"] != PACK_FORMAT
            or not isinstance(document.get("entries"), dict)
        ):
            self._rewrite = True
            return {}
        self._rewrite = True  # another layout: written again in ours at the next flush
        return {
            name: entry_line(name, entry)
            for name, entry in document["entries"].items()
            if NAME_ONLY.fullmatch(name)  # what no entry of ours is named can't be asked for
        }

    # -- writing -----------------------------------------------------------------------

    def _write_pack(self, entries: dict[str, bytes]) -> None:
        """One entry a line, in name order (see the module docstring)."""
        write_atomically(self._pack, pack_bytes(entries))

    def _make_directories(self) -> None:
        make_cache_directory(self._cache_dir)
        _make_directory(self._folder)

    def _remove_stale_temp_files(self) -> None:
        """Temp files left by a run that crashed; younger ones may belong to a live run."""
        try:
            scanned = os.scandir(self._folder)
        except OSError:
            return
        limit = time.time() - STALE_TEMP_SECONDS
        with scanned:
            for entry in scanned:
                if not (
                    entry.name.startswith(PACK_NAME + ".") and entry.name.endswith(TEMP_SUFFIX)
                ):
                    continue
                try:
                    if entry.stat(follow_symlinks=False).st_mtime < limit:
                        os.unlink(entry.path)
                except OSError:
                    continue

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)


def make_cache_directory(cache_dir: Path) -> None:
    """`.inwards/cache` (0700), tagged with CACHEDIR.TAG and ignoring itself in git, whoever
    writes into it first (the pack, the file stamps, a memo)."""
    cache_dir.parent.mkdir(parents=True, exist_ok=True)
    _make_directory(cache_dir)
    for name, content in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", _GITIGNORE)):
        marker = cache_dir / name
        if _missing_or_special(marker):
            write_atomically(marker, content.encode("ascii"))


def _make_directory(directory: Path) -> None:
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        if not directory.is_dir():
            raise NotADirectoryError(
                errno.ENOTDIR, "exists and is not a directory", str(directory)
            ) from None


def _missing_or_special(path: Path) -> bool:
    """Absent, or a FIFO, device or socket (which a rename replaces without touching it).
    A file of the user's stays, and a link or a directory is not ours to replace."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return True
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def _load_json(raw: bytes) -> Any:
    """json.loads without the garbage collector, which otherwise runs over and over while
    the parser creates containers (measured: twice as fast for a 3.5 MB pack)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return json.loads(raw)
    finally:
        if collecting:
            gc.enable()


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on the namespace folder while reading, merging and
    replacing the pack, so two runs flushing at once don't drop each other's entries.

    Best effort: where locks are missing or a lock is held too long, go on without it;
    the write stays atomic either way.
    """
    if sys.platform == "win32":
        yield
        return
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _O_NOFOLLOW)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.002)
            except OSError:
                break
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _describe(error: OSError) -> str:
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason.lower()}" if error.filename else reason.lower()
