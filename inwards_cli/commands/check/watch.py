"""`inwards check --watch`: check once, then again after each batch of saved changes, and
print only what changed (findings that appeared, findings that are gone, one summary line).

watchfiles is an optional extra (`inwards-lint[watch]`), imported here only when --watch is
given: a one-shot check (CI, pre-commit, the fast path) never loads it.
"""

from __future__ import annotations

import gc
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import attrs

from inwards_cli.adapters.standard_output import write_standard_output
from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.check.output import render, use_colour
from inwards_cli.commands.check.run import CheckOutcome, CheckSession
from inwards_cli.commands.console import display_from, fail
from inwards_cli.commands.loading import locate_config
from inwards_core.model.findings import Finding, Report
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

# A finding is the same across runs when its rule, file and message are: an edit above it
# moves its line, and that is no news.
FindingKey = tuple[str, str, str]
Changes = Callable[[Path], Iterator[object]]


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
        ignore_dirs = (*watchfiles.DefaultFilter.ignore_dirs, *sorted(IGNORED_DIRECTORIES))

        def __call__(self, change: watchfiles.Change, path: str) -> bool:
            if not path.endswith(WATCHED_SUFFIXES) or _own_write(path):
                return False
            return super().__call__(change, path)

    def changes(project_dir: Path) -> Iterator[object]:
        # The user's and the organisation's rule roots count too: a definition saved
        # there changes the verdict as one in the project does.
        roots = [project_dir, *outside_rule_roots(project_dir)]
        return iter(watchfiles.watch(*roots, watch_filter=Saved(), debounce=400))

    return changes


def _own_write(path: str) -> bool:
    parts = Path(path).parts
    return any(parts[at : at + 2] == OWN_WRITES for at in range(len(parts) - 1))


def outside_rule_roots(project_dir: Path) -> list[Path]:
    """The user and organisation rule roots that exist outside the project directory."""
    from inwards_cli.adapters.org_rules import ORG_RULES_OVERRIDE
    from inwards_cli.adapters.rule_roots import user_rules_directory

    found: list[Path] = []
    named = [user_rules_directory(os.environ)[0]]
    if os.environ.get(ORG_RULES_OVERRIDE, "").startswith("/"):
        named.append(Path(os.environ[ORG_RULES_OVERRIDE]))
    project = project_dir.resolve()
    for root in named:
        try:
            real = root.resolve()
            if real.is_dir() and not real.is_relative_to(project):
                found.append(real)
        except OSError:
            continue  # a root that can't be looked into is reported by the check itself
    return found


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
