"""The memo of whole-project checks: the last report for each way of checking the project.

`.inwards/cache/findings-<16 hex>.json` holds one report, named by the digest of the run's
context (see `memo_context`: inwards' version and code, Python's version, the extractor and
grammars, the configuration file's path and text, the rule set's fingerprint, the families'
code and the command-line options that change findings) and recording the engine's
`inputs` (the listing and every source file's digest, see
`inwards_core.extraction.remembered_runs`). An unchanged tree then costs a listing, a stat
per file and one small decode; anything else is a miss and a whole check, whose report
replaces the entry.

A memo is a cache like the others (docs/hostile-input.md, "The cache's trust model"):
damaged, oversized, of another format or made for other inputs, it is a miss; it is
written atomically (two runs at once each leave a whole file, the last one wins); it is
never read through a symlink; `--verify-cache` checks it against a fresh run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inwards_cli.adapters.atomic import TEMP_SUFFIX, write_atomically
from inwards_cli.adapters.disk_cache import (
    STALE_TEMP_SECONDS,
    make_cache_directory,
    symlinked_component,
)
from inwards_cli.adapters.file_stamps import STAMPS_NAME
from inwards_cli.adapters.reading import read_regular_file
from inwards_core.model.findings import Report
from inwards_core.model.report_data import is_engine_report, report_from_data, report_to_data
from inwards_core.ports import RunMemo
from inwards_core.version import inwards_version

if TYPE_CHECKING:
    from inwards_core.rules.rule_set import RuleSet

__all__ = ["MEMO_FORMAT", "DiskRunMemo", "code_fingerprint", "memo_context"]

MEMO_FORMAT = 1
MEMO_PREFIX = "findings-"
MAX_MEMO_BYTES = 256 * 1024 * 1024
MAX_MEMOS = 8  # ways of checking one project remembered at once (formats, options, ...)


def code_fingerprint(packages: Iterable[str]) -> str:
    """The size and modification time of every `.py` file of the named top-level packages
    (inwards' own and the families'), so that a reinstall or an edit of an editable install
    never reuses a report made by other code. A package that can't be found counts by name."""
    digest = hashlib.sha256()
    for package in sorted(set(packages)):
        module = sys.modules.get(package)
        location = getattr(module, "__file__", None)
        digest.update(f"{package}\0".encode())
        if location is None:
            continue
        if os.path.basename(location) != "__init__.py":  # a module, not a package: itself
            with contextlib.suppress(OSError):
                status = os.stat(location)
                digest.update(f"{status.st_size}\0{status.st_mtime_ns}\0".encode())
            continue
        for directory, directories, names in sorted(os.walk(os.path.dirname(location))):
            directories[:] = [name for name in directories if name != "__pycache__"]
            for name in sorted(names):
                if name.endswith(".py"):
                    try:
                        status = os.stat(os.path.join(directory, name))
                    except OSError:
                        continue
                    digest.update(f"{name}\0{status.st_size}\0{status.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def memo_context(
    config_path: Path, config_text: str, rule_set: RuleSet, options: Sequence[Any]
) -> str:
    """Everything a report depends on besides the tree, the extractor and the grammars
    (`DiskRunMemo` adds those): the memo's name."""
    packages = ["inwards_core", "inwards_cli"]
    for family in rule_set.families:
        packages += [kind.check.__module__.partition(".")[0] for kind in family.kinds]
    parts = [
        f"memo {MEMO_FORMAT}",
        inwards_version(),
        sys.version,
        code_fingerprint(packages),
        str(config_path.absolute()),
        config_text,
        rule_set.fingerprint(inwards_version()),
        json.dumps([repr(option) for option in options]),
    ]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


class DiskRunMemo(RunMemo):
    """The memo of one context in `cache_dir` (`<project>/.inwards/cache`)."""

    def __init__(self, cache_dir: Path, context: str, extractor: str) -> None:
        self._cache_dir = Path(cache_dir)
        self._context = hashlib.sha256(f"{context}\0{extractor}".encode()).hexdigest()
        self._path = self._cache_dir / f"{MEMO_PREFIX}{context[:16]}.json"
        self.warnings: list[str] = []

    @property
    def entry_name(self) -> str:
        return (Path(".inwards") / "cache" / self._path.name).as_posix()

    def recall(self, inputs: str) -> Report | None:
        if symlinked_component(self._cache_dir, self._path) is not None:
            return None
        try:
            raw = read_regular_file(self._path, follow_symlinks=False, max_bytes=MAX_MEMO_BYTES)
            document = json.loads(raw)
        except (OSError, ValueError, RecursionError):
            return None  # absent, damaged, too big
        if (
            not isinstance(document, dict)
            or document.get("format") != MEMO_FORMAT
            or document.get("context") != self._context
            or document.get("inputs") != inputs
        ):
            return None
        try:
            return report_from_data(document.get("report"))
        except (ValueError, RecursionError):
            return None

    def keep(self, inputs: str, report: Report) -> None:
        if not is_engine_report(report):
            return
        document = {
            "format": MEMO_FORMAT,
            "context": self._context,
            "inputs": inputs,
            "report": report_to_data(report),
        }
        payload = json.dumps(document, separators=(",", ":"))
        try:
            if symlinked_component(self._cache_dir, self._path) is not None:
                return  # the extraction cache warns about it
            make_cache_directory(self._cache_dir)
            write_atomically(self._path, payload.encode("ascii"))
            self._forget_old()
        except OSError as error:
            self.warnings.append(f"the findings memo was not saved: {error.strerror or error}")

    def forget(self) -> None:
        if symlinked_component(self._cache_dir, self._path) is not None:
            return
        with contextlib.suppress(OSError):  # absent, or not ours to remove: a miss either way
            os.unlink(self._path)

    def _forget_old(self) -> None:
        """Keep the `MAX_MEMOS` most recently written memos (a memo made for a config or
        options no longer in use would otherwise stay forever), and remove the temp files
        of memos and stamps that a run which crashed left more than an hour ago."""
        memos: list[tuple[int, str]] = []
        gone: list[str] = []
        stale = (time.time() - STALE_TEMP_SECONDS) * 1e9
        with os.scandir(self._cache_dir) as entries:
            for entry in entries:
                name = entry.name
                if not name.startswith((MEMO_PREFIX, STAMPS_NAME)):
                    continue
                try:
                    written = entry.stat(follow_symlinks=False).st_mtime_ns
                except OSError:
                    continue
                if name.endswith(TEMP_SUFFIX):
                    if written < stale:
                        gone.append(entry.path)
                elif name.startswith(MEMO_PREFIX) and name.endswith(".json"):
                    memos.append((written, entry.path))
        gone += [path for _, path in sorted(memos, reverse=True)[MAX_MEMOS:]]
        for path in gone:
            with contextlib.suppress(OSError):
                os.unlink(path)
