"""`inwards check`: check imports against [tool.inwards] (the typer signature; the fast path
reads the same options in `check_arguments.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.commands.check_arguments import CheckArguments, OutputFormat
from inwards_cli.commands.options import (
    ConfigOption,
    DisablePluginOption,
    IsolatedOption,
    NoCacheOption,
)
from inwards_cli.commands.run_check import run_check
from inwards_core.reporting.escaping import printable


def _output_format(value: str | OutputFormat) -> OutputFormat:
    """The value of --format, or a usage error (exit 2) that lists the formats."""
    if isinstance(value, OutputFormat):
        return value
    if value in OutputFormat.__members__:
        return OutputFormat(value)
    known = ", ".join(OutputFormat)
    shown = printable(value)  # a command line may hold control characters
    raise typer.BadParameter(f'"{shown}" is not an output format. Choose one of: {known}.')


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
        typer.Option(
            "--format",
            parser=_output_format,
            help="Output format: text (default), concise, json, sarif (SARIF 2.1.0 for code "
            "scanning; every finding, so not with --max-diagnostics) or github (workflow "
            "commands that annotate a pull request; paths relative to GITHUB_WORKSPACE).",
        ),
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
    config: ConfigOption = None,
    no_cache: NoCacheOption = False,
    full_parse: Annotated[
        bool,
        typer.Option(
            "--full-parse",
            help="Parse every file whole, so a syntax error anywhere is reported (files "
            "named as PATHS always are). Without it a whole-project run reads the import "
            "statements and the blocks around them only, which is several times faster.",
        ),
    ] = False,
    output_file: Annotated[
        Path | None,
        typer.Option(
            "--output-file",
            "-o",
            help="Write the report to this file (atomically) instead of standard output.",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics",
            help="After the report, count the findings per rule (text and concise formats).",
        ),
    ] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    baseline: Annotated[
        Path | None,
        typer.Option(
            "--baseline",
            help="Accept the findings recorded in this baseline file instead of "
            "inwards-baseline.json next to the config (see `inwards baseline`).",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
    no_baseline: Annotated[
        bool,
        typer.Option(
            "--no-baseline",
            help="Ignore inwards-baseline.json: report every finding.",
        ),
    ] = False,
    verify_cache: Annotated[
        bool,
        typer.Option(
            "--verify-cache",
            help="Trust nothing in .inwards/cache: read every cached file again and parse "
            "every cached rule definition again, and fail (exit 2, naming each entry) when "
            "the cache differs. Use it when the cache comes from a run you don't trust. "
            "Costs about as much as a run without the cache.",
        ),
    ] = False,
    select: Annotated[
        list[str] | None,
        typer.Option(
            "--select",
            help="Only these rules for this run, in place of [tool.inwards.rules]'s select, "
            "extend-select and ignore: codes or names, comma-separated, the option repeatable "
            "(--select INW001,layer-dependency).",
            show_default=False,
        ),
    ] = None,
    extend_select: Annotated[
        list[str] | None,
        typer.Option(
            "--extend-select",
            help="Also these rules for this run (turns opt-in rules on, wins over the "
            "configuration's ignore): codes or names, comma-separated.",
            show_default=False,
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore",
            help="Turn these rules off for this run, whatever selects them: codes or names, "
            "comma-separated.",
            show_default=False,
        ),
    ] = None,
    exit_zero: Annotated[
        bool,
        typer.Option(
            "--exit-zero",
            "-e",
            help="Exit 0 even when errors are found (a usage or configuration error is still 2).",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="Print the findings only: no summary and no lines after it.",
        ),
    ] = False,
    silent: Annotated[
        bool,
        typer.Option(
            "--silent",
            "-s",
            help="Print nothing on standard output: the exit status tells (--output-file is "
            "still written; errors still go to standard error).",
        ),
    ] = False,
    show_fixes: Annotated[
        bool,
        typer.Option(
            "--show-fixes",
            help="Text format: show the steps of the fix under every finding (by default "
            "under the first finding of each rule).",
        ),
    ] = False,
    no_fixes: Annotated[
        bool,
        typer.Option(
            "--no-fixes",
            help="Text and concise formats: show no fix, only the findings and their source.",
        ),
    ] = False,
    show_files: Annotated[
        bool,
        typer.Option(
            "--show-files",
            help="Print the files the check would read, one a line, and exit 0 without "
            "checking them.",
        ),
    ] = False,
    explain: Annotated[
        str | None,
        typer.Option(
            "--explain",
            help="After the report, say why this rule (code or name) reported what it did, "
            "or nothing: its definitions, whether it is on and by which key, the files it "
            "did not judge, what comments and the baseline hid (see `inwards rules why`). "
            "The run is never recalled from the cache's memo.",
            show_default=False,
        ),
    ] = None,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Check, then check again whenever a Python file, the configuration or a "
            "rule definition is saved, printing only the findings that appeared or went "
            "away and a summary; Ctrl-C stops (exit 0). Text, concise or github output. "
            'Needs watchfiles: pip install "inwards-lint[watch]".',
        ),
    ] = False,
) -> None:
    """Check every import of the project against the architecture in [tool.inwards].

    Findings accepted by the baseline (inwards-baseline.json) don't fail the check.

    Exit status: 0 clean or warnings only, 1 errors, 2 usage or configuration error, an
    unreadable baseline, a cache that --verify-cache found altered, or nothing checked.
    """
    raise SystemExit(
        run_check(
            CheckArguments(
                paths=tuple(paths or ()),
                output_format=output_format,
                max_diagnostics=max_diagnostics,
                config=config,
                no_cache=no_cache,
                full_parse=full_parse,
                isolated=isolated,
                disable_plugin=tuple(disable_plugin or ()),
                output_file=output_file,
                statistics=statistics,
                baseline=baseline,
                no_baseline=no_baseline,
                verify_cache=verify_cache,
                select=None if select is None else tuple(select),
                extend_select=tuple(extend_select or ()),
                ignore=tuple(ignore or ()),
                exit_zero=exit_zero,
                quiet=quiet,
                silent=silent,
                show_fixes=show_fixes,
                no_fixes=no_fixes,
                show_files=show_files,
                watch=watch,
                explain=explain,
            )
        )
    )
