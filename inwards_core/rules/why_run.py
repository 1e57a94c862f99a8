"""The part of `why.explain_rule` that reads the run: what it skipped, what it did not
read or judge, what the comments and the baseline hid, and each finding it reported with
the definitions that produced it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core.model.findings import Origin, Report
from inwards_core.rules.kinds import Scope
from inwards_core.rules.why_values import ExplainedFinding, Reason, WhyContext

if TYPE_CHECKING:
    from inwards_core.config.values import Config
    from inwards_core.rules.definitions import RuleDefinition
    from inwards_core.rules.selection import ActiveRule


def run_reasons(
    code: str,
    selected: ActiveRule,
    chain: tuple[RuleDefinition, ...],
    report: Report,
    config: Config | None,
    context: WhyContext,
) -> tuple[list[Reason], tuple[ExplainedFinding, ...]]:
    reasons = [*_skipped(selected, report), *_not_checked(report), *_traced(report)]
    reasons += _suppressed(code, report)
    reasons += _comments(report)
    reasons += _baselined(code, report)
    definition = selected.rule.definition
    own_files = {definition.origin.path} | ({config.file} if config is not None else set())
    mine = [finding for finding in report.findings if finding.code == code]
    dead = [f for f in mine if f.file in own_files]
    for finding in dead:
        reasons.append(Reason("dead-options", finding.message, finding.file, finding.span.line))
    reported = [f for f in mine if f.file not in own_files]
    links = _overlay_chain(definition)
    explained = tuple(ExplainedFinding(f, definition.origin, links) for f in reported)
    for finding in reported:
        # The definition behind each finding is the one in force (named in the head, and
        # per finding in JSON with its overlay chain).
        reasons.append(
            Reason(
                "reported",
                f"{finding.severity.value}: {finding.message}",
                finding.file,
                finding.span.line,
            )
        )
    if selected.enabled and not mine and _ran(report):
        reasons.append(_nothing_found(selected, report))
    return reasons, explained


def _ran(report: Report) -> bool:
    return report.trace is None or report.trace.ran


def _overlay_chain(definition: RuleDefinition) -> tuple[Origin, ...]:
    return () if definition.overlay is None else definition.overlay.chain


def _skipped(selected: ActiveRule, report: Report) -> Iterator[Reason]:
    code = selected.code
    whole = selected.rule.kind.scope is Scope.PROJECT and not report.whole_project
    if selected.enabled and (code in report.skipped_rules or whole):
        yield Reason(
            "not-run-with-paths",
            "not run: it needs the whole project, and paths were named (run `inwards check` "
            "without paths)",
        )
    if code in report.chains_skipped:
        yield Reason(
            "not-run-with-paths",
            "import chains were not followed, only direct imports: paths were named",
        )


def _not_checked(report: Report) -> Iterator[Reason]:
    for entry in report.not_checked:
        yield Reason("not-checked", entry.message, entry.path)


def _traced(report: Report) -> Iterator[Reason]:
    """The files the rule did not judge, when it ran (a rule that did not run judged none,
    which the reasons above say)."""
    trace = report.trace
    if trace is None or not trace.ran:
        return
    for state in ("unreadable", "not-read", "out-of-scope"):
        files = [traced for traced in trace.files if traced.state == state]
        for traced in files:
            yield Reason(state, f"{traced.module}: {traced.detail}", traced.file)


def _comments(report: Report) -> Iterator[Reason]:
    trace = report.trace
    if trace is None:
        return
    for comment in trace.comments:
        yield Reason(
            "suppression-unused",
            _COMMENT_STATES.get(comment.state, comment.state).format(code=trace.code),
            comment.file,
            comment.line,
        )


_COMMENT_STATES = {
    "unused": "a suppression comment names {code} but hides nothing of it on its line",
    "unknown": "a suppression comment names {code}, which no rule of this run has",
    "unsuppressible": "a suppression comment names {code}, which can't be suppressed",
    "malformed": "a suppression comment names {code} but is malformed, so it hides nothing",
    "no-reason": 'a suppression comment names {code} without reason="...", so it hides nothing',
    "second-directive": "a second suppression directive on the line names {code}; it hides nothing",
}


def _suppressed(code: str, report: Report) -> Iterator[Reason]:
    for entry in report.suppressed:
        finding = entry.finding
        if finding.code != code:
            continue
        line = finding.span.line if entry.comment is None else entry.comment.line
        yield Reason(
            "suppressed",
            f'hidden by an inline comment (reason="{entry.reason}"): {finding.message}',
            finding.file,
            line,
        )


def _baselined(code: str, report: Report) -> Iterator[Reason]:
    entries = report.baselined_by
    for index, finding in enumerate(report.baselined):
        if finding.code != code:
            continue
        where = f"the baseline {report.baseline_file}" if report.baseline_file else "the baseline"
        detail = ""
        if index < len(entries):
            entry = entries[index]
            detail = f' (entry: module {entry.module}, "{entry.message}", count {entry.count})'
        yield Reason(
            "baselined",
            f"accepted by {where}{detail}: {finding.message}",
            finding.file,
            finding.span.line,
        )


def _nothing_found(selected: ActiveRule, report: Report) -> Reason:
    kind = selected.rule.kind
    hidden = any(e.finding.code == selected.code for e in report.suppressed) or any(
        f.code == selected.code for f in report.baselined
    )
    if hidden:
        return Reason("nothing-found", "it reported nothing that was not hidden (see above)")
    judged = report.files_checked
    return Reason(
        "nothing-found",
        f"it ran ({kind.id}) over the {judged} file(s) checked and found nothing to report"
        + ("" if kind.scope_of is not None else "; the kind says nothing of its scope"),
    )
