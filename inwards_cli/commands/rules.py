"""`inwards rules`: every rule, whether it is on, its severity, and what decided it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.bootstrap import installed_families
from inwards_cli.commands.common import fail, fail_config, locate_config
from inwards_core.api import load_rules, prepare
from inwards_core.config.model import ConfigError
from inwards_core.plugins import FamilyLoadError


def rules_command(
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="The pyproject.toml to use, instead of the nearest one holding [tool.inwards].",
            show_default=False,
        ),
    ] = None,
) -> None:
    """List every rule: code, name, on or off, severity, origin root, and the key that decided."""
    loaded = locate_config(config)
    try:
        prepared = prepare(loaded.build(), load_rules(installed_families()))
    except ConfigError as error:
        fail_config(error)
    except FamilyLoadError as error:
        fail(f"error: {error}")
    rows = [("CODE", "NAME", "STATE", "SEVERITY", "ORIGIN", "DECIDED BY")]
    for rule in prepared.rules:
        decided = rule.decided_by
        if rule.severity_decided_by != "default":
            decided += f"; severity: {rule.severity_decided_by}"
        rows.append(
            (
                rule.code,
                rule.name,
                "on" if rule.enabled else "off",
                rule.severity.value,
                rule.rule.definition.origin.root.value,
                decided,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        sys.stdout.write("  ".join([*cells, row[-1]]).rstrip() + "\n")
