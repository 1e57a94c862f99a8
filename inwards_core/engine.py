"""The pipeline as phases: list the tree and index the modules, plan what to read, read the
facts (through the cache), run the kinds, let the suppressions decide, report.

`check_project` runs the phases once, in order; `inwards_core.Session` runs the same phases
and keeps what they made between calls, redoing only what a change reaches. The engine
decides everything on one thread; only parsing may fan out, through the `ParseMany` of the
`Ports` (the CLI gives a process pool for big projects).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_core.config.values import Config, ConfigError, ConfigProblem
from inwards_core.extraction.facts_reading import ParseMany, parse_serially, read_facts
from inwards_core.extraction.remembered_runs import memorable, recall, remember
from inwards_core.index.modules import ModuleIndex, ModuleInfo
from inwards_core.model.facts import FileProblemKind
from inwards_core.model.findings import Finding, Fix, NotChecked, Report, Severity, Span
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import (
    ExtractionCache,
    GrammarBinaries,
    ProjectFiles,
    ProjectListing,
    RunMemo,
)
from inwards_core.read_plan import (
    ReadNeeds,
    listing_judges,
    modules_to_read,
    named_modules_to_read,
    normalise_root,
)
from inwards_core.rules.kinds import Scope, Violation
from inwards_core.rules.project import PerFileMemo, ProjectModel
from inwards_core.rules.selection import ActiveRule
from inwards_core.rules.violations import to_finding
from inwards_core.suppression_verdicts import RuleFacts, SuppressionOutcome, apply_suppressions

if TYPE_CHECKING:
    from inwards_core.extraction.documents import Documents
    from inwards_core.model.content_facts import ContentFacts
    from inwards_core.model.facts import ModuleFacts
    from inwards_core.model.source_lines import SourceLine


@attrs.frozen
class Ports:
    """Everything a run reaches the outside through: the project's files, the extraction
    cache, the parsers, how many files are parsed at once (`parse_many`: in this process,
    or in workers) and the memo of whole-project runs (None: runs are not remembered)."""

    __repr__ = value_repr

    files: ProjectFiles
    cache: ExtractionCache
    grammars: GrammarBinaries
    parse_many: ParseMany = parse_serially
    memo: RunMemo | None = None


def _paths_tuple(paths: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if paths is None else tuple(paths)


@attrs.frozen
class RunOptions:
    """How one run goes.

    - `paths`: POSIX paths relative to the project directory; None checks the whole project.
    - `full_parse`: parse every file whole, so a syntax error anywhere is reported (named
      paths always are). A whole-project run otherwise reads each file's import statements
      and the block headers around them without parsing the rest.
    - `verify_cache`: every file whose facts the cache holds is read again and compared;
      on any difference the entries are replaced and `CachedFactsDiffer` is raised (a kept
      report of the memo is checked against the run's the same way).
    - `source_lines`: the report keeps the line each finding points at: with `paths`, cut
      from the bytes read for the check; otherwise each file a finding points into is read
      again (holding every file's bytes through a run would cost megabytes).
    - `trace_rule` (a code): the report carries a `RuleTrace` of that rule (`inwards check
      --explain`); such a run neither recalls nor keeps a memo.
    """

    __repr__ = value_repr

    paths: tuple[str, ...] | None = attrs.field(default=None, converter=_paths_tuple)
    full_parse: bool = False
    verify_cache: bool = False
    source_lines: bool = False
    trace_rule: str | None = None

    @property
    def whole_project(self) -> bool:
        return self.paths is None

    @property
    def check_syntax(self) -> bool:
        return self.full_parse or self.paths is not None


@attrs.frozen
class Tree:
    """The project as listed: every file and directory, and the module index built from
    them."""

    __repr__ = value_repr

    listing: ProjectListing
    index: ModuleIndex


@attrs.frozen
class ReadPlan:
    """What a run reads: what the enabled rules need (`needs`), the modules whose facts
    are read (`selected`), the named modules judged from the listing alone (`listed`), and
    the named paths that hold nothing to check (`refused`)."""

    __repr__ = value_repr

    needs: ReadNeeds
    selected: tuple[ModuleInfo, ...]
    listed: tuple[ModuleInfo, ...] = ()
    refused: tuple[NotChecked, ...] = ()


class MemoState:
    """Whether the run under way may be remembered (`RunMemo`), and the source digests it
    knows. A file read while the run goes on whose bytes are no longer those of its digest,
    a file stopped by a limit, a file or a part of the tree that could not be read: each
    spoils the run, which is then not kept (those may pass by the next run)."""

    def __init__(self, digests: Mapping[str, str] | None) -> None:
        self.digests: Mapping[str, str] | None = digests
        self.changed: list[str] = []  # files whose bytes left their digest (read_facts)
        self.spoilt_by: list[str] = []  # why else the run is not kept

    def spoil(self, reason: str) -> None:
        self.spoilt_by.append(reason)

    def note_read(self, infos: Sequence[ModuleInfo], facts: Mapping[str, ModuleFacts]) -> None:
        if not memorable(infos, facts, self.digests or {}):
            self.spoil("a file read is not digested, or a limit stopped it")

    @property
    def worth_keeping(self) -> bool:
        return not self.changed and not self.spoilt_by


class FactsReader:
    """Reads facts on demand for the kinds, as the run read its first pass (the same
    ports, syntax check and verification): the facts of one more module
    (`ProjectModel.read_more`), its top-level names (`ProjectModel.top_names`) and the
    content facts of a batch (`ProjectModel.content`). What it meets on the way goes into
    the run's `MemoState`, and the files whose content a limit stopped into `content_gaps`."""

    def __init__(self, ports: Ports, options: RunOptions, memo_state: MemoState) -> None:
        self.ports = ports
        self.check_syntax = options.check_syntax
        self.verify = options.verify_cache
        self.memo_state = memo_state
        self.content_gaps: list[NotChecked] = []

    def _read(
        self, infos: Sequence[ModuleInfo], *, names: bool = False, content: bool = False
    ) -> dict[str, ModuleFacts]:
        state = self.memo_state
        read, _ = read_facts(
            infos,
            self.ports.files,
            self.ports.cache,
            self.ports.grammars,
            self.ports.parse_many,
            self.check_syntax,
            verify=self.verify,
            names=names,
            content=content,
            # Content facts are read as the first pass is, by the digests the run knows;
            # one more module's facts by the bytes read now.
            digests=state.digests if content else None,
            changed=state.changed if content else None,
        )
        if not content and any(info.file not in read for info in infos):
            state.spoil("a module a kind asked for could not be read")
        state.note_read(infos, read)
        return read

    def module(self, info: ModuleInfo) -> ModuleFacts | None:
        return self._read((info,)).get(info.file)

    def names(self, info: ModuleInfo) -> tuple[str, ...] | None:
        facts = self._read((info,), names=True).get(info.file)
        return None if facts is None else facts.names

    def contents(self, infos: Sequence[ModuleInfo]) -> Mapping[str, ContentFacts]:
        read = self._read(infos, content=True)
        for file, facts in read.items():
            if facts.problem is not None and facts.problem.kind is FileProblemKind.LIMIT:
                self.content_gaps.append(
                    NotChecked(
                        file,
                        f"{file}: its functions and classes were not read within the limits "
                        "a file is allowed, so the content rules did not judge it.",
                    )
                )
        return {file: facts.content for file, facts in read.items() if facts.content is not None}


def check_project(
    config: Config,
    rules: Sequence[ActiveRule],
    ports: Ports,
    options: RunOptions = RunOptions(),
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> Report:
    """Run every enabled rule once and return the report: the phases of
    docs/architecture.md's "path of a finding", in order.

    With a memo in `ports`, a whole-project run whose inputs (`run_inputs`) are those of a
    run the memo kept returns that run's report without reading a file; `verify_cache`
    checks the kept report against this run's instead."""
    started = clock()
    tree = list_tree(config, ports.files)
    documents = documents_wanted(config, rules, ports.files, tree.listing, options)
    recalled = None
    if ports.memo is not None and options.whole_project and options.trace_rule is None:
        recalled = recall(
            ports.memo,
            tree.listing,
            ports.files,
            check_syntax=options.check_syntax,
            source_lines=options.source_lines,
            verify=options.verify_cache,
            documents=documents.digest() if documents is not None else "",
        )
        if recalled.held is not None and not options.verify_cache:
            return attrs.evolve(recalled.held, duration_ms=round((clock() - started) * 1000, 1))
    memo_state = MemoState(None if recalled is None else recalled.digests)
    report = run_once(config, rules, ports, options, tree, documents, memo_state)
    report = attrs.evolve(report, duration_ms=round((clock() - started) * 1000, 1))
    if ports.memo is not None and recalled is not None and memo_state.worth_keeping:
        remember(
            ports.memo,
            recalled.inputs,
            report,
            held=recalled.held if options.verify_cache else None,
        )
    return report


def run_once(
    config: Config,
    rules: Sequence[ActiveRule],
    ports: Ports,
    options: RunOptions,
    tree: Tree,
    documents: Documents | None,
    memo_state: MemoState,
) -> Report:
    """The phases after the listing, once: plan, read, build the model, run the kinds, let
    the suppressions decide, report (its duration is the caller's to set)."""
    if tree.listing.problems:
        memo_state.spoil("a part of the tree could not be listed")
    enabled = enabled_rules(rules)
    plan = plan_reads(config, tree, enabled, options.paths)
    # The bytes of named files stay for the frames (a one-file run reads nothing twice); a
    # whole-project run reads again the few files with findings rather than hold them all.
    kept: dict[str, bytes] | None = (
        {} if options.source_lines and not options.whole_project else None
    )
    facts, unreadable = read_first_pass(plan, ports, options, memo_state, kept=kept)
    reader = FactsReader(ports, options, memo_state)
    model = build_model(config, tree, plan, facts, reader, documents, options)
    findings, skipped = run_kinds(model, enabled)
    said = kind_notes(model, enabled)
    findings += options_of_rules_off(config, rules)
    verdicts = apply_verdicts(model, rules, findings)
    ports.cache.flush(prune=options.whole_project)
    if documents is not None and documents.unreadable:
        memo_state.spoil("an unreadable diagram file may read next time")
    report = assemble_report(
        model,
        plan,
        verdicts,
        problems=(*unreadable, *reader.content_gaps),
        documents=documents,
        skipped=skipped,
        listing=tree.listing,
        frames=bytes_reader(kept or {}, ports.files) if options.source_lines else None,
        rule_notes=said,
        duration_ms=0.0,
    )
    if options.trace_rule is not None:
        from inwards_core.rules.trace import traced  # only `check --explain` asks

        report = traced(
            report,
            options.trace_rule,
            rules,
            model,
            tree.index,
            options.paths,
            unreadable,
            verdicts,
        )
    return report


# -- the phases --------------------------------------------------------------------------


def list_tree(config: Config, files: ProjectFiles) -> Tree:
    """List the project below its root and index the modules. A src layout checked without
    `root = "src"` is a `ConfigError`."""
    listing = files.listing(normalise_root(config.root))
    index = ModuleIndex.build(config, listing)
    _refuse_misplaced_root(config, index)
    return Tree(listing, index)


def enabled_rules(rules: Sequence[ActiveRule]) -> tuple[ActiveRule, ...]:
    return tuple(rule for rule in rules if rule.enabled)


def plan_reads(
    config: Config,
    tree: Tree,
    enabled: Sequence[ActiveRule],
    paths: Sequence[str] | None,
) -> ReadPlan:
    """Which modules a run reads: on a whole-project run, the layers' and what the enabled
    rules ask for; with `paths`, those of them under the named paths."""
    needs = ReadNeeds.of(enabled, whole_project=paths is None, contexts=bool(config.contexts))
    if paths is None:
        return ReadPlan(needs, tuple(modules_to_read(tree.index, needs)))
    judges = listing_judges(enabled, tree.index)
    selected, listed, refused = named_modules_to_read(paths, config, tree.index, needs, judges)
    return ReadPlan(needs, tuple(selected), listed, tuple(refused))


def read_first_pass(
    plan: ReadPlan,
    ports: Ports,
    options: RunOptions,
    memo_state: MemoState,
    *,
    kept: dict[str, bytes] | None = None,
) -> tuple[dict[str, ModuleFacts], list[NotChecked]]:
    """The facts of the planned modules (from the cache or parsed), and a note for each file
    that could not be read. With `kept`, the bytes read stay there (for the frames)."""
    facts, unreadable = read_facts(
        plan.selected,
        ports.files,
        ports.cache,
        ports.grammars,
        ports.parse_many,
        options.check_syntax,
        verify=options.verify_cache,
        kept=kept,
        digests=memo_state.digests,
        changed=memo_state.changed,
    )
    if unreadable:
        memo_state.spoil("a file could not be read")
    memo_state.note_read(plan.selected, facts)
    return facts, unreadable


def build_model(
    config: Config,
    tree: Tree,
    plan: ReadPlan,
    facts: Mapping[str, ModuleFacts],
    reader: FactsReader,
    documents: Documents | None,
    options: RunOptions,
    memo: PerFileMemo | None = None,
) -> ProjectModel:
    """The model every kind reads; when a content rule runs, with the first batch of
    content facts read. `memo`: what earlier runs computed per file, still true."""
    model = ProjectModel(
        config,
        tree.index,
        facts,
        tuple(info for info in plan.selected if info.file in facts),
        options.whole_project,
        listed=plan.listed,
        read_more=reader.module,
        # The top-level names are for public-api-only's fix naming a public module: read
        # for the few modules it asks about, not for every file.
        read_names=reader.names,
        read_contents=reader.contents if plan.needs.content else None,
        documents=documents.texts if documents is not None else {},
        document_matches=documents.matches if documents is not None else {},
        memo=memo if memo is not None else PerFileMemo(),
    )
    if plan.needs.content:
        model.read_content_of(
            plan.needs.content_wanted(model, bytes_reader({}, reader.ports.files))
        )
    return model


def documents_wanted(
    config: Config,
    rules: Sequence[ActiveRule],
    files: ProjectFiles,
    listing: ProjectListing,
    options: RunOptions,
) -> Documents | None:
    """The files `diagrams` names, read when an enabled rule asks for them on a
    whole-project run; None otherwise. `listing` serves when root is the project
    directory."""
    if not options.whole_project or not config.diagrams:
        return None
    wanted = any(
        rule.rule.kind.reads is not None and rule.rule.kind.reads(rule.options).documents
        for rule in rules
        if rule.enabled
    )
    if not wanted:
        return None
    from inwards_core.extraction.documents import read_documents  # diagram rules only

    whole = listing if normalise_root(config.root) == "" else None
    return read_documents(config.diagrams, files, listing=whole)


def skips(rule: ActiveRule, model: ProjectModel) -> bool | None:
    """Whether `run_kinds` leaves the rule out of this run: None when it runs; True when it
    is a whole-project rule that paths skip and the run says so; False when it is left out
    silently (a review rule, which runs on the verdicts; a whole-project kind the
    configuration gives nothing to judge)."""
    scope = rule.rule.kind.scope
    if scope is Scope.REVIEW:
        return False
    if scope is Scope.PROJECT and not model.whole_project:
        applies = rule.rule.kind.applies
        return applies is None or applies(model.config)
    return None


def run_rule(model: ProjectModel, rule: ActiveRule) -> list[Finding]:
    """One rule's findings on the model."""
    config_file = model.config.file
    return [
        to_finding(rule, violation, whole_project=violation.file == config_file)
        for violation in rule.rule.kind.check(model, rule.options)
    ]


def kind_notes(model: ProjectModel, enabled: Sequence[ActiveRule]) -> tuple[str, ...]:
    """What the kinds of the rules that ran say about the run beside their findings
    (`CheckKind.notes`), each line once, in rule order."""
    said: dict[str, None] = {}
    for rule in enabled:
        notes = rule.rule.kind.notes
        if notes is None or skips(rule, model) is not None:
            continue
        for note in notes(model, rule.options):
            said.setdefault(note, None)
    return tuple(said)


def run_kinds(
    model: ProjectModel, enabled: Sequence[ActiveRule]
) -> tuple[list[Finding], list[str]]:
    """Every enabled rule's findings on the model, except the rules that review the
    suppressions (they run after the verdicts); and the codes of the whole-project rules
    skipped because paths were named."""
    findings: list[Finding] = []
    skipped: list[str] = []
    for rule in enabled:
        left_out = skips(rule, model)
        if left_out is None:
            findings += run_rule(model, rule)
        elif left_out:
            skipped.append(rule.code)
    return findings, skipped


def options_of_rules_off(config: Config, rules: Sequence[ActiveRule]) -> list[Finding]:
    """An options table for a rule that does not run is no error (a team may keep it for
    the day the rule is turned on), but it does nothing, which the team should know: a
    warning of that rule, located at the table, that no comment can hide."""
    found: list[Finding] = []
    for rule in rules:
        if rule.enabled or not config.rules.options.get(rule.name):
            continue
        key = f"tool.inwards.rules.{rule.name}"
        line, column = config.positions.locate(key) or (1, 1)
        how = {
            "opt-in": f'add "{rule.code}" to extend-select in [tool.inwards.rules]',
            "rules.ignore": f'take "{rule.code}" out of ignore in [tool.inwards.rules]',
        }.get(rule.decided_by, f'add "{rule.code}" to select in [tool.inwards.rules]')
        violation = Violation(
            config.file,
            None,
            Span(line, column, line, column + 1),
            f"[{key}] sets options for {rule.name} ({rule.code}), which is off, so they "
            "do nothing.",
        )
        finding = to_finding(rule, violation, whole_project=True)
        fix = Fix(
            f"Turn {rule.code} on, or delete [{key}].",
            (f"To turn it on, {how}.", f"If the rule is not wanted, delete [{key}]."),
        )
        found.append(attrs.evolve(finding, severity=Severity.WARNING, fix=fix, suppressible=False))
    return found


def apply_verdicts(
    model: ProjectModel, rules: Sequence[ActiveRule], findings: Iterable[Finding]
) -> SuppressionOutcome:
    """The suppression comments decide which findings stand; then the rules that review
    the comments themselves run on the verdicts, and their findings stand too."""
    rule_facts = {
        rule.code: RuleFacts(rule.rule.definition.suppressible, rule.enabled) for rule in rules
    }
    modules = {info.file: info.name for info in model.checked}
    outcome = apply_suppressions(list(findings), model.facts, modules, rule_facts)
    reviewed: list[Finding] = []
    review_model = attrs.evolve(model, suppression_verdicts=outcome.verdicts)
    for rule in rules:
        if rule.enabled and rule.rule.kind.scope is Scope.REVIEW:
            for violation in rule.rule.kind.check(review_model, rule.options):
                reviewed.append(to_finding(rule, violation, whole_project=False))
    return attrs.evolve(outcome, kept=outcome.kept + tuple(reviewed))


def assemble_report(
    model: ProjectModel,
    plan: ReadPlan,
    verdicts: SuppressionOutcome,
    *,
    problems: Iterable[NotChecked],
    documents: Documents | None,
    skipped: Sequence[str],
    listing: ProjectListing,
    frames: Callable[[str], bytes | None] | None,
    duration_ms: float,
    rule_notes: Sequence[str] = (),
) -> Report:
    """The report of a run: the findings that stand, the suppressed ones, what was not
    checked and why, and what paths left out. With `frames` (a file's bytes), the report
    keeps the line each finding points at."""
    not_checked = [NotChecked(problem.path, problem.message) for problem in listing.problems]
    not_checked += plan.refused
    not_checked += problems
    if documents is not None:
        not_checked += documents.unreadable
    findings = kept_findings(verdicts)
    return Report(
        findings=findings,
        files_checked=len(model.checked) + len(plan.listed),
        suppressed=tuple(sorted(verdicts.suppressed, key=lambda s: s.finding.sort_key())),
        not_checked=tuple(sorted(set(not_checked), key=lambda n: (n.path, n.message))),
        whole_project=model.whole_project,
        duration_ms=duration_ms,
        notes=(*_notes(skipped, plan.needs.chains_skipped), *rule_notes),
        source_lines=_source_lines(findings, frames) if frames is not None else (),
        skipped_rules=tuple(skipped),
        chains_skipped=plan.needs.chains_skipped,
    )


def kept_findings(verdicts: SuppressionOutcome) -> tuple[Finding, ...]:
    return tuple(sorted(set(verdicts.kept), key=Finding.sort_key))


def files_to_check(
    config: Config,
    rules: Sequence[ActiveRule],
    *,
    files: ProjectFiles,
    paths: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """The files `check_project` would check with these arguments (`inwards check
    --show-files`), sorted, without reading any: the modules it reads, and the named
    modules judged from the listing alone."""
    plan = plan_reads(config, list_tree(config, files), enabled_rules(rules), paths)
    return tuple(sorted({info.file for info in (*plan.selected, *plan.listed)}))


def _refuse_misplaced_root(config: Config, index: ModuleIndex) -> None:
    """A src layout checked without `root = "src"`: every layer owns nothing, and each
    finding would say so in its own way. One configuration error says what to write."""
    directory = index.misplaced_root()
    if directory is None:
        return
    root = normalise_root(config.root)
    suggested = f"{root}/{directory}" if root else directory
    key = "tool.inwards.root"
    where = config.positions.locate(key)
    message = (
        f'no layer owns a module under root "{config.root}", but the directory '
        f'"{suggested}" holds the packages the layers name. Did you mean root = "{suggested}"?'
    )
    line, column = where if where is not None else (None, None)
    raise ConfigError((ConfigProblem(config.file, line, column, key, message),))


def _source_lines(
    findings: Sequence[Finding], read: Callable[[str], bytes | None]
) -> tuple[SourceLine, ...]:
    if not findings:
        return ()
    from inwards_core.extraction.finding_lines import finding_lines  # a clean run needs none

    return finding_lines(findings, read)


def bytes_reader(kept: Mapping[str, bytes], files: ProjectFiles) -> Callable[[str], bytes | None]:
    def read(file: str) -> bytes | None:
        if file in kept:
            return kept[file]
        try:
            return files.read_bytes(file)
        except OSError:
            return None  # a finding without its frame

    return read


def _notes(skipped: Sequence[str], chains_skipped: Sequence[str]) -> tuple[str, ...]:
    """What a run on named paths left out."""
    notes: list[str] = []
    if skipped:
        notes.append(
            "Whole-project checks were skipped because paths were named: "
            + ", ".join(skipped)
            + "."
        )
    if chains_skipped:
        notes.append(
            "Import chains were not followed because paths were named (only direct imports "
            "were checked): " + ", ".join(chains_skipped) + "."
        )
    return tuple(notes)
