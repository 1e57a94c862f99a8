"""Linux's inotify, through the C library (ctypes): what changed in the folders of a
project's listing, read before each request at no cost when nothing did.

Each listed folder is watched on its own (never recursively, so no link leads a watch out of
the project; see `inwards_cli/adapters/watched_directories.py`). The kernel queues an event
as the change is made, so draining the queue before a request sees every change made before
it: no stamp, no window of a clock's tick. A full queue (`IN_Q_OVERFLOW`) says that events
were lost: the daemon then opens its session afresh.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
from collections.abc import Iterable

IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000

CONTENT = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE
ENTRIES = IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
SELF = IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED
MASK = CONTENT | ENTRIES | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
EVENT = struct.Struct("iIII")


class InotifyUnavailable(Exception):
    """No inotify here (not Linux, no C library, no watches left)."""


class Events:
    """What a drain found: `files` (relative paths whose contents or mode changed), whether
    a folder's entries changed (`entries`: list the tree again), and whether events were
    lost (`lost`: start afresh)."""

    __slots__ = ("entries", "files", "lost")

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.entries = False
        self.lost = False


class FolderWatch:
    """Watches of folders given by their relative names (`""` the project directory)."""

    def __init__(self, top: str) -> None:
        try:
            library = ctypes.CDLL(None, use_errno=True)
            self._add = library.inotify_add_watch
            self._remove = library.inotify_rm_watch
            descriptor = library.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        except (OSError, AttributeError) as error:
            raise InotifyUnavailable(str(error)) from error
        if descriptor < 0:
            raise InotifyUnavailable(os.strerror(ctypes.get_errno()))
        self._add.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        self._remove.argtypes = [ctypes.c_int, ctypes.c_int]
        self._descriptor = descriptor
        self._top = top
        self._names: dict[int, set[str]] = {}  # watch -> the folder's relative names
        self._watches: dict[str, int] = {}  # relative name -> watch
        self._failed: set[str] = set()  # folders that could not be watched (said once)

    def close(self) -> None:
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1

    def watch(self, folders: Iterable[str]) -> bool:
        """Watch exactly `folders` (relative names); whether one was added (its entries
        made before the watch are not known: list the tree once more)."""
        wanted = set(folders)
        added = False
        for name in sorted(set(self._watches) - wanted):
            watch = self._watches.pop(name)
            names = self._names.get(watch, set())
            names.discard(name)
            if not names:
                self._names.pop(watch, None)
                self._remove(self._descriptor, watch)
        self._failed &= wanted
        for name in sorted(wanted - set(self._watches) - self._failed):
            # A folder reached through a link inside the project is watched where it is
            # (the listing follows no link out of the project).
            path = os.path.realpath(os.path.join(self._top, name) if name else self._top)
            watch = self._add(self._descriptor, os.fsencode(path), MASK)
            if watch < 0:
                code = ctypes.get_errno()
                if code in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
                    # Gone or unreadable since it was listed: list the tree again, once.
                    self._failed.add(name)
                    added = True
                    continue
                raise InotifyUnavailable(os.strerror(code))
            self._watches[name] = watch
            self._names.setdefault(watch, set()).add(name)
            added = True
        return added

    def drain(self) -> Events:
        found = Events()
        while True:
            try:
                data = os.read(self._descriptor, 256 * 1024)
            except BlockingIOError:
                return found
            offset = 0
            while offset + EVENT.size <= len(data):
                watch, mask, _, size = EVENT.unpack_from(data, offset)
                raw = data[offset + EVENT.size : offset + EVENT.size + size]
                offset += EVENT.size + size
                self._note(found, watch, mask, os.fsdecode(raw.rstrip(b"\0")))

    def _note(self, found: Events, watch: int, mask: int, name: str) -> None:
        if mask & IN_Q_OVERFLOW:
            found.lost = True
            return
        folders = self._names.get(watch)
        if not folders:
            return  # a watch removed since
        if mask & (ENTRIES | SELF):
            found.entries = True
        if mask & CONTENT and name:
            for folder in folders:
                found.files.add(f"{folder}/{name}" if folder else name)
