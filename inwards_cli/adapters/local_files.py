"""The checked project's files, read from the local disk.

The walk follows symlinks but never loops: each directory on the path being walked is
known by its (device, inode), and a link that leads back to one of them is reported as a
problem instead of being entered. Whatever can't be read is reported and the rest is
still listed.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path, PurePath

import attrs

from inwards_core.ports import (
    VIRTUALENV_MARKER,
    ListingProblem,
    ProjectFiles,
    ProjectListing,
    is_skipped_directory_name,
)

__all__ = ["LocalProjectFiles", "ScanDirectory"]

ScanDirectory = Callable[[str], AbstractContextManager[Iterator[os.DirEntry[str]]]]
"""Opens a directory for listing; `os.scandir` in production, a fake in tests."""

_LINK_CHAIN_LOOP = "{} is a symlink loop: its chain of links never reaches a file or directory"

_Identity = tuple[int, int]  # (st_dev, st_ino) of a directory


def _shown(relative: str) -> str:
    return relative or "the project directory"


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def _child(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


@attrs.define
class _Pending:
    """A directory waiting to be scanned."""

    relative: str
    absolute: str
    ancestors: dict[_Identity, str]  # the directories on the path to it, itself included
    link_target: str | None  # set when this path is itself a symlink
    named_by_caller: bool = False  # `under` itself: listed whatever its name or content


@attrs.define
class _Collected:
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

    # -- ProjectFiles ----------------------------------------------------------------------

    def listing(self, under: str) -> ProjectListing:
        collected = _Collected()
        start = _clean_relative(under)
        if start is None:
            collected.problems.append(
                ListingProblem(under, f"{under} is not a path inside the project directory")
            )
            return collected.freeze()
        ancestors = self._identities_down_to(start, collected)
        if ancestors is None:
            return collected.freeze()
        absolute = self._absolute(start)
        link_target = self._link_target(absolute) if os.path.islink(absolute) else None
        if os.path.isdir(absolute):
            self._walk(_Pending(start, absolute, ancestors, link_target, True), collected)
        else:
            collected.files.append(start)
            if link_target is not None:
                collected.symlinks.append((start, link_target))
        return collected.freeze()

    def read_bytes(self, path: str) -> bytes:
        relative = _clean_relative(path)
        if relative == "":
            raise IsADirectoryError(errno.EISDIR, "the project directory is not a file", path)
        if relative is None:
            raise FileNotFoundError(errno.ENOENT, "not a file inside the project directory", path)
        with open(self._absolute(relative), "rb") as stream:
            return stream.read()

    # -- the walk ----------------------------------------------------------------------

    def _absolute(self, relative: str) -> str:
        return os.path.join(self._root, *relative.split("/")) if relative else self._root

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
                collected.problems.append(ListingProblem(relative or ".", message))
                return None
            identities[(status.st_dev, status.st_ino)] = relative
        return identities

    def _walk(self, first: _Pending, collected: _Collected) -> None:
        stack = [first]
        while stack:
            pending = stack.pop()
            try:
                with self._scandir(pending.absolute) as scanned:
                    entries = list(scanned)
            except OSError as error:
                # The directory exists (its parent listed it), so it is listed; what is
                # below it is not.
                self._accept_directory(pending, collected)
                collected.problems.append(
                    ListingProblem(
                        pending.relative or ".",
                        f"{_shown(pending.relative)} could not be read ({_reason(error)}); "
                        "nothing below it is listed",
                    )
                )
                continue
            if not pending.named_by_caller and any(
                entry.name == VIRTUALENV_MARKER for entry in entries
            ):
                continue
            self._accept_directory(pending, collected)
            for entry in entries:
                child = self._visit(pending, entry, collected)
                if child is not None:
                    stack.append(child)

    def _accept_directory(self, pending: _Pending, collected: _Collected) -> None:
        if pending.relative:
            collected.directories.append(pending.relative)
        if pending.link_target is not None:
            collected.symlinks.append((pending.relative, pending.link_target))

    def _visit(
        self, parent: _Pending, entry: os.DirEntry[str], collected: _Collected
    ) -> _Pending | None:
        """Lists one entry; returns the directory to scan when it is one."""
        relative = _child(parent.relative, entry.name)
        try:
            is_link = entry.is_symlink()
            is_directory = entry.is_dir()
            is_file = not is_directory and entry.is_file()
        except OSError as error:
            if error.errno == errno.ELOOP:
                message = _LINK_CHAIN_LOOP.format(relative)
            else:
                message = f"{relative} could not be examined ({_reason(error)})"
            collected.problems.append(ListingProblem(relative, message))
            return None
        if is_directory:
            if is_skipped_directory_name(entry.name):
                return None
            link_target = self._link_target(entry.path) if is_link else None
            try:
                status = entry.stat()
            except OSError as error:
                collected.problems.append(
                    ListingProblem(relative, f"{relative} could not be examined ({_reason(error)})")
                )
                return None
            identity = (status.st_dev, status.st_ino)
            if identity in parent.ancestors:
                if link_target is not None:
                    collected.symlinks.append((relative, link_target))
                collected.problems.append(
                    ListingProblem(
                        relative,
                        f"{relative} is a symlink loop: it leads back to "
                        f"{_shown(parent.ancestors[identity])}, which contains it; "
                        "it was not followed",
                    )
                )
                return None
            return _Pending(
                relative, entry.path, {**parent.ancestors, identity: relative}, link_target
            )
        if is_file:
            collected.files.append(relative)
            if is_link:
                collected.symlinks.append((relative, self._link_target(entry.path)))
            return None
        if is_link:
            collected.problems.append(ListingProblem(relative, self._dangling(relative, entry)))
        return None  # sockets, fifos, devices: not part of a Python project

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
        if real.startswith(self._real_root + os.sep):
            return PurePath(os.path.relpath(real, self._real_root)).as_posix()
        return PurePath(real).as_posix()


def _clean_relative(path: str) -> str | None:
    """`path` as a clean relative POSIX path ("" for the project directory), or None
    when it would leave the project directory."""
    parts = [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]
    if path.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
        return None
    return "/".join(parts)
