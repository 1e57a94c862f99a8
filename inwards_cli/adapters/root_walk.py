"""The bounded walk of one rule root's directory (`read_root`), shared by the user and
project roots (`rule_roots`) and the org root's directory (`org_rules`).

Definition files (`*.toml`) are read below the directory, sub-folders too, following
symlinks: a file reached twice is read once, a link that leads back into a folder being
walked is reported as a loop, and a file whose target lies in the other root belongs to
that root. With `confine_to`, links that lead out of it are reported, not followed. The walk
is bounded (MAX_ROOT_ENTRIES, MAX_ROOT_DEPTH) and reads only regular files; it never fails:
what it can't read becomes a `ListingProblem` or an unreadable root.
"""

from __future__ import annotations

import errno
import itertools
import os
from pathlib import Path

import attrs

from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.config_file import shown_path
from inwards_core.model.findings import RootKind
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import ListingProblem, RootReport, RootState, RuleDocument

MAX_ROOT_ENTRIES = 10_000
"""Entries (files, folders and links, hidden ones aside) a root's walk examines before it
stops: a rule root holds definitions, not a disk (a link to `/` must end quickly)."""

MAX_ROOT_DEPTH = 8
"""Folders inside one another below a root; deeper ones are not read."""

MAX_DEFINITION_BYTES = 1024 * 1024
"""A definition file larger than this is not read."""

MAX_ROOT_PROBLEMS = 20
"""Problems named one by one per root; the rest are counted in one more."""


@attrs.define
class _Walk:
    __repr__ = value_repr

    root: RootKind
    top: Path
    other_root: Path | None
    confine: str | None  # the real project directory, for the project root
    read_definitions: bool = True  # False: only the folders are walked (`root_directories`)
    entered: list[Path] = attrs.Factory(list)  # each folder walked, as the walk reached it
    documents: list[RuleDocument] = attrs.Factory(list)
    problems: list[ListingProblem] = attrs.Factory(list)
    seen_files: set[str] = attrs.Factory(set)
    seen_directories: set[str] = attrs.Factory(set)
    examined: int = 0
    stopped: bool = False  # MAX_ROOT_ENTRIES reached: nothing more is read
    unnamed: int = 0  # problems past MAX_ROOT_PROBLEMS

    def problem(self, path: Path | str, message: str) -> None:
        if len(self.problems) < MAX_ROOT_PROBLEMS:
            self.problems.append(ListingProblem(shown_path(Path(path)), message))
        else:
            self.unnamed += 1

    def all_problems(self) -> tuple[ListingProblem, ...]:
        if not self.unnamed:
            return tuple(self.problems)
        more = ListingProblem(
            shown_path(self.top),
            f"has {self.unnamed} more problems than the {MAX_ROOT_PROBLEMS} named here.",
        )
        return (*self.problems, more)


def _inside(path: str, directory: Path | str | None) -> bool:
    if directory is None:
        return False
    top = str(directory)
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)


def _scan(walk: _Walk, directory: Path) -> list[os.DirEntry[str]] | None:
    """The entries of `directory` in name order, hidden ones left out; None when it can't
    be read, or when it would take the walk past MAX_ROOT_ENTRIES (the walk stops then)."""
    allowed = MAX_ROOT_ENTRIES - walk.examined
    try:
        with os.scandir(directory) as scanned:
            # One over the allowance at most is taken from the disk.
            entries = list(itertools.islice(scanned, allowed + 1))
    except OSError as error:
        walk.problem(directory, f"can't be read: {_reason(error)}.")
        return None
    if len(entries) > allowed:
        walk.stopped = True
        # Named whatever came before: it is why the rest is missing.
        walk.problems.append(
            ListingProblem(
                shown_path(walk.top),
                f"holds more than {MAX_ROOT_ENTRIES} files, folders and links (counting what "
                f"links lead to); the walk stopped at {shown_path(directory)}, so some "
                "definitions were not read.",
            )
        )
        return None
    walk.examined += len(entries)
    return sorted((e for e in entries if not e.name.startswith(".")), key=lambda e: e.name)


def _walk(walk: _Walk, directory: Path, relative: str, ancestors: tuple[str, ...]) -> None:
    """`ancestors` are the real paths of the folders being walked, `directory`'s last.
    Recursion is bounded by MAX_ROOT_DEPTH."""
    entries = _scan(walk, directory)
    if entries is None:
        return
    for entry in entries:
        if walk.stopped:
            return
        path = Path(entry.path)
        inner = f"{relative}/{entry.name}" if relative else entry.name
        # Only a link needs resolving: below a real folder, a plain entry's path is real.
        is_link = entry.is_symlink()
        try:
            real = os.path.realpath(path) if is_link else os.path.join(ancestors[-1], entry.name)
        except OSError as error:  # a link through a place we may not look (/proc/1/cwd)
            walk.problem(path, f"can't be read: {_reason(error)}.")
            continue
        if is_link and not os.path.exists(path):
            if entry.name.lower().endswith(".toml"):
                walk.problem(path, "is a symbolic link to nothing (broken link).")
            continue
        if is_link and walk.confine is not None and not _inside(real, walk.confine):
            walk.problem(
                path,
                f"is a symbolic link to {real}, outside the project directory; "
                "it was not followed.",
            )
            continue
        try:
            is_dir = entry.is_dir()  # follows links
            is_file = entry.is_file()
        except OSError as error:
            walk.problem(path, f"can't be read: {_reason(error)}.")
            continue
        if is_dir:
            _enter(walk, path, inner, real, ancestors)
        elif is_file and walk.read_definitions and entry.name.lower().endswith(".toml"):
            _read_definition(walk, path, inner, real)


