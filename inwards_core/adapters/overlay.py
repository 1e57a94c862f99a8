"""The project as it would be with some unsaved contents: an editor's buffer, an agent's
proposed write, a file that does not exist yet. A `Session` checks one call against these
and forgets them with the call; nothing here writes anywhere."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core.model.facts import ModuleFacts
from inwards_core.ports import (
    CacheKey,
    ExtractionCache,
    ProjectFiles,
    ProjectListing,
    is_skipped_directory_name,
)


class OverlaidFiles(ProjectFiles):
    """`inner`'s files with `contents` (POSIX path -> bytes) read instead of what is on
    disk. A given file that is not on disk is listed too, unless it lies in a directory
    every listing leaves out (a hidden one, `__pycache__`, ...), as the disk adapter would."""

    def __init__(self, inner: ProjectFiles, contents: Mapping[str, bytes]) -> None:
        self._inner = inner
        self._contents = contents

    def listing(self, under: str) -> ProjectListing:
        listing = self._inner.listing(under)
        start = under.strip("/")
        prefix = f"{start}/" if start not in ("", ".") else ""
        listed = set(listing.files)
        new = [
            path
            for path in self._contents
            if path.startswith(prefix) and path not in listed and _listable(path)
        ]
        if not new:
            return listing
        directories = set(listing.directories)
        for path in new:
            parts = path.split("/")[:-1]
            directories.update("/".join(parts[: end + 1]) for end in range(len(parts)))
        return attrs.evolve(
            listing,
            files=tuple(sorted((*listing.files, *new))),
            directories=tuple(sorted(directories)),
        )

    def read_bytes(self, path: str) -> bytes:
        if path in self._contents:
            return self._contents[path]
        return self._inner.read_bytes(path)


def _listable(path: str) -> bool:
    return not any(is_skipped_directory_name(part) for part in path.split("/")[:-1])


class ForgettingCache(ExtractionCache):
    """The extraction cache of a check with unsaved contents: entries are read from
    `inner` and put here, to be forgotten with the check (facts of text that is not on
    disk must never stand for the file)."""

    def __init__(self, inner: ExtractionCache) -> None:
        self._inner = inner
        self._held: dict[CacheKey, ModuleFacts] = {}

    def get(self, key: CacheKey) -> ModuleFacts | None:
        return self._held.get(key) or self._inner.get(key)

    def put(self, key: CacheKey, facts: ModuleFacts) -> None:
        self._held[key] = facts

    def flush(self, *, prune: bool) -> None:
        return None
