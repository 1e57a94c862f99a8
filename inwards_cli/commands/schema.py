"""`inwards schema [NAME]`: print one of the JSON Schemas, or list them."""

from __future__ import annotations

import difflib
import sys
from typing import Annotated

import typer

from inwards_cli.commands.console import fail, warn
from inwards_cli.commands.options import DisablePluginOption
from inwards_cli.composition import load_families, unknown_plugin_warnings
from inwards_core.api import load_rules
from inwards_core.authoring.schemas import SCHEMAS, build_schema, schema_info, schema_text
from inwards_core.plugins import FamilyLoadError


def schema_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="NAME",
            help="The schema to print (config, pyproject, definition, diagnostics, rules, "
            "rule, status, baseline), or the `schema` field of a document, such as "
            "inwards/diagnostics@1. Leave it out to list them.",
            show_default=False,
        ),
    ] = None,
    disable_plugin: DisablePluginOption = None,
) -> None:
    """Print a JSON Schema (draft 2020-12) built from the installed inwards and families:
    for [tool.inwards], a whole pyproject.toml, rule definition files, or a JSON output.
    The option tables come from every installed family, so the schema also covers the
    rules of families installed besides inwards."""
    if name is None:
        width = max(len(info.name) for info in SCHEMAS)
        lines = [f"{info.name.ljust(width)}  {info.describes}" for info in SCHEMAS]
        lines += [
            "",
            "Print one with `inwards schema NAME`; the same files are in schemas/ of the "
            "inwards repository (for the families shipped with inwards).",
        ]
        sys.stdout.write("\n".join(lines) + "\n")
        return
    info = schema_info(name)
    if info is None:
        names = [s.name for s in SCHEMAS] + [s.document for s in SCHEMAS if s.document]
        close = difflib.get_close_matches(name.strip().lower(), names, n=1)
        hint = f' Did you mean "{close[0]}"?' if close else ""
        fail(f'"{name}" is not a schema.{hint} `inwards schema` lists them.')
    try:
        families, unknown = load_families(None, tuple(disable_plugin or ()))
    except FamilyLoadError as error:
        fail(f"error: {error}")
    for line in unknown_plugin_warnings(unknown):
        warn(line)
    schema = build_schema(info.name, families, load_rules(families))
    sys.stdout.write(schema_text(schema))
