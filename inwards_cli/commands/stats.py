"""`inwards stats`: how recent coding-agent sessions went, from the session logs the agent
hooks keep in `.inwards/state/` (`inwards_cli.agents.stats`)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from inwards_cli.commands.console import fail, write_text
from inwards_cli.commands.loading import locate_config
from inwards_cli.commands.options import ConfigOption

FORMATS = ("text", "json")


def stats_command(
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            help="text (for people) or json (an inwards/stats@1 document).",
            metavar="text|json",
        ),
    ] = "text",
    config: ConfigOption = None,
) -> None:
    """Summarise the recent coding-agent sessions of this project (what
    `inwards hook claude-code` logged in .inwards/state/): violations fixed within one retry,
    violations per 1,000 lines added, hook latency p50/p95, suppressions rejected, and the
    rules that fired most with the root of each rule. Exit status 0, or 2 (no configuration,
    a state directory that can't be read, an unknown format)."""
    from inwards_cli.agents.state import LOG_SUFFIX, STATE_DIR, StateDirectory, StateError
    from inwards_core.reporting.agent_stats import render, stats_document

    if output_format not in FORMATS:
        fail(f"Unknown --format {output_format}; use text or json.")
    loaded = locate_config(config)
    sessions: dict[str, list[dict[str, object]]] = {}
    try:
        state = StateDirectory.open(loaded.project_dir, create=False)
        if state is not None:
            with state:
                for name, _ in sorted(state.entries()):
                    if name.endswith(LOG_SUFFIX):
                        sessions[name[: -len(LOG_SUFFIX)]] = state.read_lines(name)
    except (StateError, OSError) as error:
        fail(f"stats: {error}")
    document = stats_document(sessions)
    if output_format == "json":
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        write_text(render(document, STATE_DIR.as_posix() + "/"))
