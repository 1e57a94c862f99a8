"""The typer face of `inwards hook`: its help, and the command for a run that went through
typer (`inwards hook claude-code` itself is answered by `inwards_cli.commands.hook` before
typer is imported)."""

from __future__ import annotations

import sys

import typer

from inwards_cli.commands.hook import hook_main

hook_app = typer.Typer(
    name="hook",
    help="Hooks for coding agents: inwards checks what the agent changes as it works "
    "(docs/agents.md).",
    no_args_is_help=True,
)


@hook_app.command("claude-code")
def claude_code_command() -> None:
    """Answer one Claude Code hook (SessionStart, PreToolUse, PostToolUse, Stop): reads the
    payload on standard input. Exit status 0 (go on; JSON on standard output), 2 (blocked;
    the reason on standard error, for the model) or 1 (the hook itself could not run; one
    line for the user, the agent goes on). Set it up with `inwards init --agent claude`
    (docs/agents.md)."""
    sys.stdout.flush()
    raise typer.Exit(hook_main(["claude-code"]))
