"""`inwards rules explain`: the definition in force for a rule and where it comes from, the
chain of definitions it shadows, a diff against the next lower one, and whether it is stale."""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer

from inwards_cli.commands.console import fail, write_text
from inwards_cli.commands.options import ConfigOption, DisablePluginOption, IsolatedOption
from inwards_cli.commands.rules import definition_bytes, rules_here
from inwards_cli.commands.rules_explain_overlay import (
    chain_lines,
    conflict_lines,
    merged_lines,
    overlay_document,
)
from inwards_cli.commands.rules_overlay import flattened_bytes
from inwards_core.ports import RuleDocument
from inwards_core.reporting.escaping import printable
from inwards_core.rules.definitions import RuleDefinition
from inwards_core.rules.listing import origin_data, shipped
from inwards_core.rules.lookup import UnknownRuleError, rule_chain
from inwards_core.rules.rule_set import ResolvedRule, RuleSet
from inwards_core.rules.selection import ActiveRule


@attrs.frozen
class _Explanation:
    code: str
    chain: tuple[RuleDefinition, ...]  # highest root first
    in_force: ResolvedRule | None
    selected: ActiveRule | None  # its state under the project's selection
    stale: dict[str, str]  # definition path -> why it is stale
    diff: list[str]  # from the next lower definition to the highest one
    rule_set: RuleSet


