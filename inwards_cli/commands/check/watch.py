"""`inwards check --watch`: check once, then again after each batch of saved changes, and
print only what changed (findings that appeared, findings that are gone, one summary line).

watchfiles is an optional extra (`inwards-lint[watch]`), imported here only when --watch is
given: a one-shot check (CI, pre-commit, the fast path) never loads it. It watches each
directory of `watched_tree` on its own, never recursively: its recursive watch follows links
out of the project (see `inwards_cli/adapters/watched_directories.py`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path

import attrs

from inwards_cli.adapters.standard_output import write_standard_output
from inwards_cli.adapters.watched_directories import WatchedTree, watched_tree
from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.check.output import render, use_colour
from inwards_cli.commands.check.run import CheckOutcome, CheckSession
from inwards_cli.commands.console import display_from, fail
from inwards_cli.commands.loading import locate_config
from inwards_cli.termination import received
from inwards_core.model.findings import Finding, Report
from inwards_core.ports import is_skipped_directory_name
from inwards_core.reporting import FixDisplay
from inwards_core.reporting.formats import FORMATS, format_named, listed
from inwards_core.reporting.text import render_concise, summary_line

# What a save can change the verdict through: code, the configuration, rule definitions.
WATCHED_SUFFIXES = (".py", ".pyi", ".toml")
# Never woken by tools' directories, nor by our own writes (the cache; the project's rule
# definitions in .inwards/rules are watched).
IGNORED_DIRECTORIES = frozenset({".ruff_cache", "build", "dist"})
OWN_WRITES = (".inwards", "cache")
INSTALL_HINT = 'pip install "inwards-lint[watch]"'
# How long the watcher waits for changes before it says "none yet": after the directories
# are listed again, its first word says it is in place (see `_batches`).
TICK_MS = 250
DEBOUNCE_MS = 400

# A finding is the same across runs when its rule, file and message are: an edit above it
# moves its line, and that is no news.
FindingKey = tuple[str, str, str]
Changes = Callable[[Path], Iterator[object]]
Batch = AbstractSet[tuple[object, str]]  # watchfiles' (Change, path) pairs
WatchDirectories = Callable[[tuple[str, ...], frozenset[str]], Generator[Batch, None, None]]


def run_watch(arguments: CheckArguments) -> int:
    """Check, then re-check on every batch of changes until Ctrl-C, which is exit 0."""
    _refuse_unwatchable(arguments)
    changes = _watcher()
    # The fast path turns the cyclic collector off for a short run; a long one needs it.
    gc.enable()
    try:
        _watch(arguments, changes)
    except KeyboardInterrupt:
        sys.stdout.flush()
        # watchfiles turns a SIGTERM handler's exception into KeyboardInterrupt too.
        ended = received()
        if ended is not None:
            raise ended from None
    return 0


def _refuse_unwatchable(arguments: CheckArguments) -> None:
    if not format_named(arguments.output_format).watchable:
        watchable = [output.name for output in FORMATS if output.watchable]
        fail(
            f"--watch can't be used with --format {arguments.output_format}: it prints what "
            f"changed between runs, which is no document. Use {listed(watchable, 'or')}."
        )
    if arguments.output_file is not None:
        fail("--watch can't be used with --output-file: it prints to the terminal.")
    if arguments.show_files:
        fail("--watch can't be used with --show-files, which checks nothing.")


def _watcher() -> Changes:
    try:
        import watchfiles
    except ImportError:
        fail(f"--watch needs the watchfiles package: {INSTALL_HINT}")

    class Saved(watchfiles.DefaultFilter):
        """A saved source, configuration or definition, or a directory made, moved or
        removed (the directories to watch are listed again); never our own writes."""

        ignore_dirs = (*watchfiles.DefaultFilter.ignore_dirs, *sorted(IGNORED_DIRECTORIES))

        def __init__(self, directories: frozenset[str]) -> None:
            super().__init__()
            self._directories = directories

        def __call__(self, change: watchfiles.Change, path: str) -> bool:
            if _own_write(path):
                return False
            if not path.endswith(WATCHED_SUFFIXES) and not _directory_change(
                change == watchfiles.Change.added, path, self._directories
            ):
                return False
            return super().__call__(change, path)

    def watch(
        directories: tuple[str, ...], watched: frozenset[str]
    ) -> Generator[Batch, None, None]:
        return watchfiles.watch(
            *directories,
            watch_filter=Saved(watched),
            debounce=DEBOUNCE_MS,
            recursive=False,
            rust_timeout=TICK_MS,
            yield_on_timeout=True,
            ignore_permission_denied=True,  # check names a directory it can't read
        )

    # Directories whose events the filter drops are not watched at all.
    unwatched = frozenset({*watchfiles.DefaultFilter.ignore_dirs, *IGNORED_DIRECTORIES})

    def changes(project_dir: Path) -> Iterator[object]:
        return _batches(lambda: watched_tree(project_dir, unwatched), watch)

    return changes


def _directory_change(added: bool, path: str, watched: frozenset[str]) -> bool:
    """A watched directory gone or renamed, or a directory (or a link to one) made where
    `check` would list it (`.inwards`, where the project rule root is made, counts)."""
    if path in watched:
        return True
    name = os.path.basename(path)
    if not added or (is_skipped_directory_name(name) and name != ".inwards"):
        return False
    return os.path.isdir(path)


def _batches(listed: Callable[[], WatchedTree], watch: WatchDirectories) -> Iterator[object]:
    """Batches of saved paths; None for "anything may have changed". Each directory is
    watched alone, so when one is made, moved or removed the list is made again and, if it
    differs, the watcher starts anew on it. What was saved while it changed hands is not
    lost: the batch that made it start again (holding the directory, after which the check
    lists the tree again) is given on only once the new watcher is in place, which its
    first word (a batch, or none at the first tick) says."""
    carried: Batch = frozenset()
    unknown = False
    while True:
        tree = listed()
        try:
            with contextlib.closing(
                watch(tree.directories, frozenset(tree.directories))
            ) as batches:
                for batch in batches:
                    pending = carried | batch
                    if carried or unknown or _moves_directories(batch):
                        if listed() != tree:
                            carried = pending
                            break
                        carried = frozenset()
                    if unknown or any(tree.in_rule_root(path) for _, path in pending):
                        unknown = False
                        yield None  # the setup is built again (a user or organisation rule)
                    elif pending:
                        yield pending
        except FileNotFoundError:
            # A directory went between the listing and the watch: list again, and check
            # everything once the watcher is in place.
            unknown = True
            time.sleep(TICK_MS / 1000)
        except OSError as error:
            count = len(tree.directories)
            fail(f"--watch can't watch the {count} directories of the project: {error}")


def _moves_directories(batch: Batch) -> bool:
    # The filter lets through only saved files of these suffixes and directories' changes.
    return any(not path.endswith(WATCHED_SUFFIXES) for _, path in batch)


def _own_write(path: str) -> bool:
    parts = Path(path).parts
    return any(parts[at : at + 2] == OWN_WRITES for at in range(len(parts) - 1))


def _watch(arguments: CheckArguments, changes: Changes) -> None:
    project_dir = locate_config(arguments.config).project_dir  # none: exit 2, nothing to watch
    watched = _Watched(arguments)
    previous = watched.check(None)
    if previous is not None:
        _print(render(previous, arguments))
    _print(f"Watching {project_dir} for changes (Ctrl-C stops).\n")
    try:
        for batch in changes(project_dir):
            current = watched.check(_saved_paths(batch))
            if current is None:
                continue  # the error is on stderr; the next save may fix it
            shown = None if previous is None else previous.report
            _print(difference(shown, current.report, arguments, current.project_dir))
            previous = current
    finally:
        watched.close()


class _Watched:
    """One `CheckSession` kept across batches of saves, told what each batch changed so it
    redoes only what that reaches. A usage or configuration error (printed on stderr) drops
    it, and the next batch opens one afresh."""

    def __init__(self, arguments: CheckArguments) -> None:
        self._arguments = arguments
        self._opened: CheckSession | None = None

    def check(self, changed: Sequence[str] | None) -> CheckOutcome | None:
        """The check after `changed` (absolute paths; None: unknown, everything may have),
        or None when it stopped with an error."""
        try:
            if self._opened is None:
                self._opened = CheckSession(self._arguments)
            elif changed is None or not all(
                _inside(path, self._opened.project_dir) for path in changed
            ):
                self._opened.reload()  # a rule root outside the project, or anything
            else:
                self._opened.changed(changed)
            return self._opened.check()
        except SystemExit:
            sys.stderr.flush()
            self.close()
            return None

    def close(self) -> None:
        if self._opened is not None:
            self._opened.close()
            self._opened = None


def _inside(path: str, project_dir: Path) -> bool:
    try:
        return Path(path).resolve().is_relative_to(project_dir.resolve())
    except OSError:
        return False


def _saved_paths(batch: object) -> list[str] | None:
    """The paths of a batch of watchfiles' changes (a set of (change, path)); None for a
    batch of any other shape."""
    if not isinstance(batch, set | frozenset):
        return None
    paths: list[str] = []
    for change in batch:
        if not (isinstance(change, tuple) and len(change) == 2 and isinstance(change[1], str)):
            return None
        paths.append(change[1])
    return paths


def difference(
    before: Report | None, after: Report, arguments: CheckArguments, project_dir: Path
) -> str:
    """The findings of `after` not in `before` (+), those of `before` gone (-), and a line:
    how many of each, and the summary of `after`."""
    old = Counter(_keys(before.findings if before is not None else ()))
    new = Counter(_keys(after.findings))
    appeared = _pick(after.findings, new - old)
    gone = _pick(before.findings if before is not None else (), old - new)
    colour = use_colour(sys.stdout.isatty(), os.environ)
    lines = [f"+ {line}" for line in _heads(after, appeared, project_dir, colour)]
    lines += [f"- {line}" for line in _heads(after, gone, project_dir, colour)]
    lines.append(f"{len(appeared)} new, {len(gone)} gone. {summary_line(after)}")
    return "\n".join(lines) + "\n"


def _keys(findings: Iterable[Finding]) -> Iterator[FindingKey]:
    for finding in findings:
        yield (finding.code, finding.file, finding.stable_message or finding.message)


def _pick(findings: Sequence[Finding], wanted: Counter[FindingKey]) -> list[Finding]:
    left = Counter(wanted)
    picked: list[Finding] = []
    for finding, key in zip(findings, _keys(findings), strict=False):
        if left[key] > 0:
            left[key] -= 1
            picked.append(finding)
    return picked


def _heads(report: Report, findings: list[Finding], project_dir: Path, colour: bool) -> list[str]:
    if not findings:
        return []
    only = attrs.evolve(report, findings=tuple(findings))
    text = render_concise(
        only, display=display_from(project_dir), colour=colour, fixes=FixDisplay.NONE, quiet=True
    )
    return text.splitlines()


def _print(text: str) -> None:
    write_standard_output(text, "the report")
    sys.stdout.flush()
