"""`inwards rules why CODE [PATHS]`: why a rule reported what it did, or nothing, without
the findings (the explanation `inwards check --explain` appends, `check/why.py`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.check.run import check
from inwards_cli.commands.check.why import render_explanation
from inwards_cli.commands.console import display_from, write_text
from inwards_cli.commands.options import ConfigOption, DisablePluginOption, IsolatedOption


def why_command(
    rule: Annotated[
        str, typer.Argument(metavar="RULE", help="A rule code or name (any letter case).")
    ],
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="[PATHS]...",
            help="Files or directories, as for `inwards check`; without them the whole project.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print inwards/why@1 JSON.")] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    config: ConfigOption = None,
) -> None:
    """Say why a rule reported what it did, or nothing: shadowed or unusable definitions,
    turned off or re-levelled (by which key, file and line), skipped for PATHS, files not
    checked, not read or out of its scope, findings hidden by comments or the baseline,
    options that match nothing, and the definition behind each finding.

    Runs the check as `inwards check` would (never from the cache's memo) and prints only
    the explanation. Exit status: 0 whatever the findings; 2 for a configuration or
    definition error, or a code no usable definition has.
    """
    arguments = CheckArguments(
        paths=tuple(paths or ()),
        output_format="json" if as_json else "text",
        config=config,
        isolated=isolated,
        disable_plugin=tuple(disable_plugin or ()),
        silent=True,
        explain=rule,
    )
    outcome = check(arguments)
    explanation = outcome.explanation
    assert explanation is not None  # `check` explains what `explain` names, or exits 2
    if as_json:
        sys.stdout.write(json.dumps(explanation.to_json(), indent=2, ensure_ascii=False) + "\n")
        return
    write_text(render_explanation(explanation, display_from(outcome.project_dir)))
