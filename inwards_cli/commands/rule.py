"""`inwards rule CODE|NAME`: a rule's documentation page, offline, from the installed
package and the rule roots (so a user or project shadow shows as such)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.commands.console import fail, warn, write_text
from inwards_cli.commands.loading import (
    ResolvedRules,
    find_optional_config,
    resolve_rules,
    rule_warnings,
)
from inwards_cli.commands.options import ConfigOption, DisablePluginOption, IsolatedOption
from inwards_core.authoring.docgen import (
    GENERATED_NOTE,
    render_rule_page,
    render_rule_summary,
    rule_page_document,
)
from inwards_core.authoring.rule_pages import page_of
from inwards_core.config.values import Config, ConfigError
from inwards_core.rules.lookup import UnknownRuleError
from inwards_core.rules.rule_set import ResolvedRule, RuleSet


def rule_command(
    rule: Annotated[
        str,
        typer.Argument(
            metavar="RULE",
            help="A rule code or name, in any letter case (INW001, layer-dependency).",
        ),
    ],
    full: Annotated[
        bool,
        typer.Option(
            "--full",
            help="The whole page: what the rule reports exactly, its limitations, and "
            "examples with their real output.",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print inwards/rule@1 JSON (with --full: every section).")
    ] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    config: ConfigOption = None,
) -> None:
    """Print a rule's page: what it reports, why, how to fix it, its options and fix
    guidance, and where its definition comes from (what it shadows, when a user or project
    definition replaces the shipped one). No network: everything comes from the installed
    package and the rule roots. Exit status 0, or 2 for an unknown rule."""
    found, examples_with = _page_of(rule, config, isolated, disable_plugin)
    if as_json:
        document = rule_page_document(found, examples_with, full=full)
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    elif full:
        page = render_rule_page(found, examples_with)
        write_text(page.removeprefix(GENERATED_NOTE + "\n\n"))
    else:
        write_text(render_rule_summary(found))


def _page_of(
    rule: str, config: Path | None, isolated: bool, disabled: list[str] | None
) -> tuple[ResolvedRule, RuleSet]:
    """The rule named and the rules its examples run with; an unknown rule is exit 2."""
    try:
        return page_of(_rules_for_docs(config, isolated, disabled).rule_set, rule)
    except UnknownRuleError as unknown:
        fail(f"{unknown} `inwards rules` lists the rules.")


def _rules_for_docs(
    config: Path | None, isolated: bool, disabled: list[str] | None
) -> ResolvedRules:
    """The rules of every root, with the project's user-rules policy. Docs stay readable in
    a project whose configuration or definitions have problems: those are warnings here
    (`inwards check` stops on them)."""
    loaded = find_optional_config(config)
    built: Config | None = None
    if loaded is not None:
        try:
            built = loaded.build()
        except ConfigError:
            sys.stderr.write(
                "warning: the configuration has problems (`inwards check` lists them); "
                "its user-rules policy is not applied here.\n"
            )
    resolved = resolve_rules(loaded, built, isolated=isolated, disabled=disabled)
    for problem in resolved.rule_set.errors:
        warn(f"{problem.render()} (this definition is not used)")
    for line in rule_warnings(resolved):
        warn(line)
    return resolved
