"""`inwards rules why CODE [PATHS]`: why a rule reported what it did, or nothing, without
the findings (the explanation `inwards check --explain` appends); and the text and JSON
forms of that explanation (`inwards_core.rules.why` decides everything)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from inwards_cli.commands.check_arguments import CheckArguments, OutputFormat
from inwards_cli.commands.console import display_from, fail, write_text
from inwards_cli.commands.options import ConfigOption, DisablePluginOption, IsolatedOption
from inwards_core.api import Prepared
from inwards_core.model.findings import Report
from inwards_core.reporting.escaping import printable
from inwards_core.rules.lookup import find_rule
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.why import (
    FILES_SHOWN,
    Explanation,
    Reason,
    WhyContext,
    explain_rule,
    unknown_code,
)

if TYPE_CHECKING:
    from inwards_cli.commands.report_output import CheckOutcome

# Reasons whose file is a file of the project (shown relative to where the user stands);
# the others name definition files, as every rule message names them.
_PROJECT_FILES = frozenset(
    {
        "not-checked",
        "unreadable",
        "not-read",
        "out-of-scope",
        "suppressed",
        "suppression-unused",
        "baselined",
        "reported",
    }
)
# Reasons listed file by file, of which text shows at most FILES_SHOWN.
_FILE_LISTS = frozenset({"unreadable", "not-read", "out-of-scope"})


def why_command(
    rule: Annotated[str, typer.Argument(help="A rule code or name (any letter case).")],
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Files or directories, as for `inwards check`; without them the whole project.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print inwards/why@1 JSON.")] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    config: ConfigOption = None,
) -> None:
    """Say why a rule reported what it did, or nothing: shadowed or unusable definitions,
    turned off or re-levelled (by which key, file and line), skipped for PATHS, files not
    checked, not read or out of its scope, findings hidden by comments or the baseline,
    options that match nothing, and the definition behind each finding.

    Runs the check as `inwards check` would (never from the cache's memo) and prints only
    the explanation. Exit status: 0 whatever the findings; 2 for a configuration or
    definition error, or a code no usable definition has.
    """
    from inwards_cli.commands.run_check import check

    arguments = CheckArguments(
        paths=tuple(paths or ()),
        output_format=OutputFormat.json if as_json else OutputFormat.text,
        config=config,
        isolated=isolated,
        disable_plugin=tuple(disable_plugin or ()),
        silent=True,
        explain=rule,
    )
    outcome = check(arguments)
    explanation = outcome.explanation
    assert explanation is not None  # `check` explains what `explain` names, or exits 2
    if as_json:
        sys.stdout.write(json.dumps(explanation.to_json(), indent=2, ensure_ascii=False) + "\n")
        return
    write_text(render_explanation(explanation, display_from(outcome.project_dir)))


def explained_code(rule_set: RuleSet, arguments: CheckArguments) -> str:
    """The code of the rule --explain names; exit 2 naming the closest code, or the
    unusable files when only such files define it."""
    wanted = arguments.explain or ""
    found = find_rule(rule_set, wanted)
    if found is not None:
        return found.code
    explanation = unknown_code(rule_set, wanted)
    if explanation.reasons[0].reason == "void":
        fail(
            f"{explanation.code} is defined only by files that can't be used:",
            *(f"  {reason.message}" for reason in explanation.reasons),
        )
    fail(f"--explain: {explanation.reasons[0].message} `inwards rules` lists them.")


def explanation_of(
    arguments: CheckArguments,
    rule_set: RuleSet,
    prepared: Prepared,
    report: Report,
    named: list[str] | None,
) -> Explanation:
    """Why the rule `arguments.explain` (a code) reported what it did on `report`."""
    context = WhyContext(
        paths=None if named is None else tuple(named),
        isolated=arguments.isolated,
        command_line_selection=bool(
            arguments.select is not None or arguments.extend_select or arguments.ignore
        ),
    )
    wanted = arguments.explain or ""
    return explain_rule(wanted, rule_set, prepared.rules, report, prepared.config, context)


def json_with_explanation(
    outcome: CheckOutcome, display: Callable[[str], str], limit: int | None, *, pretty: bool
) -> str:
    """`inwards check --explain CODE --format json`: the diagnostics document with the
    `inwards/why@1` explanation under `explanation`."""
    from inwards_core.reporting.json import report_document

    document: dict[str, Any] = report_document(
        outcome.report, display=display, max_diagnostics=limit
    )
    assert outcome.explanation is not None
    document["explanation"] = outcome.explanation.to_json()
    if pretty:
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"


def render_explanation(explanation: Explanation, display: Callable[[str], str]) -> str:
    """The explanation as text: a head line, the rule's state, then one line per reason
    (file lists capped at FILES_SHOWN per category)."""
    name = f" {explanation.name}" if explanation.name else ""
    lines = [f"Why {explanation.code}{name} reported what it did:"]
    if explanation.in_force is not None:
        origin = explanation.in_force
        lines.append(f"  in force: the {origin.root.value} definition {origin.path}")
    if explanation.enabled is not None:
        state = "on" if explanation.enabled else "off"
        lines.append(f"  {state} ({explanation.decided_by}), severity {explanation.severity}")
    shown: dict[str, int] = {}
    for reason in explanation.reasons:
        count = shown.get(reason.reason, 0)
        shown[reason.reason] = count + 1
        if reason.reason in _FILE_LISTS and count >= FILES_SHOWN:
            continue
        lines.append(f"  - {reason.reason}: {_where(reason, display)}{printable(reason.message)}")
    for category, count in shown.items():
        if category in _FILE_LISTS and count > FILES_SHOWN:
            lines.append(
                f"  - {category}: ... and {count - FILES_SHOWN} more file(s) "
                "(`inwards rules why --json` lists them all)"
            )
    return "\n".join(lines) + "\n"


def _where(reason: Reason, display: Callable[[str], str]) -> str:
    if not reason.file:
        return ""
    file = display(reason.file) if reason.reason in _PROJECT_FILES else reason.file
    line = "" if reason.line is None else f":{reason.line}"
    return f"{printable(file)}{line}: "
