"""Options several commands share, declared once so their names and help can't drift.

typer lives here and in the command modules only; the typer-free fast path of `check`
(`check_arguments.py`, `run_check.py`) must not import this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="The pyproject.toml to use, instead of the nearest one holding [tool.inwards].",
        show_default=False,
    ),
]
IsolatedOption = Annotated[
    bool,
    typer.Option(
        "--isolated",
        help="Leave out the user rule root ($XDG_CONFIG_HOME/inwards/rules): only the "
        "shipped and the project's rule definitions apply, as in CI.",
    ),
]
NoCacheOption = Annotated[
    bool,
    typer.Option(
        "--no-cache",
        help="Neither read nor write the extraction cache (also INWARDS_NO_CACHE=1).",
    ),
]
DisablePluginOption = Annotated[
    list[str] | None,
    typer.Option(
        "--disable-plugin",
        help="Run without the rule family of this plugin (its entry-point name, such as "
        "tidy, or its distribution): its rules and kinds are absent. Repeatable, or "
        "comma-separated; INWARDS_DISABLE_PLUGINS adds more.",
        metavar="NAME",
        show_default=False,
    ),
]
