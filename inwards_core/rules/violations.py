"""A kind's `Violation` into a `Finding`: the rule's code, severity and origin, and its fix
from the definition's guidance (or the variant the violation names). Only a definition's
texts are templates; the project's text reaches a fix as a value (see `_fix`)."""

from __future__ import annotations

from collections.abc import Mapping

from inwards_core.model.findings import Finding, Fix, Origin, RootKind, Span
from inwards_core.model.quoting import MESSAGE_LIMIT, capped_message, quoted
from inwards_core.rules.definitions import Guidance, docs_pointer
from inwards_core.rules.kinds import Violation
from inwards_core.rules.selection import ActiveRule
from inwards_core.rules.templates import fill_steps, fill_template


def definition_file(origin: Origin) -> str:
    """Where problems with a definition's own options are reported: for the project root
    the path relative to the project directory (`.inwards/rules/ACME001.toml`), for the
    other roots the path the rule sources show."""
    marker = "/.inwards/rules/"
    if origin.root is RootKind.PROJECT:
        at = origin.path.rfind(marker)
        if at >= 0:
            return origin.path[at + 1 :]
    return origin.path


def to_finding(rule: ActiveRule, violation: Violation, *, whole_project: bool) -> Finding:
    definition = rule.rule.definition
    if rule.severity_decided_by != "default":
        severity = rule.severity
    else:
        severity = violation.severity or rule.severity
    file, span, chain = violation.file, violation.span, violation.chain
    if violation.in_definition:
        file, span, whole_project = definition_file(definition.origin), Span.start_of_file(), True
        chain = ()
    # Every text is capped (`inwards_core.model.quoting`), whatever a kind quoted into it: a
    # report repeats these once per finding.
    given = {"file": file, "module": violation.module or "", **violation.params}
    params = {name: quoted(str(value), MESSAGE_LIMIT) for name, value in given.items()}
    guidance = definition.guidance
    return Finding(
        code=definition.code,
        rule=definition.name,
        severity=severity,
        file=file,
        module=violation.module,
        span=span,
        message=capped_message(violation.message),
        fix=_fix(guidance, violation, params),
        docs=docs_pointer(definition.code, guidance.docs),
        origin=definition.origin.root,
        suppressible=definition.suppressible,
        whole_project=whole_project,
        stable_message=capped_message(violation.stable_message or violation.message),
        chain=chain,
    )


def _fix(guidance: Guidance, violation: Violation, params: Mapping[str, str]) -> Fix:
    """A finding's fix: the variant the violation names if the definition words it; else
    the main guidance, except for a problem with the rule's own options (not what its
    guidance is about) or when the definition words none, where the kind's fallback stands
    in.

    Only a definition's texts are templates (checked when it was read), and only they are
    filled, once, with the parameters as values: the project's text (module and file names,
    statements, option entries) reaches a fix as a value and is never read as a template.
    A fallback is finished text, the project's text already in it, so it is never filled,
    nor are the items of `Violation.step_lists` (each becomes a step as written).
    """
    texts = guidance.texts(violation.variant)
    fallback = violation.fallback
    if (
        texts is None
        and fallback is not None
        and (violation.in_definition or not (guidance.summary or guidance.steps))
    ):
        return Fix(
            capped_message(fallback.summary),
            tuple(capped_message(step) for step in fallback.steps),
        )
    summary, steps = texts if texts is not None else (guidance.summary, guidance.steps)
    return Fix(
        capped_message(fill_template(summary, params)),
        tuple(capped_message(step) for step in fill_steps(steps, params, violation.step_lists)),
    )
