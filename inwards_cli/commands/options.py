"""typer's parameters of command-line options: those several commands share, and the
builder of any option from its `OptionSpec` (`option_specs.py`, where each is declared).

typer lives here and in the command modules only; the typer-free fast path of `check`
(`check/options.py`, `check/entry.py`) must not import this module.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from inwards_cli.commands.console import fail, warn
from inwards_cli.commands.option_specs import (
    CONFIG,
    DISABLE_PLUGIN,
    ISOLATED,
    NO_CACHE,
    OptionSpec,
)


def typer_option(spec: OptionSpec, parser: Callable[[str], Any] | None = None) -> Any:
    """typer's `Option` of `spec`; `parser` reads the value of an option with choices."""
    extra: dict[str, Any] = {}
    if not spec.is_flag and not spec.choices:
        extra["show_default"] = False  # its default is "not given"
    if spec.names_a_file:
        extra["dir_okay"] = False
    if spec.minimum is not None:
        extra["min"] = spec.minimum
    if spec.metavar is not None:
        extra["metavar"] = spec.metavar
    if parser is not None:
        extra["parser"] = parser
    return typer.Option(*spec.names, help=spec.help, **extra)


def typer_parameter(spec: OptionSpec, parser: Callable[[str], Any] | None = None) -> Any:
    """The annotation of the parameter `spec` sets: its type, and its `typer_option`."""
    if spec.value is None:
        kind: Any = bool
    elif spec.choices:
        kind = str
    elif spec.repeatable:
        kind = list[spec.value] | None  # type: ignore[name-defined]
    else:
        kind = spec.value | None
    return cast(Any, Annotated)[kind, typer_option(spec, parser)]


ConfigOption = Annotated[Path | None, typer_option(CONFIG)]
IsolatedOption = Annotated[bool, typer_option(ISOLATED)]
NoCacheOption = Annotated[bool, typer_option(NO_CACHE)]
DisablePluginOption = Annotated[list[str] | None, typer_option(DISABLE_PLUGIN)]


# The file a command writes instead of standard output: one spelling, `-o/--output-file`, on
# check, diagram and baseline. `--output` (diagram's and baseline's first spelling) still
# works, hidden from --help, with a warning naming the new one.
OUTPUT_FILE_NAMES = ("--output-file", "-o")
OLD_OUTPUT_NAME = "--output"
OldOutputOption = Annotated[
    Path | None,
    typer.Option(OLD_OUTPUT_NAME, hidden=True, show_default=False, dir_okay=False),
]


def output_file_option(help_text: str) -> Any:
    return typer.Option(
        *OUTPUT_FILE_NAMES, help=help_text, show_default=False, dir_okay=False, metavar="FILE"
    )


def output_file_given(output_file: Path | None, old_output: Path | None) -> Path | None:
    """The file `-o/--output-file` or the old `--output` names (with a warning)."""
    if old_output is None:
        return output_file
    if output_file is not None:
        fail("error: --output is the old name of -o/--output-file; give only --output-file.")
    warn("--output is deprecated and will go: use -o/--output-file (it takes the same FILE).")
    return old_output
