"""Read the files the `diagrams` key names (Markdown, Mermaid, PlantUML): text, not Python.

They usually live outside `root` (in `docs/`), so the whole project directory is listed
once and each glob is matched against it (`inwards_core.config.path_globs`). A file is read
as UTF-8 (a byte-order mark is dropped); one that can't be read, isn't UTF-8 or is larger
than `MAX_DOCUMENT_BYTES` is listed as not checked, never an error of the run. Nothing is
cached: the files are few and small, and the diagram rules parse them in one pass.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

import attrs

from inwards_core.config.path_globs import path_matches
from inwards_core.model.findings import NotChecked
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import ProjectFiles, ProjectListing

MAX_DOCUMENT_BYTES = 4 * 1024 * 1024  # an architecture document is far smaller


@attrs.frozen
class Documents:
    """`texts`: each matched file that could be read (POSIX path relative to the project
    directory) with its text; `matches`: each pattern with the files it matched, sorted
    (readable or not; () for a pattern that matched none); `unreadable`: the matched
    files that could not be read, and why."""

    __repr__ = value_repr

    texts: Mapping[str, str] = attrs.field(factory=dict)
    matches: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    unreadable: tuple[NotChecked, ...] = ()

    def digest(self) -> str:
        """One digest of everything read: the matches, each text, and what was not read (a
        run remembered under it is stale once a diagram file changes)."""
        digest = hashlib.sha256(b"documents 1\0")
        for pattern in sorted(self.matches):
            found = "\1".join(self.matches[pattern])
            digest.update(f"{pattern}\0{found}\0".encode(*_TEXT))
        for path in sorted(self.texts):
            text_digest = hashlib.sha256(self.texts[path].encode(*_TEXT)).hexdigest()
            digest.update(f"{path}\0{text_digest}\0".encode(*_TEXT))
        for problem in self.unreadable:
            digest.update(f"{problem.path}\0{problem.message}\0".encode(*_TEXT))
        return digest.hexdigest()


_TEXT = ("utf-8", "surrogatepass")  # listed names may hold any code point


def read_documents(
    patterns: Sequence[str], files: ProjectFiles, *, listing: ProjectListing | None = None
) -> Documents:
    """The files matching `patterns` (globs `path_glob_problem` accepts), read. `listing`
    is the whole project's listing when the caller has it already (root is the project
    directory); otherwise it is listed here, once."""
    if not patterns:
        return Documents()
    listed = listing if listing is not None else files.listing("")
    matches = {
        pattern: tuple(path for path in listed.files if path_matches(pattern, path))
        for pattern in dict.fromkeys(patterns)
    }
    texts: dict[str, str] = {}
    unreadable: list[NotChecked] = []
    for path in sorted({path for found in matches.values() for path in found}):
        text, problem = _read(path, files)
        if text is not None:
            texts[path] = text
        else:
            unreadable.append(NotChecked(path, problem))
    return Documents(texts, matches, tuple(unreadable))


def _read(path: str, files: ProjectFiles) -> tuple[str | None, str]:
    try:
        data = files.read_bytes(path)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return None, f"{path} could not be read ({reason}), so its diagrams were not checked."
    if len(data) > MAX_DOCUMENT_BYTES:
        return None, (
            f"{path} is larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB, so its diagrams "
            "were not checked."
        )
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as error:
        return None, (
            f"{path} is not UTF-8 text (byte {error.start + 1} cannot be decoded), so its "
            "diagrams were not checked."
        )
