"""`inwards check --explain CODE`: the code it names, why that rule reported what it did
on the run (`inwards_core.rules.why` decides everything), and the text form of that
explanation (also what `inwards rules why` prints)."""

from __future__ import annotations

from collections.abc import Callable

from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.console import fail
from inwards_core.api import Prepared
from inwards_core.model.findings import Report
from inwards_core.reporting.escaping import printable
from inwards_core.rules.lookup import UnknownRuleError
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.why import (
    FILES_SHOWN,
    Explanation,
    Reason,
    UnusableRuleError,
    WhyContext,
    explain_rule,
)
from inwards_core.rules.why import explained_code as code_to_explain

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


def explained_code(rule_set: RuleSet, arguments: CheckArguments) -> str:
    """The code of the rule --explain names; exit 2 naming the closest code, or the
    unusable files when only such files define it."""
    try:
        return code_to_explain(rule_set, arguments.explain or "")
    except UnusableRuleError as unusable:
        fail(*str(unusable).split("\n"))
    except UnknownRuleError as unknown:
        fail(f"--explain: {unknown} `inwards rules` lists them.")


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
