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
from typing import TYPE_CHECKING, Protocol, cast

import attrs

from inwards_core.adapters.caches import DictExtractionCache
from inwards_core.adapters.entry_points import EntryPoint, installed_entry_points
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.overlay import ForgettingCache, OverlaidFiles
from inwards_core.arguments import path_sequence, require_mapping, require_str, shown, type_name
from inwards_core.config.values import Config
from inwards_core.engine import (
    FactsReader,
    MemoState,
    Ports,
    ReadPlan,
    RunOptions,
    Tree,
    apply_verdicts,
    assemble_report,
    build_model,
    bytes_reader,
    check_project,
    documents_wanted,
    enabled_rules,
    kind_notes,
    list_tree,
    options_of_rules_off,
    plan_reads,
    read_first_pass,
    run_once,
    run_rule,
    skips,
)
from inwards_core.extraction.facts_reading import read_facts
from inwards_core.extraction.remembered_runs import SOURCE_SUFFIXES
from inwards_core.index.modules import ModuleInfo
from inwards_core.model.findings import Finding, NotChecked, Report
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import RuleSources
from inwards_core.rules.kinds import Reach
from inwards_core.rules.project import PerFileMemo, ProjectModel
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule

if TYPE_CHECKING:
    from inwards_core.extraction.documents import Documents
    from inwards_core.model.facts import ModuleFacts


def _nothing() -> None:
    return None


def _never(path: str) -> bool:
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


class _Warm:
    """What a whole-project run made, kept for the next: the tree and its plan, the
    documents, every planned file's facts as on disk (and the planned files by path, those
    that could not be read), the warnings of options of rules that are off, and each rule's
    findings: by checked file for the kinds of `Reach.FILE` (findings outside the checked
    files under ""), whole for those of `Reach.IMPORT_GRAPH`; and what the model computed
    per file. (Plain classes here and in `_Changes`: this module is imported on every
    start of `inwards check`, where an attrs class costs more.)"""

    __slots__ = (
        "by_file",
        "check_syntax",
        "checked",
        "documents",
        "facts",
        "memo",
        "off",
        "plan",
        "tree",
        "unreadable",
        "whole",
    )

    def __init__(
        self,
        check_syntax: bool,
        tree: Tree,
        plan: ReadPlan,
        documents: Documents | None,
        facts: dict[str, ModuleFacts],
        checked: dict[str, ModuleInfo],
        unreadable: dict[str, NotChecked],
        off: list[Finding],
    ) -> None:
        self.check_syntax = check_syntax
        self.tree = tree
        self.plan = plan
        self.documents = documents
        self.facts = facts
        self.checked = checked
        self.unreadable = unreadable
        self.off = off
        self.by_file: dict[str, dict[str, list[Finding]]] = {}
        self.whole: dict[str, list[Finding]] = {}
        self.memo = PerFileMemo()


class _TreeMoved(Exception):
    """A changed file the warm run reads can't be read any more: the tree is not the one
    the warm state was made from."""


class _Changes:
    """What changed since the warm results were made: files whose facts on disk changed
    (`on_disk`), changed files the run reads only on demand (`elsewhere`) and whether the
    import graph changed (`graph`) or what a package's `__init__` does to `__path__` or
    `sys.modules` (`packages`: every file's findings may change with it); files whose given
    contents differ from the disk for this call (`for_call`), and whether that changes the
    graph or the packages (`call_graph`, `call_packages`)."""

    __slots__ = (
        "call_graph",
        "call_packages",
        "elsewhere",
        "for_call",
        "graph",
        "on_disk",
        "packages",
    )

    def __init__(self) -> None:
        self.on_disk: set[str] = set()
        self.elsewhere: set[str] = set()  # changed, but not read up front
        self.graph = False
        self.packages = False
        self.for_call: set[str] = set()
        self.call_graph = False
        self.call_packages = False


def _graph_part(facts: ModuleFacts) -> tuple[object, ...]:
    """What the import-graph kinds read of a file's facts."""
    return (
        facts.imports,
        facts.dynamic_imports,
        facts.problem,
        facts.extends_path,
        facts.registers,
    )


def _package_part(facts: ModuleFacts) -> tuple[object, ...]:
    """What a package's `__init__` does that other files' findings may depend on
    (`ProjectModel.extended_at`)."""
    return (facts.extends_path, facts.registers, facts.import_hook_line)


