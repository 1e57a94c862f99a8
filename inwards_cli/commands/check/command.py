"""`inwards check`: the typer signature, built from `CHECK_OPTIONS` (`options.py`), which
the fast path of `inwards_cli.main` parses too."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any

import typer

from inwards_cli.commands.check.entry import run_check
from inwards_cli.commands.check.options import CHECK_OPTIONS, check_arguments
from inwards_cli.commands.option_specs import OptionSpec
from inwards_cli.commands.options import typer_parameter
from inwards_core.reporting.escaping import printable
from inwards_core.reporting.formats import FORMAT_NAMES

PathsArgument = Annotated[
    list[Path] | None,
    typer.Argument(
        metavar="[PATHS]...",
        help="Files or directories to check. Without paths the whole project is checked, "
        "including the whole-project checks (cycles, layers that own nothing, ...).",
        show_default=False,
    ),
]


def _output_format(value: str) -> str:
    """The value of --format, or a usage error (exit 2) that lists the formats."""
    if value in FORMAT_NAMES:
        return value
    known = ", ".join(FORMAT_NAMES)
    shown = printable(value)  # a command line may hold control characters
    raise typer.BadParameter(f'"{shown}" is not an output format. Choose one of: {known}.')


def check_command(paths: list[Path] | None = None, **options: Any) -> None:
    """Check every import of the project against the architecture in [tool.inwards].

    Findings accepted by the baseline (inwards-baseline.json) don't fail the check.

    Exit status: 0 clean or warnings only, 1 errors, 2 usage or configuration error, an
    unreadable baseline, a cache that --verify-cache found altered, or nothing checked.
    """
    raise SystemExit(run_check(check_arguments(tuple(paths or ()), options)))


def _option(spec: OptionSpec) -> inspect.Parameter:
    default = spec.choices[0] if spec.choices else (False if spec.is_flag else None)
    parser = _output_format if spec.choices else None
    return inspect.Parameter(
        spec.field,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=typer_parameter(spec, parser),
    )


# typer reads the parameters from the signature: PATHS, then every option in help order.
check_command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [
        inspect.Parameter(
            "paths", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=PathsArgument
        ),
        *(_option(spec) for spec in CHECK_OPTIONS),
    ]
)
