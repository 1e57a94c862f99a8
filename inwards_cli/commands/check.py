"""`inwards check`: check imports against [tool.inwards]."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.bootstrap import bootstrap
from inwards_cli.commands.common import (
    display_from,
    fail,
    fail_config,
    locate_config,
)
from inwards_core.api import installed_families, load_rules, prepare
from inwards_core.config.model import ConfigError
from inwards_core.engine import check_project
from inwards_core.plugins import FamilyLoadError
from inwards_core.reporting.json import render_json
from inwards_core.reporting.text import render_concise, render_text


class OutputFormat(enum.StrEnum):
    text = "text"
    concise = "concise"
    json = "json"


def project_paths(paths: list[Path], project_dir: Path) -> tuple[list[str], list[str]]:
    """User paths -> POSIX paths relative to the project dir; and paths outside it."""
    inside: list[str] = []
    outside: list[str] = []
    base = project_dir.resolve()
    for path in paths:
        if not path.exists():
            fail(f"{path} is not a file or directory.")
        absolute = path.resolve()
        try:
            inside.append(absolute.relative_to(base).as_posix())
        except ValueError:
            outside.append(str(path))
    return inside, outside


def check_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Files or directories to check. Without paths the whole project is checked, "
            "including the whole-project checks (cycles, layers that own nothing, ...).",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[
        OutputFormat,
        typer.Option("--format", help="Output format: text (default), concise, or json."),
    ] = OutputFormat.text,
    max_diagnostics: Annotated[
        int | None,
        typer.Option(
            "--max-diagnostics",
            min=0,
            help="Show at most N findings (errors first); the summary still counts all.",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="The pyproject.toml to use, instead of the nearest one holding [tool.inwards].",
            show_default=False,
        ),
    ] = None,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Neither read nor write the extraction cache (also INWARDS_NO_CACHE=1).",
        ),
    ] = False,
) -> None:
    """Check every import of the project against the architecture in [tool.inwards].

    Exit status: 0 clean or warnings only, 1 errors, 2 usage or configuration error, or
    nothing checked.
    """
    loaded = locate_config(config)
    project_dir = loaded.project_dir
    named: list[str] | None = None
    outside: list[str] = []
    if paths:
        named, outside = project_paths(paths, project_dir)
    try:
        cfg = loaded.build()
        prepared = prepare(cfg, load_rules(installed_families()))
    except ConfigError as error:
        fail_config(error)
    except FamilyLoadError as error:
        fail(f"error: {error}")
    adapters = bootstrap(project_dir, no_cache=no_cache)
    report = check_project(
        prepared.config,
        prepared.rules,
        files=adapters.files,
        cache=adapters.cache,
        grammars=adapters.grammars,
        paths=named,
        parse_many=adapters.parse_many,
    )
    if outside:
        from inwards_core.model import NotChecked

        extra = tuple(
            NotChecked(
                path, f"{path} is outside the project at {project_dir}, so it was not checked."
            )
            for path in outside
        )
        report = type(report)(
            findings=report.findings,
            files_checked=report.files_checked,
            suppressed=report.suppressed,
            not_checked=report.not_checked + extra,
            whole_project=report.whole_project,
            duration_ms=report.duration_ms,
            notes=report.notes,
        )
    for warning in getattr(adapters.cache, "warnings", ()):
        sys.stderr.write(f"warning: {warning}\n")
    display = display_from(project_dir)
    if output_format is OutputFormat.json:
        text = render_json(
            report, display=display, max_diagnostics=max_diagnostics, pretty=sys.stdout.isatty()
        )
    elif output_format is OutputFormat.concise:
        text = render_concise(report, display=display, max_diagnostics=max_diagnostics)
    else:
        text = render_text(report, display=display, max_diagnostics=max_diagnostics)
    sys.stdout.write(text)
    sys.stdout.flush()
    raise typer.Exit(report.exit_code())
