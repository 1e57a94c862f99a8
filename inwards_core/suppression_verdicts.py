"""Inline suppressions: `# inwards: ignore[CODE, ...] reason="..."`.

A usable comment hides the findings of the listed rules whose span starts on the comment's
line. A comment that is malformed, has no reason, names an unknown code or a rule that can't
be suppressed hides nothing; the suppression-comment rule reports it. Every verdict is kept so
that rule can also report codes that hid nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from inwards_core.model.facts import ModuleFacts, SuppressionComment
from inwards_core.model.findings import Finding, SuppressedFinding
from inwards_core.model.value_repr import value_repr


@attrs.frozen
class RuleFacts:
    """What suppression needs to know of one rule code."""

    __repr__ = value_repr

    suppressible: bool
    enabled: bool


@attrs.frozen
class CommentVerdict:
    __repr__ = value_repr

    file: str
    module: str | None
    comment: SuppressionComment
    unknown: tuple[str, ...] = ()
    unsuppressible: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()

    @property
    def usable(self) -> bool:
        return self.comment.problem is None and not self.unknown and not self.unsuppressible


@attrs.frozen
class SuppressionOutcome:
    __repr__ = value_repr

    kept: tuple[Finding, ...]
    suppressed: tuple[SuppressedFinding, ...]
    verdicts: tuple[CommentVerdict, ...]


def apply_suppressions(
    findings: Sequence[Finding],
    facts: Mapping[str, ModuleFacts],
    modules: Mapping[str, str],
    rules: Mapping[str, RuleFacts],
) -> SuppressionOutcome:
    """`modules` maps a file to its module name; `rules` every known code."""
    by_line: dict[tuple[str, int], list[CommentVerdict]] = {}
    verdicts: list[CommentVerdict] = []
    for file in sorted(facts):
        for comment in facts[file].suppressions:
            unknown = tuple(c for c in comment.codes if c not in rules)
            unsuppressible = tuple(
                c for c in comment.codes if c in rules and not rules[c].suppressible
            )
            verdict = CommentVerdict(file, modules.get(file), comment, unknown, unsuppressible)
            verdicts.append(verdict)
            by_line.setdefault((file, comment.line), []).append(verdict)

    kept: list[Finding] = []
    suppressed: list[SuppressedFinding] = []
    used: set[tuple[str, int, str]] = set()
    for finding in findings:
        hiding = None
        if finding.suppressible:
            for verdict in by_line.get((finding.file, finding.span.line), ()):
                if verdict.usable and finding.code in verdict.comment.codes:
                    hiding = verdict
                    break
        if hiding is None:
            kept.append(finding)
        else:
            used.add((finding.file, hiding.comment.line, finding.code))
            suppressed.append(
                SuppressedFinding(finding, hiding.comment.reason or "", hiding.comment.span)
            )

    final: list[CommentVerdict] = []
    for verdict in verdicts:
        if verdict.usable:
            unused = tuple(
                code
                for code in verdict.comment.codes
                if rules[code].enabled and (verdict.file, verdict.comment.line, code) not in used
            )
            verdict = attrs.evolve(verdict, unused=unused)
        final.append(verdict)
    return SuppressionOutcome(tuple(kept), tuple(suppressed), tuple(final))
