"""Why a rule reported what it did, or nothing (`inwards check --explain CODE`, `inwards
rules why CODE`): every reason, from the definitions to the findings, as data the CLI
renders. Pure: everything comes in as arguments (the rule set, the rules as selected, the
finished report with its `RuleTrace`, the configuration).

Reasons, in this order (docs/rules-roots-and-shadowing.md, "Why didn't my rule fire?"):
unknown, void, shadowed, overlay, collision, user-policy, always-on, off, severity,
not-run-with-paths, not-checked, unreadable, not-read, out-of-scope, suppressed,
suppression-unused, baselined, dead-options, reported, nothing-found."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath
from typing import Any

import attrs

from inwards_core.config.values import Config
from inwards_core.model.findings import Origin, Report, RootKind, Severity
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.definitions import RuleDefinition
from inwards_core.rules.lookup import UnknownRuleError, did_you_mean, find_rule
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule
from inwards_core.rules.why_run import run_reasons
from inwards_core.rules.why_values import ExplainedFinding, Reason, WhyContext

# The values of why_values are part of what this module hands its callers.
__all__ = [
    "FILES_SHOWN",
    "REASONS",
    "WHY_SCHEMA",
    "ExplainedFinding",
    "Explanation",
    "Reason",
    "WhyContext",
    "explain_rule",
    "unknown_code",
]

WHY_SCHEMA = "inwards/why@1"
# Every `Reason.reason`, in the order an explanation lists them.
REASONS = (
    "unknown",
    "void",
    "shadowed",
    "overlay",
    "collision",
    "user-policy",
    "always-on",
    "off",
    "severity",
    "not-run-with-paths",
    "not-checked",
    "unreadable",
    "not-read",
    "out-of-scope",
    "suppressed",
    "suppression-unused",
    "baselined",
    "dead-options",
    "reported",
    "nothing-found",
)
# Reasons of the trace's files, shown one by one up to this many in text (JSON has all).
FILES_SHOWN = 20


@attrs.frozen
class Explanation:
    __repr__ = value_repr

    code: str
    name: str
    in_force: Origin | None
    enabled: bool | None
    decided_by: str
    severity: str | None
    reasons: tuple[Reason, ...]
    findings: tuple[ExplainedFinding, ...] = ()

    @property
    def known(self) -> bool:
        """Whether a usable definition of the code exists (else: unknown, or void only)."""
        return self.in_force is not None or self.enabled is not None

    def to_json(self) -> dict[str, Any]:
        """The `inwards/why@1` document (`schemas/why.schema.json`)."""
        return {
            "schema": WHY_SCHEMA,
            "code": self.code,
            "name": self.name,
            "inForce": None if self.in_force is None else self.in_force.data(),
            "enabled": self.enabled,
            "decidedBy": self.decided_by,
            "severity": self.severity,
            "reasons": [_reason(reason) for reason in self.reasons],
            "findings": [_finding(found) for found in self.findings],
        }


def _reason(reason: Reason) -> dict[str, Any]:
    return {
        "reason": reason.reason,
        "message": reason.message,
        "file": reason.file or None,
        "line": reason.line,
    }


def _finding(found: ExplainedFinding) -> dict[str, Any]:
    finding = found.finding
    return {
        "file": finding.file,
        "line": finding.span.line,
        "severity": finding.severity.value,
        "message": finding.message,
        "definition": found.definition.data(),
        "overlayChain": [origin.data() for origin in found.chain],
    }


def unknown_code(rule_set: RuleSet, wanted: str) -> Explanation:
    """The explanation of a code or name no usable definition has: the unusable files
    that define it (void), or the closest code."""
    code = wanted.strip().upper()
    void = tuple(_void(rule_set, code))
    if void:
        return Explanation(code, "", None, None, "", None, void)
    message = f'"{wanted}" is not the code or name of any rule.{did_you_mean(rule_set, wanted)}'
    return Explanation(code, "", None, None, "", None, (Reason("unknown", message),))


class UnusableRuleError(UnknownRuleError):
    """A code only definitions that can't be used have: the message's lines after the
    first name each file and what is wrong with it."""


def explained_code(rule_set: RuleSet, wanted: str) -> str:
    """The code of the rule `wanted` (code or name) names, for `explain_rule`; a code only
    unusable files define is `UnusableRuleError`, any other unknown name
    `UnknownRuleError` naming the closest code. (`inwards check --explain`, `inwards rules
    why` and `inwards mcp`'s `why` ask this before they run the check.)"""
    found = find_rule(rule_set, wanted)
    if found is not None:
        return found.code
    explanation = unknown_code(rule_set, wanted)
    if explanation.reasons[0].reason == "void":
        lines = [f"{explanation.code} is defined only by files that can't be used:"]
        lines += [f"  {reason.message}" for reason in explanation.reasons]
        raise UnusableRuleError("\n".join(lines))
    raise UnknownRuleError(explanation.reasons[0].message)


# A whole-project run with the rules as configured (WhyContext is frozen: sharing it is safe).
_PLAIN_RUN = WhyContext()


def explain_rule(
    wanted: str,
    rule_set: RuleSet,
    active: Sequence[ActiveRule],
    report: Report | None,
    config: Config | None,
    context: WhyContext = _PLAIN_RUN,
) -> Explanation:
    """Why the rule `wanted` (code or name) reported what it did on `report` (None: the
    definitions and selection only)."""
    found = find_rule(rule_set, wanted)
    if found is None:
        return unknown_code(rule_set, wanted)
    code, chain = found.code, found.chain
    selected = next((rule for rule in active if rule.code == code), None)
    reasons = [*_void(rule_set, code), *_definitions(rule_set, code, chain)]
    reasons += _user_policy(rule_set, code, chain, context)
    if selected is not None:
        reasons += _selection(selected, config, context)
    findings: tuple[ExplainedFinding, ...] = ()
    if report is not None and selected is not None:
        run, findings = run_reasons(code, selected, chain, report, config, context)
        reasons += run
    head = chain[0] if found.rule is None else found.rule.definition
    return Explanation(
        code,
        head.name,
        None if found.rule is None else found.rule.origin,
        None if selected is None else selected.enabled,
        "" if selected is None else selected.decided_by,
        None if selected is None else selected.severity.value,
        tuple(reasons),
        findings,
    )


def _problem_code(problem: Any) -> str:
    code: str = getattr(problem, "code", "") or ""  # DefinitionProblem.code (issue 16)
    return code.upper() or PurePosixPath(problem.path).stem.upper()


def _void(rule_set: RuleSet, code: str) -> Iterator[Reason]:
    for problem in rule_set.problems:
        if _problem_code(problem) != code:
            continue
        effect = (
            "it stops the run"
            if problem.blocking
            else "it is not used; a lower definition, if any, stays in force"
        )
        yield Reason(
            "void",
            f"the {problem.root.value} definition can't be used ({effect}): {problem.render()}",
            problem.path,
            problem.line,
        )


def _definitions(
    rule_set: RuleSet, code: str, chain: tuple[RuleDefinition, ...]
) -> Iterator[Reason]:
    rule = rule_set.by_code(code)
    # The definition in force; under "guidance-only" a user definition leads the chain but
    # only lends its guidance to the one below it (said under user-policy).
    head = chain[0] if rule is None else rule.definition
    below = [index for index, d in enumerate(chain) if d.origin == head.origin]
    merged = () if head.overlay is None else head.overlay.chain
    for lower in chain[below[0] + 1 if below else 1 :]:
        if lower.origin in merged:
            continue  # a link of the overlay, said below
        yield Reason(
            "shadowed",
            f"the {lower.origin.root.value} definition {lower.origin.path} is shadowed by "
            f"the {head.origin.root.value} definition {head.origin.path}, which is in force",
            lower.origin.path,
        )
    for stale in rule_set.stale:
        if stale.code == code:
            yield Reason("shadowed", f"stale shadow: {stale.message}", stale.path)
    yield from _overlay(head)
    for conflict in rule_set.conflicts:
        if conflict.code == code:
            message = f"overlay conflict: {conflict.message}"
            yield Reason("overlay", message, conflict.path, conflict.line)
    for collision in rule_set.collisions:
        if collision.code == code:
            yield Reason(
                "collision",
                f"the project definition {collision.project.path} {collision.summary()}; "
                f'on-collision = "{collision.policy}"',
                collision.project.path,
            )


def _overlay(head: RuleDefinition) -> Iterator[Reason]:
    """The overlay chain of the definition in force, and each field an overlay set."""
    overlay = head.overlay
    if overlay is None:
        return
    links = " <- ".join(f"{origin.root.value} {origin.path}" for origin in overlay.chain)
    yield Reason(
        "overlay",
        f"the definition in force is an overlay, merged from (lowest first): {links}",
        head.origin.path,
    )
    for key, origins in sorted(overlay.fields.items()):
        last = origins[-1]
        if last.how == "base":
            continue
        how = {"extend": "extended"}.get(last.how, last.how)
        yield Reason(
            "overlay",
            f"{key}: {how} by the {last.origin.root.value} overlay {last.origin.path}",
            last.origin.path,
        )


def _user_policy(
    rule_set: RuleSet, code: str, chain: tuple[RuleDefinition, ...], context: WhyContext
) -> Iterator[Reason]:
    if context.isolated:
        yield Reason("user-policy", "--isolated: the user root was not read")
    for ignored in rule_set.ignored:
        if ignored.code == code:
            yield Reason(
                "user-policy",
                f"the user definition {ignored.origin.path} is left out by user-rules = "
                f'"{rule_set.user_rules}"',
                ignored.origin.path,
            )
    rule = rule_set.by_code(code)
    if rule is not None and rule.guidance_from is not None:
        yield Reason(
            "user-policy",
            f"only the guidance of the user definition {rule.guidance_from.origin.path} is "
            'used (user-rules = "guidance-only")',
            rule.guidance_from.origin.path,
        )
    if rule is not None and rule.origin.root is RootKind.USER:
        yield Reason(
            "user-policy",
            f"the definition in force comes from this machine (user root: {rule.origin.path}), "
            "not from the project: CI may run it differently",
            rule.origin.path,
        )
    elif rule is not None and rule.origin.root is RootKind.ORG:
        yield Reason(
            "user-policy",
            f"the definition in force comes from the organisation root ({rule.origin.path}), "
            "not from the project: CI runs it only where the same rule pack is installed",
            rule.origin.path,
        )


def _selection(selected: ActiveRule, config: Config | None, context: WhyContext) -> list[Reason]:
    reasons: list[Reason] = []
    definition = selected.rule.definition
    if selected.rule.always_on:
        reasons.append(Reason("always-on", "always on: it can't be turned off or re-levelled"))
    if not selected.enabled:
        reasons.append(_off(selected, config, context))
    if selected.severity_decided_by != "default" or selected.severity is Severity.WARNING:
        key, where = _severity_key(selected, config)
        effect = (
            " (a warning does not fail the run)" if selected.severity is Severity.WARNING else ""
        )
        by = (
            key
            if selected.severity_decided_by == "rules.severity"
            else selected.severity_decided_by
        )
        if by == "default":
            by = f"the definition {definition.origin.path}"
            where = (definition.origin.path, definition.key_lines.get("severity"))
        reasons.append(
            Reason("severity", f"{selected.severity.value}{effect}, set by {by}", *where)
        )
    return reasons


def _off(selected: ActiveRule, config: Config | None, context: WhyContext) -> Reason:
    decided = selected.decided_by
    definition = selected.rule.definition
    if decided == "opt-in":
        return Reason(
            "off",
            f'its definition says default = "{definition.default}" and nothing turns it '
            f'on (add "{selected.code}" to extend-select in [tool.inwards.rules])',
            definition.origin.path,
            definition.key_lines.get("default"),
        )
    key = {
        "rules.ignore": _listed_key(config, "ignore", selected.code),
        "not in rules.select": "tool.inwards.rules.select",
    }.get(decided, "")
    file, line = _config_place(config, key)
    if context.command_line_selection and (line is None or decided == "not in rules.select"):
        where = " (the command line's --select/--ignore may have decided it)"
    else:
        where = ""
    return Reason("off", f"turned off by {key or decided}{where}", file, line)


def _listed_key(config: Config | None, name: str, code: str) -> str:
    if config is None:
        return f"tool.inwards.rules.{name}"
    listed = getattr(config.rules, name.replace("-", "_")) or ()
    for index, item in enumerate(listed):
        wanted = item.upper()
        if wanted == code or (wanted.isalnum() and code.startswith(wanted)):
            return f"tool.inwards.rules.{name}[{index}]"
    return f"tool.inwards.rules.{name}"


def _severity_key(
    selected: ActiveRule, config: Config | None
) -> tuple[str, tuple[str, int | None]]:
    key = f"tool.inwards.rules.severity.{selected.code}"
    if config is not None:
        for written in config.rules.severity:
            if written.upper() == selected.code:
                key = f"tool.inwards.rules.severity.{written}"
    return key, _config_place(config, key)


def _config_place(config: Config | None, key: str) -> tuple[str, int | None]:
    if config is None or not key:
        return "", None
    where = config.positions.locate(key)
    return config.file, None if where is None else where[0]