def _enter(walk: _Walk, path: Path, inner: str, real: str, ancestors: tuple[str, ...]) -> None:
    if real in ancestors:
        walk.problem(
            path,
            "is a symbolic link back into a folder that contains it (a loop); it was not followed.",
        )
        return
    if real in walk.seen_directories or _inside(real, walk.other_root):
        return
    if len(ancestors) > MAX_ROOT_DEPTH:
        walk.problem(
            path,
            f"is more than {MAX_ROOT_DEPTH} folders deep below the root (counting what links "
            "lead to); it was not read.",
        )
        return
    walk.seen_directories.add(real)
    walk.entered.append(path)
    _walk(walk, path, inner, (*ancestors, real))


def _read_definition(walk: _Walk, path: Path, inner: str, real: str) -> None:
    if real in walk.seen_files or _inside(real, walk.other_root):
        return  # counted once; a link into the other root belongs to that root
    walk.seen_files.add(real)
    try:
        data = read_regular_file(path, max_bytes=MAX_DEFINITION_BYTES)
    except OSError as error:
        if error.errno == errno.EFBIG:
            reason = (
                f"is larger than {MAX_DEFINITION_BYTES // 1024} KiB, too large for a definition"
            )
        else:
            reason = f"can't be read: {_reason(error)}"
        walk.problem(path, f"{reason}.")
        return
    walk.documents.append(RuleDocument(walk.root, shown_path(path), data, relative=inner))


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def read_root(
    root: RootKind,
    directory: Path,
    *,
    other_root: Path | None = None,
    confine_to: Path | None = None,
) -> tuple[RootReport, tuple[RuleDocument, ...]]:
    """Every definition file below `directory`, and the root's state. With `confine_to`
    (the project directory, for the project root), links that lead out of it are reported,
    not followed."""
    location = str(directory)
    if not os.path.lexists(directory):
        return RootReport(root, location, RootState.ABSENT), ()
    try:
        return _read_root(root, directory, other_root, confine_to)
    except OSError as error:  # a root, or a link to it, through a place we may not look
        return RootReport(
            root,
            location,
            RootState.UNREADABLE,
            (ListingProblem(location, f"can't be read: {_reason(error)}."),),
        ), ()


def _read_root(
    root: RootKind, directory: Path, other_root: Path | None, confine_to: Path | None
) -> tuple[RootReport, tuple[RuleDocument, ...]]:
    location = str(directory)
    if not directory.exists():
        return RootReport(
            root,
            location,
            RootState.UNREADABLE,
            (ListingProblem(location, "is a symbolic link to nothing (broken link)."),),
        ), ()
    real = Path(os.path.realpath(directory))
    confine = os.path.realpath(confine_to) if confine_to is not None else None
    if confine is not None and not _inside(str(real), confine):
        message = f"leads to {real}, outside the project directory; it was not followed."
        return RootReport(
            root, location, RootState.UNREADABLE, (ListingProblem(location, message),)
        ), ()
    if not directory.is_dir():
        return RootReport(
            root,
            location,
            RootState.UNREADABLE,
            (ListingProblem(location, "is not a directory."),),
        ), ()
    walk = _Walk(root, real, other_root, confine)
    walk.seen_directories.add(str(real))
    try:
        os.scandir(directory).close()
    except OSError as error:
        return RootReport(
            root,
            location,
            RootState.UNREADABLE,
            (ListingProblem(location, f"can't be read: {_reason(error)}."),),
        ), ()
    _walk(walk, directory, "", (str(real),))
    documents = tuple(sorted(walk.documents, key=lambda d: d.relative))
    report = RootReport(root, location, RootState.FOUND, walk.all_problems())
    return report, documents


def root_directories(directory: Path, *, confine_to: Path | None = None) -> tuple[Path, ...]:
    """The folders `read_root` walks below `directory` (itself first), each as the walk
    reached it, within the same bounds and never through a link it would not follow; ()
    when the root is absent or can't be read. What `check --watch` watches of a rule root."""
    try:
        real = os.path.realpath(directory)
        if not os.path.isdir(directory):
            return ()
    except (OSError, ValueError):
        return ()
    confine = os.path.realpath(confine_to) if confine_to is not None else None
    if confine is not None and not _inside(real, confine):
        return ()
    walk = _Walk(RootKind.USER, Path(real), None, confine, read_definitions=False)
    walk.seen_directories.add(real)
    walk.entered.append(directory)
    _walk(walk, directory, "", (real,))
    return tuple(walk.entered)
