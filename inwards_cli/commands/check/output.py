"""How a finished check is written: the report in the asked format (any of `FORMATS`, one
dispatch for one project and for a uv workspace), colour, paths as GitHub reads them, and
where it goes (stdout or `--output-file`). `run.py` makes the `CheckOutcome`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from inwards_cli.adapters.atomic import failure_reason, write_user_file
from inwards_cli.adapters.standard_output import write_standard_output
from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.console import display_from, fail, warn
from inwards_core.model.findings import Report
from inwards_core.reporting import FixDisplay, ReportInput
from inwards_core.reporting.docs_links import DOCS_URL_VARIABLE, DocsUrlError, docs_base
from inwards_core.reporting.formats import format_named, write_report
from inwards_core.rules.selection import ActiveRule

if TYPE_CHECKING:
    from inwards_cli.commands.check.run import CheckOutcome
    from inwards_core.reporting.merge import MergedReport
    from inwards_core.rules.why import Explanation


def render(outcome: CheckOutcome, arguments: CheckArguments) -> str:
    """The report of one check in the asked format."""
    return render_report(
        outcome.report,
        arguments,
        outcome.project_dir,
        rules=outcome.rules,
        rule_warnings=outcome.rule_warnings,
        explanation=outcome.explanation,
    )


def render_report(
    report: Report,
    arguments: CheckArguments,
    project_dir: Path,
    *,
    rules: tuple[ActiveRule, ...] = (),
    rule_warnings: tuple[str, ...] = (),
    merged: MergedReport | None = None,
    explanation: Explanation | None = None,
) -> str:
    """The report in the asked format, its paths as from where the user stands (SARIF:
    relative to `project_dir`, or to GITHUB_WORKSPACE when it holds it). Text is coloured
    only for a terminal (see `use_colour`); machine formats never are."""
    output = format_named(arguments.output_format)
    display = display_from(project_dir)
    if output.for_people and report.not_checked:
        # What was not checked is a warning, and a person's warnings go to stderr (as the
        # rule warnings do), not into the report; the machine formats keep them in theirs.
        for item in report.not_checked:
            warn(item.message)
        report = attrs.evolve(report, not_checked=())
    to_terminal = arguments.output_file is None and sys.stdout.isatty()
    source_root, prefix = sarif_source_root(project_dir, os.environ)
    docs_url = sarif_docs_url(os.environ) if output.name == "sarif" else ""
    explanation_text = ""
    if explanation is not None:
        from inwards_cli.commands.check.why import render_explanation

        explanation_text = render_explanation(explanation, display)
    subject = ReportInput(
        report,
        rules=rules,
        display=display,
        max_diagnostics=arguments.max_diagnostics,
        pretty=to_terminal,
        colour=output.for_people and use_colour(to_terminal, os.environ),
        fixes=fix_display(arguments),
        quiet=arguments.quiet,
        statistics=arguments.statistics,
        rule_warnings=rule_warnings,
        annotation_paths=github_paths(project_dir, display, os.environ),
        source_root_uri=source_root.as_uri().rstrip("/") + "/",
        path_prefix=prefix,
        docs_url=docs_url,
        merged=merged,
        explanation_text=explanation_text,
        explanation_document=None if explanation is None else explanation.to_json(),
    )
    return write_report(output.name, subject)


def fix_display(arguments: CheckArguments) -> FixDisplay:
    if arguments.no_fixes:
        return FixDisplay.NONE
    return FixDisplay.EVERY_FINDING if arguments.show_fixes else FixDisplay.ONCE_PER_RULE


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


def sarif_docs_url(environ: Mapping[str, str]) -> str:
    """The base URL of inwards' docs SARIF links to (INWARDS_DOCS_URL), "" for the
    default; one that is no http(s) address is ignored with a warning."""
    try:
        return docs_base(environ.get(DOCS_URL_VARIABLE, ""))
    except DocsUrlError as error:
        warn(str(error))
        return ""


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
