"""The org, user and project rule roots on disk, beside the core definitions the families
ship (the org root's packs and directory are found by `org_rules`).

`LocalRuleSources` reads `*.toml` definition files below each root directory (sub-folders
are allowed, for grouping), following symlinks: a file reached twice is read once, a link
that leads back into a folder being walked is reported as a loop, and a file whose target
lies in the other root belongs to that root. It never fails: what it can't read becomes a
`ListingProblem` or an unreadable root, and the resolver decides what that means for the
run (an error in the project root, a warning in the user root).

The project root is part of a checkout that may come from a stranger, so a link in it that
leads out of the project directory is reported, not followed. The user root belongs to
the person at the keyboard and its links are followed anywhere. Either walk is bounded
(MAX_ROOT_ENTRIES, MAX_ROOT_DEPTH), so a link to `/` ends quickly with a problem instead of
walking the disk, and only regular files are read (a FIFO or a device never blocks it).
"""

from __future__ import annotations

import errno
import itertools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.config_file import shown_path
from inwards_core.adapters.packaged_rules import packaged_documents, packaged_root
from inwards_core.model.findings import RootKind
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import ListingProblem, RootReport, RootState, RuleDocument, RuleSources
from inwards_core.rules.kinds import Family

if TYPE_CHECKING:
    from inwards_cli.adapters.org_rules import OrgRoot

PROJECT_RULES_DIR = Path(".inwards") / "rules"
USER_RULES_OVERRIDE = "INWARDS_USER_RULES_DIR"


@attrs.frozen
class UserRoot:
    """Where the user root is, how that was decided, and whether this run ignores it."""

    __repr__ = value_repr

    directory: Path
    note: str = ""  # how the directory was chosen, when not by the default
    warning: str = ""  # e.g. a relative XDG_CONFIG_HOME that was passed over
    ignored_because: str = ""


def user_rules_directory(environ: Mapping[str, str]) -> tuple[Path, str, str]:
    """`$INWARDS_USER_RULES_DIR`, else `$XDG_CONFIG_HOME/inwards/rules`, else
    `~/.config/inwards/rules` (also on macOS; `%APPDATA%` on Windows). A relative
    XDG_CONFIG_HOME is ignored, as the XDG spec asks, with a warning.
    Returns (directory, note, warning)."""
    override = environ.get(USER_RULES_OVERRIDE, "")
    if override:
        return Path(override).expanduser().absolute(), f"set by {USER_RULES_OVERRIDE}", ""
    warning = ""
    xdg = environ.get("XDG_CONFIG_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "inwards" / "rules", "from XDG_CONFIG_HOME", ""
    if xdg:
        warning = (
            f'XDG_CONFIG_HOME="{xdg}" is a relative path, which the XDG spec says to ignore; '
            "using the default instead"
        )
    if os.name == "nt" and environ.get("APPDATA"):
        return Path(environ["APPDATA"]) / "inwards" / "rules", "from APPDATA", warning
    return Path.home() / ".config" / "inwards" / "rules", "the default", warning


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
        real = os.path.realpath(path) if is_link else os.path.join(ancestors[-1], entry.name)
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
        elif is_file and entry.name.lower().endswith(".toml"):
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


class LocalRuleSources(RuleSources):
    """Core definitions from the installed families, then the org root (installed rule
    packs and INWARDS_ORG_RULES_DIR, when `org` is given), then the user root, then the
    project root (`<project>/.inwards/rules`). `project_dir` is None outside a project."""

    def __init__(
        self,
        families: Sequence[Family],
        *,
        project_dir: Path | None,
        user: UserRoot,
        org: OrgRoot | None = None,
    ) -> None:
        self._families = tuple(families)
        self._project_dir = project_dir
        self._user = user
        self._org = org
        self._loaded: tuple[tuple[RuleDocument, ...], tuple[RootReport, ...]] | None = None

    @property
    def project_rules(self) -> Path | None:
        return None if self._project_dir is None else self._project_dir / PROJECT_RULES_DIR

    @property
    def user_rules(self) -> Path:
        return self._user.directory

    def _load(self) -> tuple[tuple[RuleDocument, ...], tuple[RootReport, ...]]:
        if self._loaded is not None:
            return self._loaded
        documents = list(packaged_documents(self._families))
        reports = [packaged_root(self._families)]
        if self._org is not None:
            # Imported here: org_rules reads with this module's walker.
            from inwards_cli.adapters.org_rules import read_org_root

            report, found = read_org_root(self._org)
            reports.append(report)
            documents += found
        project = self.project_rules
        project_real = Path(os.path.realpath(project)) if project is not None else None
        user_dir = self._user.directory
        if self._user.ignored_because:
            reports.append(
                RootReport(
                    RootKind.USER, str(user_dir), RootState.IGNORED, note=self._user.ignored_because
                )
            )
        elif project_real is not None and Path(os.path.realpath(user_dir)) == project_real:
            reports.append(
                RootReport(
                    RootKind.USER,
                    str(user_dir),
                    RootState.IGNORED,
                    note="it is the same directory as the project root, which reads it",
                )
            )
        else:
            report, found = read_root(RootKind.USER, user_dir, other_root=project_real)
            reports.append(attrs.evolve(report, note=self._user.note, warning=self._user.warning))
            documents += found
        if project is None:
            reports.append(
                RootReport(
                    RootKind.PROJECT,
                    "",
                    RootState.ABSENT,
                    note="no pyproject.toml with [tool.inwards] was found",
                )
            )
        else:
            report, found = read_root(RootKind.PROJECT, project, confine_to=self._project_dir)
            reports.append(report)
            documents += found
        self._loaded = (tuple(documents), tuple(reports))
        return self._loaded

    def documents(self) -> Sequence[RuleDocument]:
        return self._load()[0]

    def roots(self) -> Sequence[RootReport]:
        return self._load()[1]
