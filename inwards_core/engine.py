"""The pipeline: listing -> module index -> facts (through the cache) -> rules -> report.

The engine decides everything on one thread. Only parsing may fan out, through the
`ParseMany` function the caller passes (the CLI gives a process pool for big projects).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_core.config.values import Config, ConfigError, ConfigProblem
from inwards_core.extraction.facts_reading import (
    ParseMany,
    contents_reader,
    more_reader,
    names_reader,
    parse_serially,
    read_facts,
)
from inwards_core.extraction.remembered_runs import memorable, recall, remember, watched
from inwards_core.index.modules import ModuleIndex, ModuleInfo
from inwards_core.model.facts import FileProblemKind
from inwards_core.model.findings import Finding, Fix, NotChecked, Report, Severity, Span
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
from inwards_core.rules.project import ProjectModel
from inwards_core.rules.selection import ActiveRule
from inwards_core.rules.violations import to_finding
from inwards_core.suppression_verdicts import RuleFacts, SuppressionOutcome, apply_suppressions

if TYPE_CHECKING:
    from inwards_core.extraction.documents import Documents
    from inwards_core.model.facts import ModuleFacts
    from inwards_core.model.source_lines import SourceLine


def check_project(
    config: Config,
    rules: Sequence[ActiveRule],
    *,
    files: ProjectFiles,
    cache: ExtractionCache,
    grammars: GrammarBinaries,
    paths: Sequence[str] | None = None,
    parse_many: ParseMany = parse_serially,
    full_parse: bool = False,
    clock: Callable[[], float] = time.perf_counter,
    verify_cache: bool = False,
    source_lines: bool = False,
    memo: RunMemo | None = None,
    trace_rule: str | None = None,
) -> Report:
    """Run every enabled rule and return the report.

    The phases are those of docs/architecture.md's "path of a finding": list the files and
    index the modules, choose the modules to read, read their facts, run the checks, let
    the suppressions decide (and the rules that review them run), report.

    With `verify_cache`, every file whose facts the cache holds is read again and compared:
    on any difference the entries are replaced and `CachedFactsDiffer` is raised.

    Syntax: a whole-project run reads each file's import statements and the block headers
    around them without parsing the rest (the cost of a check is mostly parsing); a syntax
    error that reader meets is reported, one in a function body is not. Files named in
    `paths`, and every file with `full_parse`, are parsed whole, so every syntax error is.

    With `source_lines`, the report keeps the line each finding points at: with `paths`,
    cut from the bytes read for the check; otherwise each file a finding points into is read
    again (holding every file's bytes through a run would cost megabytes).

    With `memo`, a whole-project run whose inputs (`run_inputs`) are those of a run the
    memo kept returns that run's report without reading a file; `verify_cache` checks the
    kept report against this run's instead.

    With `trace_rule` (a code), the report carries a `RuleTrace` of that rule
    (`inwards check --explain`); such a run neither recalls nor keeps a memo.
    """
    started = clock()
    whole_project = paths is None
    listing = files.listing(normalise_root(config.root))
    check_syntax = full_parse or not whole_project
    documents = _documents(config, rules, files, listing) if whole_project else None
    recalled = None
    if memo is not None and whole_project and trace_rule is None:
        recalled = recall(
            memo,
            listing,
            files,
            check_syntax=check_syntax,
            source_lines=source_lines,
            verify=verify_cache,
            documents=documents.digest() if documents is not None else "",
        )
        if recalled.held is not None and not verify_cache:
            return attrs.evolve(recalled.held, duration_ms=round((clock() - started) * 1000, 1))
    digests = None if recalled is None else recalled.digests
    index = ModuleIndex.build(config, listing)
    _refuse_misplaced_root(config, index)
    enabled = [rule for rule in rules if rule.enabled]
    needs = ReadNeeds.of(enabled, whole_project=whole_project, contexts=bool(config.contexts))
    refused: list[NotChecked] = []  # named paths that hold nothing to read
    listed: tuple[ModuleInfo, ...] = ()  # named modules judged from the listing alone
    if paths is None:
        selected = modules_to_read(index, needs)
    else:
        judges = listing_judges(enabled, index)
        selected, listed, refused = named_modules_to_read(paths, config, index, needs, judges)
    # The bytes of named files stay for the frames (a one-file run reads nothing twice); a
    # whole-project run reads again the few files with findings rather than hold them all.
    kept: dict[str, bytes] | None = {} if source_lines and not whole_project else None
    spoilt: list[str] = []  # what makes the run not worth remembering (remembered_runs)
    facts, unreadable = read_facts(
        selected,
        files,
        cache,
        grammars,
        parse_many,
        check_syntax,
        verify=verify_cache,
        kept=kept,
        digests=digests,
        changed=spoilt,
    )
    checked = tuple(info for info in selected if info.file in facts)
    if unreadable or listing.problems or not memorable(selected, facts, digests or {}):
        spoilt.append("")

    def reader(names: bool) -> Callable[[ModuleInfo], ModuleFacts | None]:
        read = more_reader(
            files, cache, grammars, parse_many, check_syntax, verify_cache, names=names
        )
        return watched(read, digests or {}, spoilt)

    content_gaps: list[NotChecked] = []  # files whose content a limit stopped

    def read_contents(infos: Sequence[ModuleInfo]) -> Mapping[str, ModuleFacts]:
        read, _ = read_facts(
            infos,
            files,
            cache,
            grammars,
            parse_many,
            check_syntax,
            verify=verify_cache,
            content=True,
            digests=digests,
            changed=spoilt,
        )
        if not memorable(infos, read, digests or {}):
            spoilt.append("")
        for file, facts in read.items():
            if facts.problem is not None and facts.problem.kind is FileProblemKind.LIMIT:
                content_gaps.append(
                    NotChecked(
                        file,
                        f"{file}: its functions and classes were not read within the limits "
                        "a file is allowed, so the content rules did not judge it.",
                    )
                )
        return read

    model = ProjectModel(
        config,
        index,
        facts,
        checked,
        whole_project,
        listed=listed,
        read_more=reader(names=False),
        # The top-level names are for public-api-only's fix naming a public module: read
        # for the few modules it asks about, not for every file.
        read_names=names_reader(reader(names=True)),
        read_contents=contents_reader(read_contents) if needs.content else None,
        documents=documents.texts if documents is not None else {},
        document_matches=documents.matches if documents is not None else {},
    )
    if needs.content:
        model.read_content_of(needs.content_wanted(model, _bytes_of({}, files)))
    findings, skipped = _run_checks(model, enabled)
    findings += _options_of_rules_off(config, rules)
    verdicts = _apply_verdicts(model, rules, findings)
    cache.flush(prune=whole_project)
    not_checked = [NotChecked(problem.path, problem.message) for problem in listing.problems]
    not_checked += refused + unreadable + content_gaps
    if documents is not None and documents.unreadable:
        not_checked += documents.unreadable
        spoilt.append("")  # an unreadable diagram file may read next time
    kept_findings = tuple(sorted(set(verdicts.kept), key=Finding.sort_key))
    report = Report(
        findings=kept_findings,
        files_checked=len(checked) + len(listed),
        suppressed=tuple(sorted(verdicts.suppressed, key=lambda s: s.finding.sort_key())),
        not_checked=tuple(sorted(set(not_checked), key=lambda n: (n.path, n.message))),
        whole_project=whole_project,
        duration_ms=round((clock() - started) * 1000, 1),
        notes=_notes(skipped, needs.chains_skipped),
        source_lines=_source_lines(kept_findings, kept or {}, files) if source_lines else (),
        skipped_rules=tuple(skipped),
        chains_skipped=needs.chains_skipped,
    )
    if trace_rule is not None:
        from inwards_core.rules.trace import traced  # only `check --explain` asks

        report = traced(report, trace_rule, rules, model, index, paths, unreadable, verdicts)
    if memo is not None and recalled is not None and not spoilt:
        remember(memo, recalled.inputs, report, held=recalled.held if verify_cache else None)
    return report


def _documents(
    config: Config, rules: Sequence[ActiveRule], files: ProjectFiles, listing: ProjectListing
) -> Documents | None:
    """The files `diagrams` names, read when an enabled rule asks for them (a whole-project
    run); None otherwise. `listing` serves when root is the project directory."""
    if not config.diagrams:
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
    listing = files.listing(normalise_root(config.root))
    index = ModuleIndex.build(config, listing)
    _refuse_misplaced_root(config, index)
    enabled = [rule for rule in rules if rule.enabled]
    needs = ReadNeeds.of(enabled, whole_project=paths is None, contexts=bool(config.contexts))
    if paths is None:
        selected = modules_to_read(index, needs)
        listed: Sequence[ModuleInfo] = ()
    else:
        judges = listing_judges(enabled, index)
        selected, listed, _ = named_modules_to_read(paths, config, index, needs, judges)
    return tuple(sorted({info.file for info in (*selected, *listed)}))


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
    findings: Sequence[Finding], kept: Mapping[str, bytes], files: ProjectFiles
) -> tuple[SourceLine, ...]:
    if not findings:
        return ()
    from inwards_core.extraction.finding_lines import finding_lines  # a clean run needs none

    return finding_lines(findings, _bytes_of(kept, files))


def _bytes_of(kept: Mapping[str, bytes], files: ProjectFiles) -> Callable[[str], bytes | None]:
    def read(file: str) -> bytes | None:
        if file in kept:
            return kept[file]
        try:
            return files.read_bytes(file)
        except OSError:
            return None  # a finding without its frame

    return read


def _run_checks(
    model: ProjectModel, enabled: Sequence[ActiveRule]
) -> tuple[list[Finding], list[str]]:
    """Every enabled rule's findings on the model, except the rules that review the
    suppressions (they run after the verdicts); and the codes of the whole-project rules
    skipped because paths were named."""
    findings: list[Finding] = []
    skipped: list[str] = []
    config_file = model.config.file
    for rule in enabled:
        scope = rule.rule.kind.scope
        if scope is Scope.REVIEW:
            continue
        if scope is Scope.PROJECT and not model.whole_project:
            applies = rule.rule.kind.applies
            if applies is None or applies(model.config):
                skipped.append(rule.code)
            continue
        for violation in rule.rule.kind.check(model, rule.options):
            findings.append(
                to_finding(rule, violation, whole_project=violation.file == config_file)
            )
    return findings, skipped


def _options_of_rules_off(config: Config, rules: Sequence[ActiveRule]) -> list[Finding]:
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


def _apply_verdicts(
    model: ProjectModel, rules: Sequence[ActiveRule], findings: Sequence[Finding]
) -> SuppressionOutcome:
    """The suppression comments decide which findings stand; then the rules that review
    the comments themselves run on the verdicts, and their findings stand too."""
    rule_facts = {
        rule.code: RuleFacts(rule.rule.definition.suppressible, rule.enabled) for rule in rules
    }
    modules = {info.file: info.name for info in model.checked}
    outcome = apply_suppressions(findings, model.facts, modules, rule_facts)
    reviewed: list[Finding] = []
    review_model = attrs.evolve(model, suppression_verdicts=outcome.verdicts)
    for rule in rules:
        if rule.enabled and rule.rule.kind.scope is Scope.REVIEW:
            for violation in rule.rule.kind.check(review_model, rule.options):
                reviewed.append(to_finding(rule, violation, whole_project=False))
    return attrs.evolve(outcome, kept=outcome.kept + tuple(reviewed))


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
