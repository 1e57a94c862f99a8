"""What a daemon's warm session must notice between two hook requests, whoever changed it:
the agent's edits (the hooks name them), a shell command, the user's editor, a `git
checkout`.

The setup is judged by a stamp, taken before each request and compared with the last; the
tree by inotify where there is one (`inotify`: the folders of the listing watched, their
events read before each request), else by a stamp too:

- the *setup* stamp: the `pyproject.toml` of the project directory and of every directory
  above it (which one holds `[tool.inwards]` decides the configuration) and every folder and
  file of the project, user and organisation rule roots. A change opens the session afresh.
- the *tree* stamp: every file and folder the session's listing holds (mode, inode, size,
  modification and change times). A changed file is told to the session
  (`Session.changed`); a folder whose entries changed makes it list the tree again.

A file written twice within one tick of the file system's clock keeps its modification time,
so a file or folder modified less than `RACY_SECONDS` before a stamp was taken is taken as
changed once more at the next request: reading it again costs little, missing an edit
would cost a wrong answer (git judges its index entries the same way).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from inwards_cli.adapters.root_walk import root_directories
from inwards_cli.adapters.rule_roots import PROJECT_RULES_DIR
from inwards_cli.adapters.watched_directories import rule_roots
from inwards_cli.config_file import CONFIG_NAME
from inwards_cli.daemon.inotify import FolderWatch, InotifyUnavailable
from inwards_core.ports import ProjectListing

RACY_SECONDS = 2.0

Stat = tuple[int, int, int, int, int]


def _stat(path: str) -> Stat | None:
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return (found.st_mode, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


def _lstat(path: str) -> Stat | None:
    try:
        found = os.lstat(path)
    except (OSError, ValueError):
        return None
    return (found.st_mode, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


def setup_stamp(
    claude_dir: str, project_dir: str | None, environ: Mapping[str, str]
) -> tuple[object, ...]:
    """The stamp of what a hook session is set up from (see the module's docstring)."""
    parts: list[object] = []
    here = claude_dir
    while True:
        config = os.path.join(here, CONFIG_NAME)
        parts.append((config, _lstat(config), _stat(config)))
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    roots: list[Path] = []
    if project_dir is not None:
        top = Path(project_dir)
        roots.append(top / PROJECT_RULES_DIR)
        roots.extend(rule_roots(top, environ))
    for root in roots:
        parts.append((str(root), _stat(str(root))))
        for folder in root_directories(root):
            parts.append(_folder_stamp(str(folder)))
    return tuple(parts)


def _folder_stamp(folder: str) -> tuple[object, ...]:
    entries: list[tuple[str, Stat | None]] = []
    try:
        with os.scandir(folder) as scan:
            for entry in scan:
                entries.append((entry.name, _stat(entry.path)))
    except OSError:
        return (folder, None)
    return (folder, _stat(folder), tuple(sorted(entries)))


class Snapshot:
    """The stat of every file and the entries of every folder of one listing, taken at one
    moment (`taken`, nanoseconds of the wall clock)."""

    __slots__ = ("files", "folders", "taken")

    def __init__(self, project_dir: str, listing: ProjectListing) -> None:
        self.taken = time.time_ns()
        self.files = {path: _stat(_absolute(project_dir, path)) for path in listing.files}
        self.folders = {
            path: _entries(_absolute(project_dir, path)) for path in ("", *listing.directories)
        }


def _absolute(top: str, relative: str) -> str:
    return os.path.join(top, relative) if relative else top


def _entries(folder: str) -> frozenset[str] | None:
    try:
        return frozenset(os.listdir(folder))
    except OSError:
        return None


class TreeWatch:
    """The tree stamp of the session's listing (relative to `project_dir`). Each snapshot
    is taken before the session may list the tree again, so what changes while it lists is
    seen at the next request, never missed."""

    def __init__(self, project_dir: str, listing: ProjectListing) -> None:
        self.listing = listing
        self._top = project_dir
        self._last = Snapshot(project_dir, listing)

    def changes(self) -> tuple[list[str], bool, bool]:
        """The files changed since the last snapshot (or one modified so shortly before it
        that a change may share its time), whether a folder's entries changed (the tree
        must be listed again), and whether changes may have been missed (never, here)."""
        last, now = self._last, Snapshot(self._top, self.listing)
        racy = last.taken - int(RACY_SECONDS * 1e9)
        changed = [
            path
            for path, found in now.files.items()
            if found != last.files.get(path) or (found is not None and found[3] >= racy)
        ]
        relist = now.folders != last.folders
        self._last = now
        return changed, relist, False

    def follow(self, listing: ProjectListing) -> None:
        """The session listed the tree again (after the last `changes`): watch the new
        listing from the snapshot taken before it, so a file or folder it adds is judged
        changed at the next request."""
        if listing is self.listing:
            return
        last = self._last
        self.listing = listing
        self._last = Snapshot.__new__(Snapshot)
        self._last.taken = last.taken
        self._last.files = {path: last.files.get(path) for path in listing.files}
        self._last.folders = {path: last.folders.get(path) for path in ("", *listing.directories)}

    def close(self) -> None:
        pass


class InotifyTreeWatch:
    """The tree watched by inotify: every folder of the listing, and the folder of each
    file a link in it leads to. Raises `InotifyUnavailable` where there is none."""

    def __init__(self, project_dir: str, listing: ProjectListing) -> None:
        self._folders = FolderWatch(project_dir)
        self.listing = listing
        self._links: dict[str, list[str]] = {}
        self._again = False
        try:
            self._follow(listing)
        except BaseException:
            self._folders.close()
            raise

    def _follow(self, listing: ProjectListing) -> None:
        self.listing = listing
        files = set(listing.files)
        self._links = {}
        extra: set[str] = set()
        for link, target in listing.symlinks:
            if link in files and not os.path.isabs(target):
                self._links.setdefault(target, []).append(link)
                extra.add(os.path.dirname(target))
        # A folder watched only now may have changed between the listing and its watch:
        # the tree is listed once more at the next request.
        self._again = self._folders.watch({"", *listing.directories, *extra})

    def changes(self) -> tuple[list[str], bool, bool]:
        """The files whose contents or mode changed since the last call, whether a folder's
        entries changed (list the tree again), and whether the kernel dropped events."""
        events = self._folders.drain()
        files = set(events.files)
        for path in events.files:
            files.update(self._links.get(path, ()))
        relist = events.entries or self._again
        self._again = False
        return sorted(files), relist, events.lost

    def follow(self, listing: ProjectListing) -> None:
        if listing is not self.listing:
            self._follow(listing)

    def close(self) -> None:
        self._folders.close()


def tree_watch(project_dir: str, listing: ProjectListing) -> TreeWatch | InotifyTreeWatch:
    """inotify's watch where there is one, else the stamp."""
    try:
        return InotifyTreeWatch(project_dir, listing)
    except InotifyUnavailable:
        return TreeWatch(project_dir, listing)
