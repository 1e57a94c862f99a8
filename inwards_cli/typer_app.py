"""The typer application: every command, its options and its help."""

from __future__ import annotations

from typing import Annotated

import typer

from inwards_cli.commands.baseline import baseline_command
from inwards_cli.commands.check.command import check_command
from inwards_cli.commands.context import context_command
from inwards_cli.commands.daemon import daemon_app
from inwards_cli.commands.diagram import diagram_command
from inwards_cli.commands.explain_module import explain_module_command
from inwards_cli.commands.hook_command import hook_app
from inwards_cli.commands.import_config import import_config_command
from inwards_cli.commands.import_diagram import import_diagram_command
from inwards_cli.commands.init import init_command
from inwards_cli.commands.mcp import mcp_command
from inwards_cli.commands.rule import rule_command
from inwards_cli.commands.rules import rules_app
from inwards_cli.commands.rules_explain import explain_command
from inwards_cli.commands.rules_why import why_command
from inwards_cli.commands.rules_writing import new_command, shadow_command
from inwards_cli.commands.schema import schema_command
from inwards_cli.commands.server import server_command
from inwards_cli.commands.stats import stats_command
from inwards_cli.commands.status import status_command
from inwards_cli.commands.version import VERBOSE_FLAGS, version_text

app = typer.Typer(
    name="inwards",
    help="An architecture linter for Python: checks every import against the layers "
    "declared in [tool.inwards] of pyproject.toml.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (docs/cli.md)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    # -h everywhere, as --help (click passes it down to every command).
    context_settings={"help_option_names": ["--help", "-h"]},
)


@app.callback(invoke_without_command=True)
def root(
    context: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", help="Print the version (inwards X.Y.Z) and exit.")
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            *VERBOSE_FLAGS,
            help="With --version: also the distribution, the Python that runs inwards and "
            "the installed rule families with their versions.",
        ),
    ] = False,
) -> None:
    """An architecture linter for Python."""
    if version:
        typer.echo(version_text(verbose=verbose), nl=False)
        raise typer.Exit(0)
    if context.invoked_subcommand is None:  # `inwards -v`: no command, as `inwards` alone
        typer.echo(context.get_help(), err=True)
        raise typer.Exit(2)


app.command(name="check")(check_command)
app.command(name="baseline")(baseline_command)
rules_app.command("explain")(explain_command)
rules_app.command("shadow")(shadow_command)
rules_app.command("new")(new_command)
rules_app.command("why")(why_command)
app.add_typer(rules_app, name="rules")
app.command(name="status")(status_command)
app.command(name="rule")(rule_command)
app.command(name="schema")(schema_command)
app.command(name="explain-module")(explain_module_command)
app.command(name="diagram")(diagram_command)
app.command(name="import-diagram")(import_diagram_command)
app.command(name="context")(context_command)
app.command(name="import-config")(import_config_command)
app.command(name="init")(init_command)
app.add_typer(hook_app, name="hook")
app.add_typer(daemon_app, name="daemon")
app.command(name="mcp")(mcp_command)
app.command(name="stats")(stats_command)
app.command(name="server")(server_command)