def explain_command(
    rule: Annotated[
        str, typer.Argument(metavar="RULE", help="A rule code or name (any letter case).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    config: ConfigOption = None,
) -> None:
    """Show the definition in force for a rule and where it comes from, the chain of
    definitions it shadows, a diff against the next lower one, and whether it is stale."""
    explanation = _explained(rule, config, isolated, disable_plugin)
    if as_json:
        document = _document(explanation)
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return
    lines = [
        *_in_force(explanation),
        *_overlay_lines(explanation),
        *_definitions(explanation),
        *_difference_lines(explanation),
        *_guidance(explanation),
    ]
    write_text("\n".join(lines) + "\n")


def explanation_document(
    rule_set: RuleSet,
    active: Sequence[ActiveRule],
    documents: Sequence[RuleDocument],
    rule: str,
) -> dict[str, Any]:
    """`inwards rules explain RULE --json`'s document from the rules in force (`active`,
    the rule set with the project's selection) and the roots' definition `documents`:
    what the command prints and what `inwards mcp`'s `explain_rule` answers from its warm
    session. A rule no root defines is `UnknownRuleError`."""
    return _document(_explanation_of(rule_set, active, documents, rule))


def _explained(
    rule: str, config: Path | None, isolated: bool, disabled: list[str] | None
) -> _Explanation:
    here = rules_here(config, isolated, disabled=disabled)
    documents = here.resolved.sources.documents()
    try:
        return _explanation_of(here.resolved.rule_set, here.active, documents, rule)
    except UnknownRuleError as unknown:
        fail(f"{unknown} `inwards rules` lists them.")


def _explanation_of(
    rule_set: RuleSet,
    active: Sequence[ActiveRule],
    documents: Sequence[RuleDocument],
    rule: str,
) -> _Explanation:
    code, chain = rule_chain(rule_set, rule)
    return _Explanation(
        code,
        chain,
        rule_set.by_code(code),
        next((a for a in active if a.code == code), None),
        {s.path: s.message for s in rule_set.stale if s.code == code},
        _difference(documents, chain),
        rule_set,
    )


def _difference(documents: Sequence[RuleDocument], chain: tuple[RuleDefinition, ...]) -> list[str]:
    if len(chain) < 2:
        return []
    upper, lower = chain[0], chain[1]
    return list(
        difflib.unified_diff(
            _text_of(documents, lower, merged=upper.overlay is not None),
            _text_of(documents, upper, merged=upper.overlay is not None),
            fromfile=f"{lower.origin.root.value}: {lower.origin.path}",
            tofile=f"{upper.origin.root.value}: {upper.origin.path}",
            lineterm="",
        )
    )


def _text_of(
    documents: Sequence[RuleDocument], definition: RuleDefinition, *, merged: bool
) -> list[str]:
    """The lines of a definition's file; with `merged` (an overlay is compared), of the
    merged definition written out, so both sides of the diff are whole definitions."""
    data = flattened_bytes(definition) if merged else definition_bytes(documents, definition)
    return data.decode("utf-8", "replace").splitlines()


def _overlay_lines(explanation: _Explanation) -> list[str]:
    in_force = explanation.in_force
    if in_force is None or in_force.definition.overlay is None:
        return []
    definition, rule_set = in_force.definition, explanation.rule_set
    conflicts = [c for c in rule_set.conflicts if c.code == explanation.code]
    return [
        *merged_lines(definition),
        *chain_lines(explanation.code, definition, rule_set),
        *conflict_lines(conflicts),
    ]


def _document(explanation: _Explanation) -> dict[str, Any]:
    selected, in_force = explanation.selected, explanation.in_force
    stale = explanation.stale
    return {
        "code": explanation.code,
        "name": explanation.chain[0].name,
        "enabled": None if selected is None else selected.enabled,
        "decidedBy": None if selected is None else selected.decided_by,
        "severity": None if selected is None else selected.severity.value,
        "active": None if in_force is None else origin_data(in_force.definition),
        "chain": [origin_data(d) | {"stale": stale.get(d.origin.path)} for d in explanation.chain],
        "diff": explanation.diff,
    } | _overlay_document(explanation)


def _overlay_document(explanation: _Explanation) -> dict[str, Any]:
    in_force = explanation.in_force
    if in_force is None:
        return {"overlayChain": [], "fields": {}, "conflicts": []}
    return overlay_document(explanation.code, in_force.definition, explanation.rule_set)


def _in_force(explanation: _Explanation) -> list[str]:
    head = explanation.chain[0]
    lines = [f"{explanation.code} {head.name}: {printable(head.summary)}"]
    in_force, selected = explanation.in_force, explanation.selected
    if in_force is None or selected is None:
        return lines
    definition = in_force.definition
    state = "on" if selected.enabled else "off"
    what = "definition" if definition.overlay is None else "overlay"
    lines.append(
        f"  in force: the {definition.origin.root.value} {what} "
        f"{definition.origin.path} (sha256 {definition.origin.sha256[:16]})"
    )
    if in_force.guidance_from is not None:
        lines.append(
            f"  guidance from the user definition {in_force.guidance_from.origin.path} "
            '(user-rules = "guidance-only")'
        )
    lines.append(
        f"  kind {definition.check}, default {definition.default}; here: {state} "
        f"({selected.decided_by}), severity {selected.severity.value} "
        f"({selected.severity_decided_by})"
    )
    return lines


def _definitions(explanation: _Explanation) -> list[str]:
    chain = explanation.chain
    lines = ["", "Definitions, highest root first:"]
    for index, definition in enumerate(chain):
        above = chain[index - 1] if index else None
        how = "shadowed" if above is None or above.overlay is None else "overlaid"
        role = "active" if above is None else f"{how} by the {above.origin.root.value} one"
        where = definition.origin.path
        if shipped(definition):
            where += f" ({definition.family} {definition.family_version})"
        lines.append(f"  {definition.origin.root.value:<8} {role:<28} {where}")
        if definition.shadow is not None:
            base = definition.shadow
            lines.append(
                f"           copied from {base.root} {base.distribution} {base.version} "
                f"(sha256 {base.sha256[:16]})"
            )
        if definition.origin.path in explanation.stale:
            lines.append(f"           STALE: {explanation.stale[definition.origin.path]}")
    return lines


def _difference_lines(explanation: _Explanation) -> list[str]:
    if explanation.diff:
        lower = explanation.chain[1].origin.root.value
        return ["", f"Difference from the {lower} definition:"] + [
            f"  {line}" for line in explanation.diff
        ]
    if len(explanation.chain) == 1:
        return ["", "It shadows nothing: no lower root defines this code."]
    return []


def _guidance(explanation: _Explanation) -> list[str]:
    if explanation.in_force is None:
        return []
    guidance = explanation.in_force.definition.guidance
    lines = ["", f"Guidance: {printable(guidance.summary)}"]
    lines += [f"  {n}. {printable(step)}" for n, step in enumerate(guidance.steps, 1)]
    if guidance.docs:
        lines.append(f"  docs: {printable(guidance.docs)}")
    return lines
