"""How a finished check is written: the report in the asked format (text, concise, json,
sarif, github), colour, paths as GitHub reads them, and where it goes (stdout or
`--output-file`). `run_check.py` makes the `CheckOutcome`; `watch.py` renders it too."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from inwards_cli.adapters.atomic import failure_reason, write_user_file
from inwards_cli.adapters.standard_output import write_standard_output
from inwards_cli.commands.check_arguments import CheckArguments, OutputFormat
from inwards_cli.commands.console import display_from, fail
from inwards_core.model.findings import Report
from inwards_core.model.value_repr import value_repr
from inwards_core.reporting.text import (
    FixDisplay,
    render_concise,
    render_statistics,
    render_text,
)
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule

if TYPE_CHECKING:
    from inwards_core.rules.why import Explanation


@attrs.frozen
class CheckOutcome:
    """A finished check and what the renderers need besides the report."""

    __repr__ = value_repr

    report: Report
    rules: tuple[ActiveRule, ...]
    rule_set: RuleSet
    project_dir: Path
    # The warnings about rule roots and definitions printed on stderr (SARIF records them).
    rule_warnings: tuple[str, ...] = ()
    # Why the rule `--explain` names reported what it did (None without the option).
    explanation: Explanation | None = None


def render(outcome: CheckOutcome, arguments: CheckArguments) -> str:
    """The report in the asked format. Text is coloured only for a terminal (see
    `use_colour`); machine formats never are."""
    report = outcome.report
    display = display_from(outcome.project_dir)
    limit = arguments.max_diagnostics
    to_terminal = arguments.output_file is None and sys.stdout.isatty()
    # The machine formats' renderers are imported only for them: a text report is what a
    # one-file check in an editor or a hook prints, and its start-up is the budget.
    if arguments.output_format is OutputFormat.json:
        from inwards_core.reporting.json import render_json

        if outcome.explanation is not None:
            from inwards_cli.commands.rules_why import json_with_explanation

            return json_with_explanation(outcome, display, limit, pretty=to_terminal)
        return render_json(report, display=display, max_diagnostics=limit, pretty=to_terminal)
    if arguments.output_format is OutputFormat.sarif:
        return render_sarif_for(outcome, os.environ, pretty=to_terminal)
    if arguments.output_format is OutputFormat.github:
        from inwards_core.reporting.github import render_github

        paths = github_paths(outcome.project_dir, display, os.environ)
        return render_github(report, display=paths, max_diagnostics=limit)
    colour = use_colour(to_terminal, os.environ)
    fixes = fix_display(arguments)
    if arguments.output_format is OutputFormat.concise:
        render_findings = render_concise
    else:
        render_findings = render_text
    text = render_findings(
        report,
        display=display,
        max_diagnostics=limit,
        colour=colour,
        fixes=fixes,
        quiet=arguments.quiet,
    )
    if arguments.statistics:
        text += render_statistics(report)
    if outcome.explanation is not None:
        from inwards_cli.commands.rules_why import render_explanation

        text += "\n" + render_explanation(outcome.explanation, display)
    return text


def fix_display(arguments: CheckArguments) -> FixDisplay:
    if arguments.no_fixes:
        return FixDisplay.NONE
    return FixDisplay.EVERY_FINDING if arguments.show_fixes else FixDisplay.ONCE_PER_RULE


def render_sarif_for(
    outcome: CheckOutcome, environ: Mapping[str, str], *, pretty: bool = False
) -> str:
    # Imported here: sarif_om is some fifty modules that no other format needs.
    from inwards_core.reporting.sarif import render_sarif

    source_root, prefix = sarif_source_root(outcome.project_dir, environ)
    return render_sarif(
        outcome.report,
        outcome.rules,
        source_root_uri=source_root.as_uri().rstrip("/") + "/",
        path_prefix=prefix,
        configuration_warnings=outcome.rule_warnings,
        pretty=pretty,
    )


def _workspace(project_dir: Path, environ: Mapping[str, str]) -> tuple[Path, str] | None:
    """GITHUB_WORKSPACE (the checked-out repository) and the project directory relative to
    it ("" or "backend/"), when the project lies inside it."""
    workspace = environ.get("GITHUB_WORKSPACE", "")
    if not workspace:
        return None
    root = Path(workspace).resolve()
    try:
        inside = project_dir.resolve().relative_to(root).as_posix()
    except ValueError:
        return None
    return root, "" if inside == "." else f"{inside}/"


def sarif_source_root(project_dir: Path, environ: Mapping[str, str]) -> tuple[Path, str]:
    """%SRCROOT% and the project directory's path below it. GitHub code scanning reads
    result URIs as relative to the repository root (it ignores originalUriBaseIds), so under
    Actions the root is GITHUB_WORKSPACE; elsewhere it is the project directory."""
    found = _workspace(project_dir, environ)
    return found if found is not None else (project_dir.resolve(), "")


def github_paths(
    project_dir: Path, display: Callable[[str], str], environ: Mapping[str, str]
) -> Callable[[str], str]:
    """Annotation paths: relative to GITHUB_WORKSPACE when the project is inside it,
    otherwise as the other formats show them (so is a file outside the workspace, such as a
    definition in the user rule root)."""
    found = _workspace(project_dir, environ)
    if found is None:
        return display
    root, prefix = found

    def in_workspace(path: str) -> str:
        if not Path(path).is_absolute():
            return f"{prefix}{path}"
        try:
            return Path(path).relative_to(root).as_posix()
        except ValueError:
            return display(path)

    return in_workspace


def use_colour(to_terminal: bool, environ: Mapping[str, str]) -> bool:
    """NO_COLOR (any non-empty value) turns colour off, FORCE_COLOR turns it on even when
    writing to a pipe or file; otherwise colour only on a terminal (see no-color.org)."""
    if environ.get("NO_COLOR", ""):
        return False
    if environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    return to_terminal and environ.get("TERM", "") != "dumb"


def emit(text: str, output_file: Path | None) -> None:
    """Write the report: to stdout (a failed write is exit 2, see `write_standard_output`),
    or to `output_file` as `write_user_file` does: a regular file atomically (a reader never
    sees half a report, a failed write leaves the old file as it was), a device, a FIFO or
    /dev/stdout in place, a link to a file or a read-only file refused."""
    if output_file is None:
        write_standard_output(text, "the report")
        return
    try:
        write_user_file(output_file, text.encode("utf-8"))
    except OSError as error:
        fail(f"can't write the report to {output_file}: {failure_reason(error)}.")
