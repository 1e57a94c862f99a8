"""The warm whole-project run of a `Session`: what one run made (every planned file's facts,
each rule's findings), kept so the next run redoes only what its changes reach.

A per-file kind (`Reach.FILE`) runs again over the changed files alone, an import-graph
kind (`Reach.IMPORT_GRAPH`) again when the graph changed, a kind that declares no reach on
every run. What given contents (unsaved text) made is the call's alone: it never stands for
the disk in the next call. The session decides when to start afresh; this module does the
run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

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
    documents_wanted,
    enabled_rules,
    kind_notes,
    options_of_rules_off,
    plan_reads,
    read_first_pass,
    run_rule,
    skips,
)
from inwards_core.extraction.facts_reading import read_facts
from inwards_core.rules.kinds import Reach
from inwards_core.rules.project import PerFileMemo, ProjectModel

if TYPE_CHECKING:
    from inwards_core.config.values import Config
    from inwards_core.extraction.documents import Documents
    from inwards_core.index.modules import ModuleInfo
    from inwards_core.model.facts import ModuleFacts
    from inwards_core.model.findings import Finding, NotChecked, Report
    from inwards_core.rules.selection import ActiveRule


class TreeMoved(Exception):
    """A changed file the warm run reads can't be read any more: the tree is not the one
    the warm results were made from (the session lists it again and starts over)."""


class _Changes:
    """What changed since the warm results were made: files whose facts on disk changed
    (`on_disk`), changed files the run reads only on demand (`elsewhere`) and whether the
    import graph changed (`graph`) or what a package's `__init__` does to `__path__` or
    `sys.modules` (`packages`: every file's findings may change with it); files whose given
    contents differ from the disk for this call (`for_call`), and whether that changes the
    graph or the packages (`call_graph`, `call_packages`). (Plain classes here: this module
    is imported on every start of `inwards check`, where an attrs class costs more.)"""

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

    def note(self, file: str, before: ModuleFacts, after: ModuleFacts, *, for_call: bool) -> None:
        """A file's facts changed, on disk or for this call only."""
        graph = _graph_part(after) != _graph_part(before)
        packages = _package_part(after) != _package_part(before)
        if for_call:
            self.for_call.add(file)
            self.call_graph |= graph
            self.call_packages |= packages
        else:
            self.on_disk.add(file)
            self.graph |= graph
            self.packages |= packages


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


class WarmResults:
    """What a whole-project run made, kept for the next: the tree and its plan, the
    documents, every planned file's facts as on disk (and the planned files by path, those
    that could not be read), the warnings of options of rules that are off, and each rule's
    findings: by checked file for the kinds of `Reach.FILE` (findings outside the checked
    files under ""), whole for those of `Reach.IMPORT_GRAPH`; what the model computed per
    file; and which files (`stale`) and rules (`stale_whole`) last ran on given contents,
    to run again on the next call."""

    __slots__ = (
        "by_file",
        "check_syntax",
        "checked",
        "documents",
        "facts",
        "memo",
        "off",
        "plan",
        "stale",
        "stale_whole",
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
        self.stale: set[str] = set()
        self.stale_whole: set[str] = set()

    @classmethod
    def start(
        cls,
        config: Config,
        rules: tuple[ActiveRule, ...],
        ports: Ports,
        tree: Tree,
        options: RunOptions,
    ) -> WarmResults:
        """Every planned file's facts read (through the cache, from the disk: `ports` has
        no given contents); no rule run yet."""
        documents = documents_wanted(config, rules, ports.files, tree.listing, options)
        plan = plan_reads(config, tree, enabled_rules(rules), None)
        facts, unreadable = read_first_pass(plan, ports, options, MemoState(None))
        return cls(
            options.check_syntax,
            tree,
            plan,
            documents,
            facts,
            {info.file: info for info in plan.selected if info.file in facts},
            {problem.path: problem for problem in unreadable},
            options_of_rules_off(config, rules),
        )

    def run(
        self,
        config: Config,
        rules: tuple[ActiveRule, ...],
        ports: tuple[Ports, Ports],
        options: RunOptions,
        given: Mapping[str, bytes],
        pending: Iterable[str],
    ) -> Report:
        """The whole project's report after the files in `pending` changed on disk, with
        `given` standing for the disk for this call. `ports` are the disk's and the call's
        (the disk's overlaid with `given`). Raises `TreeMoved` when a pending file can't be
        read any more."""
        disk, call = ports
        changes = _Changes()
        self._read_pending(pending, options, disk, changes)
        facts: dict[str, ModuleFacts] = self.facts
        if given:
            facts = dict(self.facts)
            infos = [self.checked[path] for path in sorted(given) if path in self.checked]
            fresh, _ = read_facts(
                infos, call.files, call.cache, call.grammars, call.parse_many, options.check_syntax
            )
            for file, found in fresh.items():
                if found != facts[file]:
                    changes.note(file, facts[file], found, for_call=True)
                facts[file] = found
        reader = FactsReader(call, options, MemoState(None))
        self.memo.forget(changes.on_disk | changes.elsewhere | changes.for_call | self.stale)
        model = build_model(
            config, self.tree, self.plan, facts, reader, self.documents, options, self.memo
        )
        findings = self._findings(rules, model, changes)
        verdicts = apply_verdicts(model, rules, [*findings, *self.off])
        self.memo.forget(changes.for_call)  # made from contents that are not on disk
        report = assemble_report(
            model,
            self.plan,
            verdicts,
            problems=(*self.unreadable.values(), *reader.content_gaps),
            documents=self.documents,
            skipped=(),
            listing=self.tree.listing,
            frames=bytes_reader({}, call.files) if options.source_lines else None,
            duration_ms=0.0,
            rule_notes=kind_notes(model, enabled_rules(rules)),
        )
        if options.trace_rule is None:
            return report
        from inwards_core.rules.trace import traced  # only an explaining run asks

        unreadable = tuple(self.unreadable.values())
        return traced(
            report, options.trace_rule, rules, model, self.tree.index, None, unreadable, verdicts
        )

    def _read_pending(
        self, pending: Iterable[str], options: RunOptions, ports: Ports, changes: _Changes
    ) -> None:
        """The facts of the files changed on disk, read again into the warm results."""
        pending = set(pending)
        infos = [self.checked[path] for path in sorted(pending) if path in self.checked]
        # A listed file no rule reads up front may still be read on demand (a package's
        # `__init__` for `extended_at`): what follows the graph runs again.
        changes.elsewhere = {path for path in pending if path not in self.checked}
        changes.graph |= bool(changes.elsewhere)
        changes.packages |= bool(changes.elsewhere)
        if not infos:
            return
        fresh, unreadable = read_facts(
            infos, ports.files, ports.cache, ports.grammars, ports.parse_many, options.check_syntax
        )
        for file, found in fresh.items():
            if found != self.facts[file]:
                changes.note(file, self.facts[file], found, for_call=False)
                self.facts[file] = found
        if unreadable:  # deleted, or made unreadable, since the last call
            raise TreeMoved

    def _findings(
        self, rules: tuple[ActiveRule, ...], model: ProjectModel, changes: _Changes
    ) -> list[Finding]:
        """Every enabled rule's findings on this call's model: the kinds a change reaches
        run again (over the changed files, or whole), the others' findings stand. What
        given contents made is this call's alone: those files (`stale`) and rules
        (`stale_whole`) run again on the next call."""
        file_reruns = sorted(changes.on_disk | self.stale | changes.for_call)
        restricted = None
        if file_reruns:
            infos = tuple(self.checked[file] for file in file_reruns)
            restricted = attrs.evolve(model, checked=infos, _shared={})
        reruns = {
            Reach.FILE: changes.packages or changes.call_packages,
            Reach.IMPORT_GRAPH: changes.graph or changes.call_graph,
        }
        by_call = changes.call_graph or changes.call_packages  # whole results of this call
        stale_whole: set[str] = set()
        found: list[Finding] = []
        for rule in enabled_rules(rules):
            if skips(rule, model) is not None:
                continue
            code, reach = rule.code, rule.rule.kind.reach
            whole_again = reach is None or reruns[reach] or code in self.stale_whole
            if reach is Reach.FILE and code in self.by_file and not whole_again:
                found += self._file_findings(self.by_file[code], restricted, rule, changes)
            elif reach is Reach.IMPORT_GRAPH and code in self.whole and not whole_again:
                found += self.whole[code]
            else:
                result = run_rule(model, rule)
                if reach is Reach.FILE:
                    self.by_file[code] = _buckets(result, self.checked)
                elif reach is Reach.IMPORT_GRAPH:
                    self.whole[code] = result
                if reach is not None and by_call:
                    stale_whole.add(code)
                found += result
        self.stale = set(changes.for_call)
        self.stale_whole = stale_whole
        return found

    @staticmethod
    def _file_findings(
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
