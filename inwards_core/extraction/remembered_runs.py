"""What the engine needs to remember a whole-project run (`RunMemo`): the digests of the
source files, one digest of everything the run reads from the tree, whether the run is
worth remembering, and the check `--verify-cache` makes of a remembered report.

A remembered report stands for a run only while every input is the same: the listing, every
source file's bytes (by digest; an adapter may know a digest from the file's stat), and
what the memo adds (inwards' code, the configuration, the rule set, the options). A run
that met a file it could not read, a file stopped by a limit, or a part of the tree it could
not list is not remembered: those may pass by the next run. Nor is one that read a file whose
bytes were no longer those of its digest (edited while the run went on).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from inwards_core.index.naming import ModuleInfo
from inwards_core.model.facts import FileProblemKind, ModuleFacts
from inwards_core.model.findings import Report
from inwards_core.ports import ProjectFiles, ProjectListing, RunMemo
from inwards_core.verification import CachedFactsDiffer, CacheMismatch

__all__ = [
    "SOURCE_SUFFIXES",
    "UNREADABLE",
    "Recall",
    "memorable",
    "recall",
    "remember",
    "run_inputs",
    "source_digests",
]

SOURCE_SUFFIXES = (".py", ".pyi")  # the files a module's facts are read from
_TEXT = ("utf-8", "surrogatepass")  # listed names may hold any code point


UNREADABLE = "unreadable"  # the digest of a file that can't be read: no sha256 is this


def source_digests(listing: ProjectListing, files: ProjectFiles) -> dict[str, str]:
    """The digest of every source file listed (an adapter's `digest(path)` may know it from
    the file's stat, see `RunMemo`); `UNREADABLE` for one that can't be read (a run that reads it
    meets the error again, and is not remembered)."""
    digests: dict[str, str] = {}
    for file in listing.files:
        if file.endswith(SOURCE_SUFFIXES):
            try:
                digests[file] = files.digest(file)
            except OSError:
                digests[file] = UNREADABLE
    return digests


def run_inputs(
    listing: ProjectListing,
    digests: Mapping[str, str],
    *,
    check_syntax: bool,
    source_lines: bool,
    documents: str = "",
) -> str:
    """A digest of everything a whole-project run reads from the tree: the listing (every
    file, directory and link, and what could not be listed), each source file's digest,
    the engine's own options, and `documents`, the digest of the diagram files a diagram
    rule reads (`Documents.digest`; "" when none is on). The `RunMemo` adds the rest
    (code, config, rules)."""
    digest = hashlib.sha256(f"run-inputs 1\0{check_syntax}\0{source_lines}\0".encode())
    if documents:
        digest.update(f"documents\0{documents}\0".encode())
    for part in (listing.files, listing.directories):
        digest.update(("\0".join(part) + "\1").encode(*_TEXT))
    for path, target in listing.symlinks:
        digest.update(f"{path}\0{target}\0".encode(*_TEXT))
    digest.update(b"\1")
    for problem in listing.problems:
        digest.update(f"{problem.path}\0{problem.message}\0".encode(*_TEXT))
    digest.update(b"\1")
    for file in sorted(digests):
        digest.update(f"{file}\0{digests[file]}\0".encode(*_TEXT))
    return digest.hexdigest()


class Recall(NamedTuple):
    """What a memo holds for a run about to start, and what the run was keyed by."""

    inputs: str
    digests: dict[str, str]
    held: Report | None


def recall(
    memo: RunMemo,
    listing: ProjectListing,
    files: ProjectFiles,
    *,
    check_syntax: bool,
    source_lines: bool,
    verify: bool,
    documents: str = "",
) -> Recall:
    """The run's inputs and what `memo` holds for them. With `verify` the memo forgets
    it (what it holds may come from forged facts the run then finds) and the caller
    compares it with the run's report (`remember`). `documents` as `run_inputs` takes it."""
    digests = source_digests(listing, files)
    inputs = run_inputs(
        listing,
        digests,
        check_syntax=check_syntax,
        source_lines=source_lines,
        documents=documents,
    )
    held = memo.recall(inputs)
    if verify:
        memo.forget()
    return Recall(inputs, digests, held)


def memorable(
    selected: Iterable[ModuleInfo], facts: Mapping[str, ModuleFacts], digests: Mapping[str, str]
) -> bool:
    """Whether the facts the run read all come from digested files and none was stopped
    by a limit."""
    for info in selected:
        if info.file not in digests:
            return False
        problem = None if info.file not in facts else facts[info.file].problem
        if problem is not None and problem.kind is FileProblemKind.LIMIT:
            return False
    return True


def remember(memo: RunMemo, inputs: str, report: Report, *, held: Report | None) -> None:
    """Keep `report` under `inputs`. `held` is what the memo held for them before a
    verifying run: when it differs from `report`, `CachedFactsDiffer` names the memo (once
    `report` has replaced it)."""
    memo.keep(inputs, report)
    if held is not None:
        from inwards_core.model.report_data import report_to_data  # --verify-cache only

        difference = _difference(report_to_data(held), report_to_data(report))
        if difference:
            raise CachedFactsDiffer((CacheMismatch(memo.entry_name, difference),))


def _difference(held: Mapping[str, object], fresh: Mapping[str, object]) -> str:
    for key, value in fresh.items():
        if held.get(key) != value:
            if isinstance(value, list) and isinstance(held.get(key), list):
                count = len(held[key])  # type: ignore[arg-type]
                return f"the remembered {key} ({count}) differ from this run's ({len(value)})"
            return f"the remembered {key} differ from this run's"
    return ""
