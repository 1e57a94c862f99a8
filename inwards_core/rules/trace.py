"""Recording what a run saw of one rule (`inwards check --explain`): for each module the
run could have given it, why the rule did not judge it, and the suppression comments
naming it that hid nothing. The engine calls `trace_of` only when a trace is asked for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_core.model.rule_trace import RuleTrace, TracedComment, TracedFile
from inwards_core.rules.kinds import Scope

if TYPE_CHECKING:
    from inwards_core.index.modules import ModuleIndex, ModuleInfo
    from inwards_core.model.findings import NotChecked, Report
    from inwards_core.rules.project import ProjectModel
    from inwards_core.rules.selection import ActiveRule
    from inwards_core.suppression_verdicts import CommentVerdict, SuppressionOutcome


def traced(
    report: Report,
    code: str,
    rules: Sequence[ActiveRule],
    model: ProjectModel,
    index: ModuleIndex,
    paths: Sequence[str] | None,
    unreadable: Sequence[NotChecked],
    outcome: SuppressionOutcome,
) -> Report:
    """`report` with the trace of the rule `code` (the engine's last step when asked)."""
    rule = next((r for r in rules if r.code == code), None)
    skipped = rule is not None and rule.rule.kind.scope is Scope.PROJECT and paths is not None
    ran = rule is not None and rule.enabled and not skipped
    trace = trace_of(
        rule, model, index, paths=paths, ran=ran, unreadable=unreadable, verdicts=outcome.verdicts
    )
    return attrs.evolve(report, trace=trace)


def trace_of(
    rule: ActiveRule | None,
    model: ProjectModel,
    index: ModuleIndex,
    *,
    paths: Sequence[str] | None,
    ran: bool,
    unreadable: Sequence[NotChecked],
    verdicts: Sequence[CommentVerdict],
) -> RuleTrace:
    """The trace of `rule` (None: no rule of that code is active). `paths` are the named
    paths (None: the whole project); `unreadable` the files whose facts could not be read.
    A module the run did not check was left out by the read plan (no enabled rule needs it)."""
    code = "" if rule is None else rule.code
    if rule is None:
        return RuleTrace(code, ran=False)
    checked = {info.file for info in (*model.checked, *model.listed)}
    broken = {entry.path: entry.message for entry in unreadable}
    files: list[TracedFile] = []
    for info in _considered(index, paths):
        if info.file in broken:
            files.append(TracedFile(info.file, info.name, "unreadable", broken[info.file]))
        elif info.file not in checked:
            files.append(TracedFile(info.file, info.name, "not-read", _not_read(info, index)))
        elif (problem := _problem(model, info.file)) is not None:
            files.append(TracedFile(info.file, info.name, "unreadable", problem))
        elif ran and rule.rule.kind.scope_of is not None:
            reason = rule.rule.kind.scope_of(rule.options, info, model)
            if reason is not None:
                files.append(TracedFile(info.file, info.name, "out-of-scope", reason))
    return RuleTrace(code, ran, tuple(files), _comments(code, verdicts))


def _problem(model: ProjectModel, file: str) -> str | None:
    """Why the file's imports were not all read (a syntax error, an encoding, a limit:
    INW000 and INW020 report it), or None."""
    facts = model.facts.get(file)
    if facts is None or facts.problem is None:
        return None
    return f"{facts.problem.kind.value}: {facts.problem.message}"


def _considered(index: ModuleIndex, paths: Sequence[str] | None) -> list[ModuleInfo]:
    if paths is None:
        return sorted(index.modules.values(), key=lambda info: info.file)
    found: dict[str, ModuleInfo] = {}
    for path in paths:
        norm = path.strip("/")
        for info in index.modules_under("" if norm == "." else norm):
            found[info.file] = info
    return [found[file] for file in sorted(found)]


def _not_read(info: ModuleInfo, index: ModuleIndex) -> str:
    if index.is_generated(info.name):
        return "a `generated` pattern covers it, and no enabled rule asks for it"
    if index.is_ignored(info.name):
        return "an `ignore` entry covers it, and no enabled rule asks for it"
    return "no layer owns it, and no enabled rule needs its facts"


def _comments(code: str, verdicts: Sequence[CommentVerdict]) -> tuple[TracedComment, ...]:
    found: list[TracedComment] = []
    for verdict in verdicts:
        comment = verdict.comment
        if code not in comment.codes:
            continue
        if comment.problem is not None:
            state = comment.problem.value
        elif code in verdict.unknown:
            state = "unknown"
        elif code in verdict.unsuppressible:
            state = "unsuppressible"
        elif code in verdict.unused:
            state = "unused"
        else:
            continue
        found.append(TracedComment(verdict.file, comment.line, state))
    return tuple(found)
