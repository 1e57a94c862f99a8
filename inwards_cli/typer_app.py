"""The typer application: every command, its options and its help."""

from __future__ import annotations

from typing import Annotated

import typer

from inwards_cli.commands.baseline import baseline_command
from inwards_cli.commands.check import check_command
from inwards_cli.commands.rule import rule_command
from inwards_cli.commands.rules import rules_app
from inwards_cli.commands.rules_explain import explain_command
from inwards_cli.commands.rules_writing import new_command, shadow_command
from inwards_cli.commands.schema import schema_command
from inwards_cli.commands.status import status_command
from inwards_core.version import inwards_version

app = typer.Typer(
    name="inwards",
    help="An architecture linter for Python: checks every import against the layers "
    "declared in [tool.inwards] of pyproject.toml.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        print(inwards_version())
        raise typer.Exit(0)


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """An architecture linter for Python."""


app.command(name="check")(check_command)
app.command(name="baseline")(baseline_command)
rules_app.command("explain")(explain_command)
rules_app.command("shadow")(shadow_command)
rules_app.command("new")(new_command)
app.add_typer(rules_app, name="rules")
app.command(name="status")(status_command)
app.command(name="rule")(rule_command)
app.command(name="schema")(schema_command)
