"""Helpers for tests and for authors of third-party rule families.

Everything here is pure and in memory, and nothing imports pytest, so a family's own
test suite (whatever runner it uses) can build a project out of a dict of files and run
the engine on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inwards_core.adapters.caches import DictExtractionCache, NullExtractionCache
from inwards_core.adapters.packaged_rules import packaged_documents, packaged_root
from inwards_core.arguments import require_mapping, shown, type_name
from inwards_core.model.findings import RootKind
from inwards_core.ports import (
    VIRTUALENV_MARKER,
    ListingProblem,
    ProjectFiles,
    ProjectListing,
    RootReport,
    RootState,
    RuleDocument,
    RuleSources,
    is_skipped_directory_name,
)
from inwards_core.rules.kinds import Family

__all__ = [
    "DictExtractionCache",
    "InMemoryProjectFiles",
    "InMemoryRuleSources",
    "NullExtractionCache",
]


def _normalise(path: str, argument: str = "path") -> str:
    """`path` as a clean relative POSIX path; "" for the project directory itself."""
    parts = [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]
    if path.startswith("/") or ".." in parts:
        raise ValueError(f"{argument}: {shown(path)} is not a path inside the project")
    return "/".join(parts)


def _parent(path: str) -> str:
    return path.rpartition("/")[0]


class InMemoryProjectFiles(ProjectFiles):
    """A project made of a mapping from POSIX paths (relative to the project directory) to
    contents; a `str` is stored as UTF-8. Directories are the parents of the files.

    It leaves out the same directories as the disk adapter: names starting with ".",
    `__pycache__`, `node_modules`, `*.egg-info`, and any directory holding `pyvenv.cfg`.
    A directory named by `under` itself is listed whatever its name.
    """

    def __init__(self, files: Mapping[str, str | bytes], *, argument: str = "files") -> None:
        """Raises `TypeError` for a path that is not a `str` or contents that are neither
        `str` nor `bytes`, and `ValueError` for a path outside the project or two paths
        that name one file (`a/b.py`, `a//b.py`, `./a/b.py`): never a silent pick. Messages
        name `argument` (`check_sources` passes "sources")."""
        require_mapping(argument, files, "paths to contents")
        self._files: dict[str, bytes] = {}
        given: dict[str, str] = {}
        for path, content in files.items():
            if not isinstance(path, str):
                raise TypeError(
                    f"{argument}: a path must be a str, not {type_name(path)}: {shown(path)}"
                )
            if not isinstance(content, str | bytes):
                raise TypeError(
                    f"{argument}[{shown(path)}] must be str or bytes, not {type_name(content)}"
                )
            clean = _normalise(path, argument)
            if not clean:
                raise ValueError(
                    f"{argument}: {shown(path)} names the project directory, not a file"
                )
            if clean in given:
                raise ValueError(
                    f"{argument}: {shown(given[clean])} and {shown(path)} name the same file "
                    f"({shown(clean)}); give each file once"
                )
            given[clean] = path
            self._files[clean] = content.encode("utf-8") if isinstance(content, str) else content
        self._directories: set[str] = set()
        for path in self._files:
            parent = _parent(path)
            while parent and parent not in self._directories:
                self._directories.add(parent)
                parent = _parent(parent)
        clash = sorted(self._directories.intersection(self._files))
        if clash:
            raise ValueError(
                f"{argument}: {shown(clash[0])} is given both as a file and as a directory"
            )

    def listing(self, under: str) -> ProjectListing:
        start = _normalise(under)
        if start in self._files:
            return ProjectListing(files=(start,), directories=())
        if start and start not in self._directories:
            return ProjectListing(
                files=(),
                directories=(),
                problems=(ListingProblem(start, f"{start} does not exist"),),
            )
        prefix = f"{start}/" if start else ""
        skipped = {
            directory
            for directory in self._directories
            if directory.startswith(prefix) and self._is_skipped(directory)
        }

        def kept(path: str) -> bool:
            if not path.startswith(prefix):
                return False
            parent = path
            while len(parent) > len(start):
                if parent in skipped:
                    return False
                parent = _parent(parent)
            return True

        files = tuple(sorted(path for path in self._files if kept(path)))
        directories = sorted(d for d in self._directories if kept(d))
        if start:
            directories.append(start)
        return ProjectListing(files=files, directories=tuple(sorted(directories)))

    def _is_skipped(self, directory: str) -> bool:
        name = directory.rpartition("/")[2]
        return is_skipped_directory_name(name) or f"{directory}/{VIRTUALENV_MARKER}" in (
            self._files
        )

    def read_bytes(self, path: str) -> bytes:
        try:
            clean = _normalise(path)
        except ValueError:
            raise FileNotFoundError(f"{path} is not a path inside the project") from None
        if clean in self._files:
            return self._files[clean]
        if clean in self._directories or not clean:
            raise IsADirectoryError(f"{path} is a directory")
        raise FileNotFoundError(f"{path} does not exist")


def _definition_texts(argument: str, files: object) -> dict[str, str | bytes]:
    """`files` checked: str file names to str or bytes TOML."""
    checked: dict[str, str | bytes] = {}
    for name, content in require_mapping(argument, files, "file names to TOML").items():
        if not isinstance(name, str):
            raise TypeError(f"{argument}: a file name must be a str, not {type_name(name)}")
        if not isinstance(content, str | bytes):
            raise TypeError(
                f"{argument}[{shown(name)}] must be str or bytes, not {type_name(content)}"
            )
        checked[name] = content
    return checked


class InMemoryRuleSources(RuleSources):
    """The families' core definitions plus user and project definitions given as
    `{file name: TOML text}`; a root given as None is absent. The organisation root is
    listed only when `org` is given (most callers have none)."""

    def __init__(
        self,
        families: Sequence[Family],
        *,
        user: Mapping[str, str | bytes] | None = None,
        project: Mapping[str, str | bytes] | None = None,
        org: Mapping[str, str | bytes] | None = None,
    ) -> None:
        documents = list(packaged_documents(families))
        reports = [packaged_root(families)]
        for root, files, location in (
            (RootKind.ORG, org, "<org>"),
            (RootKind.USER, user, "<user>"),
            (RootKind.PROJECT, project, ".inwards/rules"),
        ):
            if files is None and root is RootKind.ORG:
                continue
            if files is None:
                reports.append(RootReport(root, location, RootState.ABSENT))
                continue
            reports.append(RootReport(root, location, RootState.FOUND))
            for name, content in sorted(_definition_texts(root.value, files).items()):
                data = content.encode("utf-8") if isinstance(content, str) else content
                documents.append(RuleDocument(root, f"{location}/{name}", data, relative=name))
        self._documents = tuple(documents)
        self._reports = tuple(reports)

    def documents(self) -> Sequence[RuleDocument]:
        return self._documents

    def roots(self) -> Sequence[RootReport]:
        return self._reports
