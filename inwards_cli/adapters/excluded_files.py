"""A project's files without some of its directories: at a uv workspace root, the root's
configuration checks the tree without its members (each is checked with its own)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inwards_core.ports import ProjectFiles, ProjectListing

__all__ = ["ExcludedDirectories"]


class ExcludedDirectories(ProjectFiles):
    """`inner`'s listings with everything at or below `excluded` (POSIX directories
    relative to the project directory) left out. Anything else (`read_bytes`, and what a
    stamped listing adds: `digest`, `stamps`, `mismatches`) is `inner`'s own."""

    def __init__(self, inner: ProjectFiles, excluded: Sequence[str]) -> None:
        self.inner = inner
        self._excluded = frozenset(directory.strip("/") for directory in excluded)

    def _kept(self, path: str) -> bool:
        # The path and each directory above it: as many lookups as it has segments.
        if path in self._excluded:
            return False
        slash = path.find("/")
        while slash != -1:
            if path[:slash] in self._excluded:
                return False
            slash = path.find("/", slash + 1)
        return True

    def listing(self, under: str) -> ProjectListing:
        listed = self.inner.listing(under)
        return ProjectListing(
            files=tuple(path for path in listed.files if self._kept(path)),
            directories=tuple(path for path in listed.directories if self._kept(path)),
            symlinks=tuple(pair for pair in listed.symlinks if self._kept(pair[0])),
            problems=tuple(problem for problem in listed.problems if self._kept(problem.path)),
        )

    def read_bytes(self, path: str) -> bytes:
        return self.inner.read_bytes(path)

    def __getattr__(self, name: str) -> Any:
        # Only reached for what this class lacks: the stamped listing's extras.
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