def _buckets(
    findings: Iterable[Finding], files: Iterable[str], *, others: bool = True
) -> dict[str, list[Finding]]:
    """Findings by the checked file they are on, in the order of `files`; with `others`,
    those on any other file (the configuration, a definition) under ""."""
    buckets: dict[str, list[Finding]] = {file: [] for file in files}
    for finding in findings:
        if finding.file in files:
            buckets[finding.file].append(finding)
        elif others:
            buckets.setdefault("", []).append(finding)
    return buckets


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
        self._warm: _Warm | None = None
        self._tree: Tree | None = None
        self._pending: set[str] = set()  # files changed since the last call
        self._stale: set[str] = set()  # files whose findings came from given contents
        self._stale_whole: set[str] = set()  # rules whose whole findings did
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
        self._warm = None
        self._tree = None
        self._pending.clear()
        self._stale.clear()
        self._stale_whole.clear()

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
        if options.verify_cache or options.trace_rule is not None:
            # A run that proves or explains reads everything afresh, beside the warm state:
            # after a proof the warm facts are read again, after an explanation they stay.
            if options.verify_cache:
                self._forget_warm()
            return check_project(setup.config, setup.rules, setup.ports, options)
        first, self._used = not self._used, True
        if first and options.whole_project and not given and setup.ports.memo is not None:
            # The first whole-project run is the memo's, when it holds this tree.
            return check_project(setup.config, setup.rules, setup.ports, options)
        self._settle_pending()
        if self._tree is None:
            self._tree = list_tree(setup.config, setup.ports.files)
        if any(path not in self._tree.listing.files for path in given):
            return self._cold(options, given)  # a file not on disk yet: its own listing
        if options.whole_project:
            try:
                return self._whole(options, given)
            except _TreeMoved:  # a changed file is gone: list the tree again, and start over
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
        self._stale.clear()
        self._stale_whole.clear()

    def _settle_pending(self) -> None:
        """A changed path that is not a listed source file, or no longer reads (a new
        file, a deleted one, a directory, a diagram), or that the warm run could not read:
        the tree is listed again and every result made afresh. A file the warm run reads
        up front is not read here: `_read_pending` reads it anyway, and says when it is
        gone (`_TreeMoved`)."""
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
        warm = self._warm
        if warm is not None and warm.check_syntax == options.check_syntax:
            return self._incremental(warm, options, given)
        warm = self._warm = self._warm_up(options)
        self._pending.clear()
        self._stale.clear()
        self._stale_whole.clear()
        report = self._incremental(warm, options, given)
        # Every file this run needs went through the cache: what it did not use is stale.
        self._setup.ports.cache.flush(prune=not given)
        return report

    def _warm_up(self, options: RunOptions) -> _Warm:
        """Every planned file's facts read (through the cache) and every rule run once."""
        setup = self._setup
        ports = self._ports_for({})
        tree = self._tree if self._tree is not None else list_tree(setup.config, ports.files)
        documents = documents_wanted(setup.config, setup.rules, ports.files, tree.listing, options)
        enabled = enabled_rules(setup.rules)
        plan = plan_reads(setup.config, tree, enabled, None)
        facts, unreadable = read_first_pass(plan, ports, options, MemoState(None))
        return _Warm(
            options.check_syntax,
            tree,
            plan,
            documents,
            facts,
            {info.file: info for info in plan.selected if info.file in facts},
            {problem.path: problem for problem in unreadable},
            options_of_rules_off(setup.config, setup.rules),
        )

    def _incremental(self, warm: _Warm, options: RunOptions, given: Mapping[str, bytes]) -> Report:
        setup = self._setup
        disk_ports = self._ports_for({})
        changes = _Changes()
        self._read_pending(warm, options, disk_ports, changes)
        facts: dict[str, ModuleFacts] = warm.facts
        if given:
            facts = dict(warm.facts)
            overlaid = self._ports_for(given)
            infos = [warm.checked[path] for path in sorted(given) if path in warm.checked]
            fresh, _ = read_facts(
                infos,
                overlaid.files,
                overlaid.cache,
                overlaid.grammars,
                overlaid.parse_many,
                options.check_syntax,
            )
            for file, found in fresh.items():
                if found != facts[file]:
                    changes.for_call.add(file)
                    changes.call_graph |= _graph_part(found) != _graph_part(facts[file])
                    changes.call_packages |= _package_part(found) != _package_part(facts[file])
                facts[file] = found
        ports = self._ports_for(given)
        reader = FactsReader(ports, options, MemoState(None))
        warm.memo.forget(changes.on_disk | changes.elsewhere | changes.for_call | self._stale)
        model = build_model(
            setup.config, warm.tree, warm.plan, facts, reader, warm.documents, options, warm.memo
        )
        findings = self._findings(warm, model, changes)
        verdicts = apply_verdicts(model, setup.rules, [*findings, *warm.off])
        warm.memo.forget(changes.for_call)  # made from contents that are not on disk
        return assemble_report(
            model,
            warm.plan,
            verdicts,
            problems=(*warm.unreadable.values(), *reader.content_gaps),
            documents=warm.documents,
            skipped=(),
            listing=warm.tree.listing,
            frames=bytes_reader({}, ports.files) if options.source_lines else None,
            duration_ms=0.0,
            rule_notes=kind_notes(model, enabled_rules(setup.rules)),
        )

    def _read_pending(
        self, warm: _Warm, options: RunOptions, ports: Ports, changes: _Changes
    ) -> None:
        """The facts of the files changed on disk, read again into the warm state."""
        pending, self._pending = self._pending, set()
        infos = [warm.checked[path] for path in sorted(pending) if path in warm.checked]
        # A listed file no rule reads up front may still be read on demand (a package's
        # `__init__` for `extended_at`): what follows the graph runs again.
        changes.elsewhere = {path for path in pending if path not in warm.checked}
        changes.graph |= bool(changes.elsewhere)
        changes.packages |= bool(changes.elsewhere)
        if not infos:
            return
        fresh, unreadable = read_facts(
            infos,
            ports.files,
            ports.cache,
            ports.grammars,
            ports.parse_many,
            options.check_syntax,
        )
        for file, found in fresh.items():
            if found != warm.facts[file]:
                changes.on_disk.add(file)
                changes.graph |= _graph_part(found) != _graph_part(warm.facts[file])
                changes.packages |= _package_part(found) != _package_part(warm.facts[file])
                warm.facts[file] = found
        if unreadable:  # deleted, or made unreadable, since the last call
            raise _TreeMoved

    def _findings(self, warm: _Warm, model: ProjectModel, changes: _Changes) -> list[Finding]:
        """Every enabled rule's findings on this call's model: the kinds a change reaches
        run again (over the changed files, or whole), the others' findings stand. What
        given contents made is this call's alone: those files (`_stale`) and rules
        (`_stale_whole`) run again on the next call."""
        file_reruns = sorted(changes.on_disk | self._stale | changes.for_call)
        restricted = None
        if file_reruns:
            infos = tuple(warm.checked[file] for file in file_reruns)
            restricted = attrs.evolve(model, checked=infos, _shared={})
        reruns = {
            Reach.FILE: changes.packages or changes.call_packages,
            Reach.IMPORT_GRAPH: changes.graph or changes.call_graph,
        }
        by_call = changes.call_graph or changes.call_packages  # whole results of this call
        stale_whole: set[str] = set()
        found: list[Finding] = []
        for rule in enabled_rules(self._setup.rules):
            if skips(rule, model) is not None:
                continue
            code, reach = rule.code, rule.rule.kind.reach
            whole_again = reach is None or reruns[reach] or code in self._stale_whole
            if reach is Reach.FILE and code in warm.by_file and not whole_again:
                found += self._file_findings(warm.by_file[code], restricted, rule, changes)
            elif reach is Reach.IMPORT_GRAPH and code in warm.whole and not whole_again:
                found += warm.whole[code]
            else:
                result = run_rule(model, rule)
                if reach is Reach.FILE:
                    warm.by_file[code] = _buckets(result, warm.checked)
                elif reach is Reach.IMPORT_GRAPH:
                    warm.whole[code] = result
                if reach is not None and by_call:
                    stale_whole.add(code)
                found += result
        self._stale = set(changes.for_call)
        self._stale_whole = stale_whole
        return found

    def _file_findings(
        self,
        buckets: dict[str, list[Finding]],
        restricted: ProjectModel | None,
        rule: ActiveRule,
        changes: _Changes,
    ) -> list[Finding]:
        """A per-file rule's findings: run again over the changed files alone, the
        others' kept. The changed files' new findings are kept too, but for files whose
        contents were given for this call."""
        if restricted is not None:
            rerun = {info.file for info in restricted.checked}
            fresh = _buckets(run_rule(restricted, rule), sorted(rerun), others=False)
            for file in rerun - changes.for_call:
                buckets[file] = fresh[file]
            buckets = {**buckets, **fresh}
        return [finding for bucket in buckets.values() for finding in bucket]


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
