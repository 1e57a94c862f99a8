"""`inwards rules`: the table of every rule; and what its subcommands `explain`
(rules_explain.py), `shadow` and `new` (rules_writing.py) share: the rules here, and a
rule's chain of definitions with their bytes."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import attrs
import typer

from inwards_cli.commands.console import fail, fail_config, write_text
from inwards_cli.commands.loading import (
    ResolvedRules,
    build_config,
    find_optional_config,
    print_rule_warnings,
    resolve_rules,
)
from inwards_cli.commands.options import ConfigOption, DisablePluginOption, IsolatedOption
from inwards_cli.config_file import LoadedConfig
from inwards_core.api import prepare
from inwards_core.config.values import ConfigError, RuleSettings
from inwards_core.model.findings import RootKind
from inwards_core.ports import RuleDocument
from inwards_core.reporting.escaping import printable
from inwards_core.rules.definitions import RuleDefinition
from inwards_core.rules.listing import origin_label, rules_document
from inwards_core.rules.lookup import UnknownRuleError, rule_chain
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule, select

rules_app = typer.Typer(
    name="rules",
    help="List the rules, and explain, shadow or add rule definitions.",
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode=None,
)


@attrs.frozen
class RulesHere:
    """The project's configuration (None outside a project), the rules of every root, and
    each rule's state under the project's selection."""

    loaded: LoadedConfig | None
    resolved: ResolvedRules
    active: tuple[ActiveRule, ...]


def rules_here(
    config: Path | None,
    isolated: bool,
    *,
    need_project: bool = False,
    disabled: Sequence[str] | None = (),
) -> RulesHere:
    """The rules where the user stands; a configuration or definition error is exit 2."""
    loaded = find_optional_config(config)
    if loaded is None and need_project:
        fail(
            "No pyproject.toml with a [tool.inwards] table was found here or above, so there "
            "is no project root; run this inside a project or pass --config FILE."
        )
    built = build_config(loaded) if loaded is not None else None
    resolved = resolve_rules(loaded, built, isolated=isolated, disabled=disabled)
    if built is not None:
        try:
            active = prepare(built, resolved.rule_set).rules
        except ConfigError as error:
            fail_config(error)
    else:
        errors = resolved.rule_set.errors
        if errors:
            fail(*(f"config error: {p.render()}" for p in errors))
        active = select(resolved.rule_set, RuleSettings())
    print_rule_warnings(resolved)
    return RulesHere(loaded, resolved, active)


def find_chain(rule_set: RuleSet, code_or_name: str) -> tuple[str, tuple[RuleDefinition, ...]]:
    """The code and the definitions, highest root first, of the rule the user named; exit 2
    naming the closest rule when no root defines it."""
    try:
        return rule_chain(rule_set, code_or_name)
    except UnknownRuleError as unknown:
        fail(f"{unknown} `inwards rules` lists them.")


def document_bytes(resolved: ResolvedRules, definition: RuleDefinition) -> bytes:
    """The bytes of a definition's file, as its root gave them."""
    return definition_bytes(resolved.sources.documents(), definition)


def definition_bytes(documents: Sequence[RuleDocument], definition: RuleDefinition) -> bytes:
    """The bytes of a definition's file among the roots' `documents`."""
    for document in documents:
        if document.root is definition.origin.root and document.path == definition.origin.path:
            return document.data
    raise LookupError(definition.origin.path)  # the sources gave every parsed definition


def _origin_cell(rule: ActiveRule) -> str:
    resolved = rule.rule
    text = origin_label(resolved.definition)
    if resolved.shadowed:
        # An overlay changes some fields of the definition below; a shadow replaces it.
        verb = "shadows" if resolved.definition.overlay is None else "overlays"
        text += f", {verb} {origin_label(resolved.shadowed[0])}"
    if resolved.guidance_from is not None:
        text += " (guidance: user)"
    return text


def _definition_cell(definition: RuleDefinition) -> str:
    if definition.origin.root is RootKind.CORE:
        return f"{definition.family} {definition.family_version}"
    return definition.origin.path


@rules_app.callback(invoke_without_command=True)
def rules_command(
    context: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print inwards/rules@1 JSON.")] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    config: ConfigOption = None,
) -> None:
    """List every rule: code, name, on or off, severity, origin root, what decided its
    state, and the definition in force (the distribution that ships it, or its file)."""
    if context.invoked_subcommand is not None:
        return
    here = rules_here(config, isolated, disabled=disable_plugin)
    if as_json:
        document = rules_document(here.resolved.rule_set, here.active)
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return
    rows: list[tuple[str, ...]] = [
        ("CODE", "NAME", "STATE", "SEVERITY", "ORIGIN", "DECIDED BY", "DEFINITION")
    ]
    for rule in here.active:
        decided = rule.decided_by
        if rule.severity_decided_by != "default":
            decided += f"; severity: {rule.severity_decided_by}"
        rows.append(
            (
                rule.code,
                rule.name,
                "on" if rule.enabled else "off",
                rule.severity.value,
                _origin_cell(rule),
                decided,
                _definition_cell(rule.rule.definition),
            )
        )
    rows = [tuple(map(printable, row)) for row in rows]  # widths as they will show
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        write_text("  ".join([*cells, row[-1]]).rstrip() + "\n")
