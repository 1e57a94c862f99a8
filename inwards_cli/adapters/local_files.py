"""The checked project's files, read from the local disk.

The tree is hostile until proven otherwise, so the walk:

- never leaves the project directory: a symlink whose real target lies outside it (a file
  or a directory: `/`, `/etc/passwd`, `/proc/kmsg`) is reported and not followed;
- visits each real directory once, known by its (device, inode). Real paths come first:
  every directory reachable without a symlink is walked before any symlinked directory,
  so a directory is listed under its own path and a link to it is reported as a second
  path (one module, one name). A link back to a directory that contains it is a loop,
  reported too. Links are taken in name order, so which path wins is stable;
- lists only regular files (FIFOs, sockets and devices are not part of a Python project);
- and reports whatever it can't read while still listing the rest.

`read_bytes` checks again when it opens a file: only a regular file inside the project
directory is read, and opening never blocks (see `read_regular_file`).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path, PurePath

import attrs

from inwards_cli.adapters.reading import NotARegularFileError, is_regular_file, read_regular_file
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import (
    VIRTUALENV_MARKER,
    ListingProblem,
    ProjectFiles,
    ProjectListing,
    is_skipped_directory_name,
)

__all__ = ["MAX_FILE_BYTES", "LocalProjectFiles", "ScanDirectory"]

ScanDirectory = Callable[[str], AbstractContextManager[Iterator[os.DirEntry[str]]]]
"""Opens a directory for listing; `os.scandir` in production, a fake in tests."""

_LINK_CHAIN_LOOP = "{} is a symlink loop: its chain of links never reaches a file or directory"
_LEADS_OUTSIDE = "{} is a symlink to {}, outside the project directory; it was not followed"

_Identity = tuple[int, int]  # (st_dev, st_ino) of a directory

MAX_FILE_BYTES = 128 * 1024 * 1024
"""A file larger than this is not read (reported as not checked): the bytes are held in
memory, and a sparse file can claim any size. Generated modules of 50 MB are still read."""


def _shown(relative: str) -> str:
    return relative or "the project directory"


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def _child(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


@attrs.define(eq=False)
class _Pending:
    """A directory waiting to be scanned."""

    __repr__ = value_repr

    relative: str
    absolute: str
    identity: _Identity
    parent: _Pending | None  # the directory that listed it; None for `under` itself
    link_target: str | None  # set when this path is itself a symlink
    named_by_caller: bool = False  # `under` itself: listed whatever its name or content

    def ancestor(self, identity: _Identity) -> _Pending | None:
        """This directory or the one above it on the walked path that is `identity`."""
        here: _Pending | None = self
        while here is not None and here.identity != identity:
            here = here.parent
        return here


@attrs.define
class _Collected:
    __repr__ = value_repr

    files: list[str] = attrs.Factory(list)
    directories: list[str] = attrs.Factory(list)
    symlinks: list[tuple[str, str]] = attrs.Factory(list)
    problems: list[ListingProblem] = attrs.Factory(list)

    def freeze(self) -> ProjectListing:
        return ProjectListing(
            files=tuple(sorted(self.files)),
            directories=tuple(sorted(self.directories)),
            symlinks=tuple(sorted(self.symlinks)),
            problems=tuple(sorted(self.problems, key=lambda p: (p.path, p.message))),
        )

    def problem(self, path: str, message: str) -> None:
        self.problems.append(ListingProblem(path, message))


@attrs.define
class _Walk:
    """One listing in progress."""

    __repr__ = value_repr

    collected: _Collected
    above: dict[_Identity, str]  # the project directory and every directory down to `under`
    listed: dict[_Identity, str] = attrs.Factory(dict)  # each directory -> the path it has
    linked: list[_Pending] = attrs.Factory(list)  # symlinked directories, for the next round


class LocalProjectFiles(ProjectFiles):
    """Lists and reads the files below `project_dir`.

    Left out of listings: directories whose name starts with ".", `__pycache__`,
    `node_modules`, `*.egg-info`, and any directory holding a `pyvenv.cfg` (a virtual
    environment). The directory named by `under` itself is listed whatever its name.
    """

    def __init__(self, project_dir: Path, *, scandir: ScanDirectory = os.scandir) -> None:
        self._root = os.path.abspath(project_dir)
        self._real_root = os.path.realpath(self._root)
        self._scandir = scandir
        # Real paths of the directories files were read from: resolving each file's whole
        # path again cost a warm run of 2,000 files 60 ms.
        self._real_directories: dict[str, str] = {}

    # -- ProjectFiles ----------------------------------------------------------------------

    def listing(self, under: str) -> ProjectListing:
        collected = _Collected()
        start = _clean_relative(under)
        if start is None:
            collected.problem(under, f"{under} is not a path inside the project directory")
            return collected.freeze()
        absolute = self._absolute(start)
        real = os.path.realpath(absolute)
        if not self._inside(real):
            message = f"{start} leads outside the project directory, to {_posix(real)}"
            collected.problem(start, f"{message}; it was not followed")
            return collected.freeze()
        above = self._identities_down_to(start, collected)
        if above is None:
            return collected.freeze()
        link_target = self._link_target(absolute) if os.path.islink(absolute) else None
        if os.path.isdir(absolute):
            identity = next(reversed(above))  # `start`'s own, the last one found
            first = _Pending(start, absolute, identity, None, link_target, named_by_caller=True)
            self._walk(first, _Walk(collected, above))
        elif is_regular_file(absolute):
            collected.files.append(start)
            if link_target is not None:
                collected.symlinks.append((start, link_target))
        else:
            collected.problem(start, f"{start} is neither a file nor a directory")
        return collected.freeze()

    def read_bytes(self, path: str) -> bytes:
        """The bytes of a regular file inside the project directory. What the listing
        vouched for is checked again here: the tree may have changed since."""
        relative = _clean_relative(path)
        if relative == "":
            raise IsADirectoryError(errno.EISDIR, "the project directory is not a file", path)
        if relative is None:
            raise FileNotFoundError(errno.ENOENT, "not a file inside the project directory", path)
        directory, _, name = relative.rpartition("/")
        real_directory = self._real_directories.get(directory)
        if real_directory is None:
            real_directory = os.path.realpath(self._absolute(directory))
            self._real_directories[directory] = real_directory
        real = os.path.join(real_directory, name)
        # The real path, opened without following a link: a file that is itself a link
        # (ELOOP) is resolved, judged and opened the same way.
        try:
            try:
                return self._read_real(real, path)
            except OSError as error:
                if error.errno != errno.ELOOP:
                    raise
                real = os.path.realpath(self._absolute(relative))
                return self._read_real(real, path)
        except NotARegularFileError as error:
            if os.path.isdir(real):
                raise IsADirectoryError(errno.EISDIR, "is a directory, not a file", path) from None
            raise error from None
        except OSError as error:
            if error.errno != errno.EFBIG:
                raise
            size = MAX_FILE_BYTES // (1024 * 1024)
            raise OSError(
                errno.EFBIG, f"it is larger than {size} MiB, more than inwards reads", path
            ) from None

    def _read_real(self, real: str, path: str) -> bytes:
        if not self._inside(real):
            raise PermissionError(
                errno.EACCES,
                f"it is a symlink to {_posix(real)}, outside the project directory",
                path,
            )
        return read_regular_file(real, follow_symlinks=False, max_bytes=MAX_FILE_BYTES)

    # -- the walk ----------------------------------------------------------------------

    def _absolute(self, relative: str) -> str:
        return os.path.join(self._root, *relative.split("/")) if relative else self._root

    def _inside(self, real: str) -> bool:
        """Whether a real (resolved) path is the project directory or below it."""
        return real == self._real_root or real.startswith(self._real_root.rstrip(os.sep) + os.sep)

    def _identities_down_to(self, start: str, collected: _Collected) -> dict[_Identity, str] | None:
        """The (device, inode) of the project directory and of every directory down to
        `start`, so that a link below `start` back to any of them counts as a loop."""
        identities: dict[_Identity, str] = {}
        relative = ""
        steps = start.split("/") if start else []
        for index in range(len(steps) + 1):
            relative = "/".join(steps[:index])
            try:
                status = os.stat(self._absolute(relative))
            except OSError as error:
                if os.path.islink(self._absolute(relative)):
                    message = f"{relative} is a broken symlink or a symlink loop ({_reason(error)})"
                elif error.errno in (errno.ENOENT, errno.ENOTDIR):
                    message = f"{_shown(relative)} does not exist"
                else:
                    message = f"{_shown(relative)} could not be examined ({_reason(error)})"
                collected.problem(relative or ".", message)
                return None
            identity = (status.st_dev, status.st_ino)
            identities.pop(identity, None)  # `start`'s own identity stays the last key
            identities[identity] = relative
        return identities

    def _walk(self, first: _Pending, walk: _Walk) -> None:
        """The tree below `first` through real directories, then each symlinked directory
        found on the way (in rounds, each in name order) that leads somewhere new."""
        walk.listed[first.identity] = first.relative
        self._walk_real(first, walk)
        while walk.linked:
            waiting = sorted(walk.linked, key=lambda pending: pending.relative)
            walk.linked = []
            for link in waiting:
                if self._listed_already(link, walk):
                    continue
                walk.listed[link.identity] = link.relative
                self._walk_real(link, walk)

    def _walk_real(self, first: _Pending, walk: _Walk) -> None:
        """`first` and every directory below it that no symlink leads to."""
        collected = walk.collected
        stack = [first]
        while stack:
            pending = stack.pop()
            try:
                with self._scandir(pending.absolute) as scanned:
                    entries = sorted(scanned, key=lambda entry: entry.name)
            except OSError as error:
                # The directory exists (its parent listed it), so it is listed; what is
                # below it is not.
                self._accept_directory(pending, collected)
                collected.problem(
                    pending.relative or ".",
                    f"{_shown(pending.relative)} could not be read ({_reason(error)}); "
                    "nothing below it is listed",
                )
                continue
            if not pending.named_by_caller and any(
                entry.name == VIRTUALENV_MARKER for entry in entries
            ):
                continue
            self._accept_directory(pending, collected)
            children: list[_Pending] = []
            for entry in entries:
                child = self._visit(pending, entry, walk)
                if child is None:
                    continue
                if child.link_target is not None:
                    walk.linked.append(child)
                elif not self._listed_already(child, walk):
                    walk.listed[child.identity] = child.relative
                    children.append(child)
            stack.extend(reversed(children))  # popped in name order

    def _listed_already(self, pending: _Pending, walk: _Walk) -> bool:
        """Whether `pending` is a directory the walk has listed under another path (then
        it is reported, once, and not walked again)."""
        listed = walk.listed.get(pending.identity)
        if listed is None:
            return False
        if pending.link_target is not None:
            walk.collected.symlinks.append((pending.relative, pending.link_target))
            message = (
                f"{pending.relative} is a symlink to {_shown(listed)}, which is listed already; "
                "it was not followed, so each file is checked once, under that path"
            )
        else:
            message = (
                f"{pending.relative} is {_shown(listed)} again, reached through a symlink; "
                "it was not listed a second time"
            )
        walk.collected.problem(pending.relative, message)
        return True

    def _accept_directory(self, pending: _Pending, collected: _Collected) -> None:
        if pending.relative:
            collected.directories.append(pending.relative)
        if pending.link_target is not None:
            collected.symlinks.append((pending.relative, pending.link_target))

    def _visit(self, parent: _Pending, entry: os.DirEntry[str], walk: _Walk) -> _Pending | None:
        """Lists one entry; returns the directory to scan when it is one."""
        collected = walk.collected
        relative = _child(parent.relative, entry.name)
        try:
            is_link = entry.is_symlink()
            if is_link and not self._inside(os.path.realpath(entry.path)):
                target = _posix(os.path.realpath(entry.path))
                collected.symlinks.append((relative, target))
                collected.problem(relative, _LEADS_OUTSIDE.format(relative, target))
                return None
            is_directory = entry.is_dir()
            is_file = not is_directory and entry.is_file()
        except OSError as error:
            if error.errno == errno.ELOOP:
                message = _LINK_CHAIN_LOOP.format(relative)
            else:
                message = f"{relative} could not be examined ({_reason(error)})"
            collected.problem(relative, message)
            return None
        if is_directory:
            if is_skipped_directory_name(entry.name):
                return None
            return self._directory(parent, entry, relative, is_link, walk)
        if is_file:
            collected.files.append(relative)
            if is_link:
                collected.symlinks.append((relative, self._link_target(entry.path)))
            return None
        if is_link:
            collected.problem(relative, self._dangling(relative, entry))
        return None  # sockets, fifos, devices: not part of a Python project

    def _directory(
        self, parent: _Pending, entry: os.DirEntry[str], relative: str, is_link: bool, walk: _Walk
    ) -> _Pending | None:
        """The directory `entry` to scan, or None when it can't be or is a loop."""
        collected = walk.collected
        link_target = self._link_target(entry.path) if is_link else None
        try:
            status = entry.stat()
        except OSError as error:
            collected.problem(relative, f"{relative} could not be examined ({_reason(error)})")
            return None
        identity = (status.st_dev, status.st_ino)
        ancestor = parent.ancestor(identity)
        contains = ancestor.relative if ancestor is not None else walk.above.get(identity)
        if contains is not None:
            if link_target is not None:
                collected.symlinks.append((relative, link_target))
            collected.problem(
                relative,
                f"{relative} is a symlink loop: it leads back to {_shown(contains)}, which "
                "contains it; it was not followed",
            )
            return None
        return _Pending(relative, entry.path, identity, parent, link_target)

    def _dangling(self, relative: str, entry: os.DirEntry[str]) -> str:
        try:
            os.stat(entry.path)
        except OSError as error:
            if error.errno == errno.ELOOP:
                return _LINK_CHAIN_LOOP.format(relative)
            try:
                written = os.readlink(entry.path)
            except OSError:
                written = "?"
            return f"{relative} is a broken symlink: its target {written} does not exist"
        return f"{relative} is a symlink to something that is neither a file nor a directory"

    def _link_target(self, path: str) -> str:
        """Where a symlink finally leads: relative to the project directory when inside
        it, an absolute POSIX path otherwise."""
        real = os.path.realpath(path)
        if real == self._real_root:
            return "."
        if self._inside(real):
            return PurePath(os.path.relpath(real, self._real_root)).as_posix()
        return _posix(real)


def _posix(path: str) -> str:
    return PurePath(path).as_posix()


def _clean_relative(path: str) -> str | None:
    """`path` as a clean relative POSIX path ("" for the project directory), or None
    when it would leave the project directory."""
    parts = [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]
    if path.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
        return None
    return "/".join(parts)
