"""`inwards mcp`: serve the project to coding agents over the Model Context Protocol
(stdio), from a warm session (docs/mcp.md). The SDK is the optional `mcp` extra."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.commands.console import fail

INSTALL_HINT = "inwards mcp needs the MCP SDK: pip install 'inwards-lint[mcp]'"


def mcp_command(
    directory: Annotated[
        Path,
        typer.Option(
            "--directory",
            "-C",
            metavar="DIR",
            help="Serve the project holding this directory (default: the working directory).",
            show_default=False,
        ),
    ] = Path(),
) -> None:
    """Serve the project to coding agents over the Model Context Protocol on stdin/stdout:
    read-only tools check_files, explain_rule, rules_status, why and where_should_this_go,
    and the resources inwards://brief and inwards://rules/{code}. Nothing but the protocol
    is written to stdout; the log goes to stderr. Exit status 2 when the SDK is missing."""
    try:
        import mcp  # noqa: F401 (only whether the extra is installed)
    except ImportError:
        fail(INSTALL_HINT)
    if not directory.is_dir():
        fail(f"inwards mcp: --directory {directory} is not a directory.")
    from inwards_cli.mcp_server.server import serve

    serve(directory)
