"""The engine as an object with a lifetime: a `Session` opened once on a project keeps the
configuration, the rule set, the listed tree, the module index, every read file's facts and
each kind's findings warm, and answers "with these unsaved contents, what now?" for the
whole project or some files. What changed decides what is redone (`Reach`).

`inwards check` is a session used once; `check --watch`, the daemon, the language server
and the MCP server keep one. Nothing in a session writes to the project: `contents` live
for one call, and the facts read from them never reach the extraction cache.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Protocol, cast

import attrs

from inwards_core.adapters.caches import DictExtractionCache
from inwards_core.adapters.entry_points import EntryPoint, installed_entry_points
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.overlay import ForgettingCache, OverlaidFiles
from inwards_core.arguments import path_sequence, require_mapping, require_str, shown, type_name
from inwards_core.config.values import Config
from inwards_core.engine import (
    MemoState,
    Ports,
    RunOptions,
    Tree,
    check_project,
    documents_wanted,
    list_tree,
    run_once,
)
from inwards_core.extraction.remembered_runs import SOURCE_SUFFIXES
from inwards_core.model.findings import NotChecked, Report
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import RuleSources
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule
from inwards_core.warm_results import TreeMoved, WarmResults


def _nothing() -> None:
    return None


def _never(path: str) -> bool:
    return False


def _current() -> bool:
    return False


def _as_given(paths: Sequence[str], *, existing: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(path.removeprefix("./") for path in paths), ()


def _note_outside(report: Report, outside: Sequence[str]) -> Report:
    if not outside:
        return report
    notes = tuple(
        NotChecked(path, f"{path} is outside the project, so it was not checked.")
        for path in outside
    )
    return attrs.evolve(report, not_checked=report.not_checked + notes)


class _Locate(Protocol):
    def __call__(
        self, paths: Sequence[str], *, existing: bool
    ) -> tuple[tuple[str, ...], tuple[str, ...]]: ...


@attrs.frozen
class SessionSetup:
    """What a session is built from, as a composition assembles it.

    - `config`, `rule_set` and `rules` (the rule set with `[tool.inwards.rules]` applied,
      `inwards_core.prepare`), and the `ports` runs reach the outside through;
    - `finish`: the composition's last step on every report, given the named paths
      outside the project (noted as not checked, the rule set it was checked with, the
      baseline applied);
    - `locate`: the paths a caller names (relative to the project, or absolute) as POSIX
      paths relative to the project, and those outside it; with `existing`, a path that is
      not there is an error (`FileNotFoundError`);
    - `reloads_on`: whether a changed path (relative to the project) is an input of the
      setup itself (`pyproject.toml`, a rule definition, the baseline), after which
      `reload` builds the setup afresh (None: it can't be);
    - `outdated`: whether what the setup read outside the project changed since it was
      built (a distribution installed or removed: a rule pack, a family), after which a
      setup that can `reload` is built afresh before the next call;
    - `close`: stops what the ports started (worker processes);
    - `rule_sources`: the rule roots the rule set was resolved from (None: not known, as
      for an in-memory project), and `recorded_digests`: each root's digest as the last
      check recorded it (None: none recorded), for the status of the roots."""

    __repr__ = value_repr

    config: Config
    rule_set: RuleSet
    rules: tuple[ActiveRule, ...]
    ports: Ports
    finish: Callable[[Report, Sequence[str]], Report] = attrs.field(default=_note_outside, eq=False)
    locate: _Locate = attrs.field(default=_as_given, eq=False)
    reloads_on: Callable[[str], bool] = attrs.field(default=_never, eq=False)
    reload: Callable[[], SessionSetup] | None = attrs.field(default=None, eq=False)
    outdated: Callable[[], bool] = attrs.field(default=_current, eq=False)
    close: Callable[[], None] = attrs.field(default=_nothing, eq=False)
    rule_sources: RuleSources | None = attrs.field(default=None, eq=False)
    recorded_digests: Callable[[], Mapping[str, str] | None] = attrs.field(
        default=_nothing, eq=False
    )

    @classmethod
    def of_sources(cls, sources: Mapping[str, str | bytes], *, pyproject: str) -> SessionSetup:
        """An in-memory project: `sources` maps POSIX paths to contents, `pyproject` is the
        text of its pyproject.toml; the core rules of the installed families, no cache."""
        from inwards_core.adapters.in_memory import InMemoryProjectFiles
        from inwards_core.api import load_config_text, load_rules, prepare

        files = InMemoryProjectFiles(
            require_mapping("sources", sources, "paths to contents"), argument="sources"
        )
        text = require_str("pyproject", pyproject, "the text of pyproject.toml")

        def build() -> SessionSetup:
            prepared = prepare(load_config_text(text), load_rules())
            ports = Ports(files, DictExtractionCache(), StandardGrammars())
            return cls(prepared.config, prepared.rule_set, prepared.rules, ports, reload=build)

        return build()


class DirectoryOpener(Protocol):
    """What a composition registered under `inwards_core.api.COMPOSITION_GROUP` provides:
    the setup of a session on the project holding `directory`, with the disk adapters."""

    def __call__(self, directory: str, *, isolated: bool, baseline: bool) -> SessionSetup: ...


class Session:
    """A warm engine on one project (see the module's docstring). Open one with
    `Session.open(directory)` (the disk, as `inwards check` reads it) or
    `Session.in_memory(sources, pyproject=...)`; use it as a context manager, or `close()`
    it to stop its workers. Not for use from several threads at once."""

    def __init__(
        self, setup: SessionSetup, *, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        if not isinstance(setup, SessionSetup):
            raise TypeError(f"setup must be a SessionSetup, not {type_name(setup)}")
        self._setup = setup
        self._clock = clock
        self._warm: WarmResults | None = None
        self._tree: Tree | None = None
        self._pending: set[str] = set()  # files changed since the last call
        self._used = False  # the first whole-project run may be the memo's
        self._closed = False

    # -- opening and closing ----------------------------------------------------------

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] = ".",
        *,
        isolated: bool = False,
        baseline: bool = True,
    ) -> Session:
        """A session on the project holding `directory`, as `inwards check` run there
        reads it: the configuration found at or above it, the core, user (unless
        `isolated`) and project rule roots, the baseline beside the configuration (unless
        `baseline` is False), the extraction cache and the worker processes. Raises what
        `inwards_core.check_path` raises."""
        opener = directory_opener()
        return cls(opener(os.fspath(directory), isolated=isolated, baseline=baseline))

    @classmethod
    def in_memory(cls, sources: Mapping[str, str | bytes], *, pyproject: str) -> Session:
        """A session on an in-memory project (see `SessionSetup.of_sources`)."""
        return cls(SessionSetup.of_sources(sources, pyproject=pyproject))

    def close(self) -> None:
        """Keep what the cache learnt (a warm session writes it once, here, rather than on
        every call) and stop the workers."""
        if not self._closed:
            self._closed = True
            if self._warm is not None:  # what warm runs read and parsed since they began
                self._setup.ports.cache.flush(prune=False)
            self._setup.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def config(self) -> Config:
        return self._setup.config

    @property
    def rule_set(self) -> RuleSet:
        return self._setup.rule_set

    @property
    def rules(self) -> tuple[ActiveRule, ...]:
        return self._setup.rules

    @property
    def rule_sources(self) -> RuleSources | None:
        """The rule roots the rule set was resolved from (None when the setup doesn't say)."""
        return self._setup.rule_sources

    def recorded_digests(self) -> Mapping[str, str] | None:
        """Each rule root's digest as the last check recorded it (None: none was)."""
        return self._setup.recorded_digests()

    # -- what changed -----------------------------------------------------------------

    def changed(self, paths: Iterable[str]) -> None:
        """Files changed on disk (relative to the project, or absolute): the next call reads
        them again and runs again what their change reaches. A change of the setup's own
        inputs (`pyproject.toml`, a rule definition, the baseline) reloads it."""
        given = path_sequence("paths", list(paths) if not isinstance(paths, str) else paths)
        inside, _ = self._setup.locate(given or (), existing=False)
        if any(self._setup.reloads_on(path) for path in inside):
            self.reload()
            return
        self._pending.update(inside)

    def reload(self) -> None:
        """Build the setup afresh (configuration, rule roots, baseline) and forget every
        warm result."""
        if self._setup.reload is not None:
            fresh = self._setup.reload()
            if self._warm is not None:
                self._setup.ports.cache.flush(prune=False)
            self._setup.close()
            self._setup = fresh
        self._forget_warm()

    def _reload_if_outdated(self) -> None:
        if self._setup.reload is not None and self._setup.outdated():
            self.reload()

    # -- checking ---------------------------------------------------------------------

    def check(
        self,
        paths: Sequence[str] | None = None,
        contents: Mapping[str, str | bytes] | None = None,
        *,
        full_parse: bool = False,
        source_lines: bool = False,
        verify_cache: bool = False,
        trace_rule: str | None = None,
    ) -> Report:
        """Check the whole project (`paths` None) or the named files and directories, with
        `contents` (path -> text) standing for what is on disk for this call only, and
        return the report: the one `inwards_core.check_path` returns for the same tree.
        `paths` and the keys of `contents` are relative to the project, or absolute.
        `full_parse`, `source_lines`, `verify_cache` and `trace_rule` are `RunOptions`'."""
        if self._closed:
            raise RuntimeError("this session is closed")
        started = self._clock()
        self._reload_if_outdated()
        named: tuple[str, ...] | None = None
        outside: tuple[str, ...] = ()
        given = self._contents(contents)
        if paths is not None:
            named, outside = self._named(path_sequence("paths", paths) or (), given)
        options = RunOptions(
            named,
            full_parse=full_parse,
            verify_cache=verify_cache,
            source_lines=source_lines,
            trace_rule=trace_rule,
        )
        report = self._run(options, given)
        report = attrs.evolve(report, duration_ms=round((self._clock() - started) * 1000, 1))
        return self._setup.finish(report, outside)

    def _named(
        self, paths: Sequence[str], given: Mapping[str, bytes]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The named paths inside the project and those outside it; a path that is not
        there is an error unless its contents are given (a file about to be written)."""
        locate = self._setup.locate
        if not given:
            return locate(paths, existing=True)
        inside: list[str] = []
        outside: list[str] = []
        for path in paths:
            found, away = locate([path], existing=False)
            if found and found[0] not in given:
                found, away = locate([path], existing=True)
            inside += found
            outside += away
        return tuple(inside), tuple(outside)

    def tree(self) -> Tree:
        """The project as this session lists it now: every file and directory below the
        root (`Tree.listing`) and the module index built from them (`Tree.index`). Listed
        once and kept, like the warm results, until a change calls for listing it again."""
        if self._closed:
            raise RuntimeError("this session is closed")
        self._reload_if_outdated()
        self._settle_pending()
        if self._tree is None:
            self._tree = list_tree(self._setup.config, self._setup.ports.files)
        return self._tree

    def _contents(self, contents: Mapping[str, str | bytes] | None) -> dict[str, bytes]:
        if contents is None:
            return {}
        mapping = require_mapping("contents", contents, "paths to contents")
        inside, outside = self._setup.locate(
            path_sequence("contents", list(mapping)) or (), existing=False
        )
        if outside:
            raise ValueError(f"contents names a file outside the project: {shown(outside[0])}")
        given: dict[str, bytes] = {}
        for path, text in zip(inside, mapping.values(), strict=True):
            if isinstance(text, str):
                given[path] = text.encode("utf-8", "surrogatepass")
            elif isinstance(text, bytes):
                given[path] = text
            else:
                raise TypeError(
                    f"contents[{shown(path)}] must be str or bytes, not {type_name(text)}"
                )
        return given

    def _run(self, options: RunOptions, given: dict[str, bytes]) -> Report:
        setup = self._setup
        if options.verify_cache:
            # A run that proves reads everything afresh: the warm facts are read again after.
            self._forget_warm()
            return check_project(setup.config, setup.rules, setup.ports, options)
        first, self._used = not self._used, True
        memo = first and setup.ports.memo is not None and options.trace_rule is None
        if memo and options.whole_project and not given:
            # The first whole-project run is the memo's, when it holds this tree. (It keeps
            # no trace: an explaining run is the warm run's, which traces what it did.)
            return check_project(setup.config, setup.rules, setup.ports, options)
        self._settle_pending()
        if self._tree is None:
            self._tree = list_tree(setup.config, setup.ports.files)
        if any(path not in self._tree.listing.files for path in given):
            return self._cold(options, given)  # a file not on disk yet: its own listing
        if options.whole_project:
            try:
                return self._whole(options, given)
            except TreeMoved:  # a changed file is gone: list the tree again, and start over
                self._forget_warm()
                return self._run(options, given)
        ports = self._ports_for(given)
        return run_once(
            setup.config, setup.rules, ports, options, self._tree, None, MemoState(None)
        )

    def _forget_warm(self) -> None:
        self._warm = None
        self._tree = None
        self._pending.clear()

    def _settle_pending(self) -> None:
        """A changed path that is not a listed source file, or no longer reads (a new
        file, a deleted one, a directory, a diagram), or that the warm run could not read:
        the tree is listed again and every result made afresh. A file the warm run reads
        up front is not read here: the warm run reads it anyway, and says when it is
        gone (`TreeMoved`)."""
        if not self._pending or self._tree is None:
            return
        listed = set(self._tree.listing.files)
        warm = self._warm
        unreadable = warm.unreadable if warm is not None else {}
        for path in self._pending:
            read_later = warm is not None and path in warm.checked
            if (
                path not in listed
                or not path.endswith(SOURCE_SUFFIXES)
                or path in unreadable
                or not (read_later or self._readable(path))
            ):
                self._forget_warm()
                return
        if warm is None:
            # Nothing warm reads them (the next whole-project run reads every file): kept,
            # they would be read again at every call of a session that only checks files.
            self._pending.clear()

    def _readable(self, path: str) -> bool:
        try:
            self._setup.ports.files.read_bytes(path)
        except OSError:
            return False
        return True

    def _ports_for(self, given: Mapping[str, bytes]) -> Ports:
        """The ports of one call: with given contents, files that read them and a cache
        that forgets what they made; never the memo (it remembers whole trees on disk)."""
        ports = attrs.evolve(self._setup.ports, memo=None)
        if not given:
            return ports
        return attrs.evolve(
            ports, files=OverlaidFiles(ports.files, given), cache=ForgettingCache(ports.cache)
        )

    def _cold(self, options: RunOptions, given: Mapping[str, bytes]) -> Report:
        setup = self._setup
        ports = self._ports_for(given)
        tree = list_tree(setup.config, ports.files)
        documents = documents_wanted(setup.config, setup.rules, ports.files, tree.listing, options)
        return run_once(setup.config, setup.rules, ports, options, tree, documents, MemoState(None))

    # -- the warm whole-project run -----------------------------------------------------

    def _whole(self, options: RunOptions, given: Mapping[str, bytes]) -> Report:
        setup = self._setup
        ports = (self._ports_for({}), self._ports_for(given))
        pending, self._pending = self._pending, set()
        warm = self._warm
        if warm is not None and warm.check_syntax == options.check_syntax:
            return warm.run(setup.config, setup.rules, ports, options, given, pending)
        tree = self._tree if self._tree is not None else list_tree(setup.config, ports[0].files)
        warm = self._warm = WarmResults.start(setup.config, setup.rules, ports[0], tree, options)
        report = warm.run(setup.config, setup.rules, ports, options, given, ())
        # Every file this run needs went through the cache: what it did not use is stale.
        setup.ports.cache.flush(prune=not given)
        return report


# -- check_path: a directory on disk, as `inwards check` checks it -------------------------

COMPOSITION_GROUP = "inwards.composition"
"""The entry-point group under which a distribution registers the disk composition that
`Session.open` and `check_path` use: a `DirectoryOpener` (the `inwards-lint` distribution
registers `inwards_cli.composition:open_directory`)."""


def check_path(
    directory: str | os.PathLike[str] = ".",
    *,
    paths: Sequence[str | os.PathLike[str]] | None = None,
    isolated: bool = False,
    baseline: bool = True,
) -> Report:
    """Check the project holding `directory` as `inwards check` run there does, and return
    the report (`report.to_json()` is the document `inwards check --format json` prints).

    The configuration is the nearest pyproject.toml with a `[tool.inwards]` table at or
    above `directory`; the rules come from the core, user (`$XDG_CONFIG_HOME/inwards/rules`,
    left out when `isolated`) and project (`.inwards/rules`) roots; the baseline next to the
    configuration is applied unless `baseline` is False; facts are cached in
    `.inwards/cache/` (INWARDS_NO_CACHE=1 turns it off) and files parsed by worker
    processes. `paths` are relative to `directory` (or absolute); None checks the whole
    project.

    Raises `ConfigNotFoundError` (a `ConfigError`) when no configuration is found,
    `ConfigError` for a configuration or project rule definition that can't be used (every
    problem with its file, line, column and key), `BaselineError`, `FamilyLoadError`, and
    `FileNotFoundError` / `NotADirectoryError` for a directory or path that isn't there.
    Rule-root warnings are `InwardsWarning`s."""
    if not isinstance(directory, str | os.PathLike):
        raise TypeError(
            f"directory must be a str or os.PathLike, not {type_name(directory)}: "
            f"{shown(directory)}"
        )
    named = None if paths is None else path_sequence("paths", _fspaths(paths))
    for name, flag in (("isolated", isolated), ("baseline", baseline)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, not {type_name(flag)}: {shown(flag)}")
    start = os.path.abspath(os.fspath(directory))
    with Session.open(directory, isolated=isolated, baseline=baseline) as session:
        absolute = None if named is None else [os.path.join(start, path) for path in named]
        return session.check(absolute)


def directory_opener(points: Sequence[EntryPoint] | None = None) -> DirectoryOpener:
    """The composition `Session.open` (and so `check_path`) calls: the first entry point of
    `COMPOSITION_GROUP` in the installed environment, in `sys.path` order (so a test double
    installed ahead of inwards takes its place). The core never imports the command line's
    package."""
    found = installed_entry_points(group=COMPOSITION_GROUP) if points is None else points
    if not found:
        raise LookupError(
            f"check_path needs a composition registered under the entry-point group "
            f"{COMPOSITION_GROUP!r}, and none is installed in this environment: install "
            f"inwards (pip install, not a source tree on sys.path), or check an in-memory "
            f"project with check_sources"
        )
    loaded = found[0].load()
    if not callable(loaded):
        raise TypeError(
            f"the entry point {found[0].name!r} of {COMPOSITION_GROUP!r} "
            f"({found[0].target}) is not callable"
        )
    return cast(DirectoryOpener, loaded)


def _fspaths(paths: object) -> object:
    """Path objects among `paths` as str; anything else left for `path_sequence` to judge."""
    if isinstance(paths, str | bytes) or not isinstance(paths, Sequence | set | frozenset):
        return paths
    return [os.fspath(p) if isinstance(p, os.PathLike) else p for p in paths]
