"""`inwards daemon [status|stop]`: the resident daemon of the agent hooks
(`inwards_cli.daemon`, docs/agents.md#daemon). The hooks start one themselves; these commands
start one by hand, say whether one serves a project, and stop it."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.commands.console import fail, write_text

daemon_app = typer.Typer(
    name="daemon",
    help="The resident daemon that answers the agent hooks from a warm session "
    "(docs/agents.md#daemon).",
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode=None,
)

ProjectOption = Annotated[
    Path | None,
    typer.Option(
        "--project",
        help="The project directory (default: the working directory), as the hooks' "
        "CLAUDE_PROJECT_DIR names it.",
        file_okay=False,
        metavar="DIR",
    ),
]
START_SECONDS = 120.0  # for a started daemon to answer (it lists and reads the project)


def _project(given: Path | None) -> str:
    directory = os.path.realpath(given if given is not None else Path.cwd())
    if not os.path.isdir(directory):
        fail(f"inwards daemon: {directory} is not a directory.")
    return directory


@daemon_app.callback(invoke_without_command=True)
def daemon_command(
    context: typer.Context,
    idle: Annotated[
        float,
        typer.Option(
            "--idle",
            help="Seconds without a request after which the daemon exits.",
            min=1.0,
            metavar="SECONDS",
        ),
    ] = 900.0,
    foreground: Annotated[
        bool,
        typer.Option("--foreground", help="Serve in this process (until idle, stopped or Ctrl-C)."),
    ] = False,
    project: ProjectOption = None,
) -> None:
    """Start the project's daemon in the background (or, with --foreground, serve here). It
    answers the PreToolUse and PostToolUse runs of `inwards hook claude-code` from a session
    kept warm; the first such hook run starts one anyway. Exit status 0 when a daemon
    serves the project (this one or one already running), 1 when it could not start."""
    if context.invoked_subcommand is not None:
        return
    directory = _project(project)
    if foreground:
        raise typer.Exit(_foreground(directory, idle))
    raise typer.Exit(_background(directory, idle))


def _foreground(directory: str, idle: float) -> int:
    from inwards_cli.daemon.server import Daemon, DaemonError, serve

    def ready(daemon: Daemon) -> None:
        _say(
            f"inwards daemon: serving {directory} (pid {os.getpid()}) on "
            f"{daemon.places.socket}; it exits after {idle:g} s without a request."
        )

    try:
        served = serve(directory, idle=idle, environ=os.environ, ready=ready)
    except DaemonError as error:
        _say(f"inwards daemon: {error}")
        return 1
    _say(
        "inwards daemon: stopped."
        if served
        else f"inwards daemon: another daemon already serves {directory}."
    )
    return 0


def _say(line: str) -> None:
    from inwards_core.reporting.escaping import safe_line

    sys.stderr.write(safe_line(line) + "\n")
    sys.stderr.flush()


def _background(directory: str, idle: float) -> int:
    from inwards_cli.daemon.client import start_in_background

    answer = _ask(directory, "status")
    if answer is None:
        pid = start_in_background(directory, os.environ, idle=idle, force=True)
        deadline = time.monotonic() + START_SECONDS
        while answer is None and time.monotonic() < deadline:
            if pid is not None and _ended(pid):
                pid = None  # it left: another one serves, or it failed (seen below)
            time.sleep(0.1)
            answer = _ask(directory, "status")
            if answer is None and pid is None and not _starting(directory):
                break
    if answer is None:
        write_text(f"inwards daemon: no daemon could start for {directory}.\n")
        return 1
    write_text(_status_text(answer, directory))
    return 0


def _ended(pid: int) -> bool:
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done == pid


def _starting(directory: str) -> bool:
    from inwards_cli.daemon.client import lock_is_held
    from inwards_cli.daemon.place import Places, runtime_directory

    runtime = runtime_directory(os.environ, create=False)
    return runtime is not None and lock_is_held(Places(runtime, directory).lock)


def _ask(directory: str, kind: str) -> dict[str, object] | None:
    from inwards_cli.daemon.client import ask
    from inwards_cli.daemon.place import (
        PROTOCOL,
        Places,
        UnsafeRuntimeDirectory,
        runtime_directory,
    )

    try:
        runtime = runtime_directory(os.environ, create=False)
    except (UnsafeRuntimeDirectory, OSError) as error:
        fail(f"inwards daemon: the runtime directory can't be used: {error}")
    if runtime is None:
        return None
    places = Places(runtime, directory)
    return ask(places.socket, {"protocol": PROTOCOL, "kind": kind}, None, seconds=10.0)


def _status_text(answer: dict[str, object], directory: str) -> str:
    from inwards_cli.daemon.place import identity

    started = answer.get("startedAt")
    up = time.time() - started if isinstance(started, int | float) else 0.0
    lines = [
        f"inwards daemon: serving {directory} (pid {answer.get('pid')}, "
        f"inwards {answer.get('version')})",
        f"  socket: {answer.get('socket')}",
        f"  up {up:.0f} s, {answer.get('requests')} hook requests answered, "
        f"idle {answer.get('idleSeconds')} s",
    ]
    if answer.get("identity") != identity():
        lines.append(
            "  it runs another installation of inwards than this command: the next hook "
            "run stops it and starts a new one."
        )
    return "\n".join(lines) + "\n"


@daemon_app.command("status")
def status_command(project: ProjectOption = None) -> None:
    """Say whether a daemon serves the project: its process, socket, uptime and requests.
    Exit status 0 when one serves it, 1 when none does."""
    directory = _project(project)
    answer = _ask(directory, "status")
    if answer is None:
        write_text(f"inwards daemon: no daemon serves {directory}.\n")
        raise typer.Exit(1)
    write_text(_status_text(answer, directory))


@daemon_app.command("stop")
def stop_command(project: ProjectOption = None) -> None:
    """Stop the project's daemon (the next hook run starts another, unless INWARDS_DAEMON=0).
    Exit status 0, whether one was running or not."""
    directory = _project(project)
    answer = _ask(directory, "stop")
    if answer is None:
        write_text(f"inwards daemon: no daemon serves {directory}.\n")
        return
    deadline = time.monotonic() + 10.0
    while _ask(directory, "status") is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    write_text(f"inwards daemon: stopped the daemon of {directory} (pid {answer.get('pid')}).\n")
