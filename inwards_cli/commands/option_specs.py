"""Command-line options as plain data: the names, the help and what each takes, declared
once. `options.py` builds typer's parameters from them; the typer-free fast path of
`inwards check` (`check/options.py`) parses them itself."""

from __future__ import annotations

from pathlib import Path

import attrs

from inwards_core.model.value_repr import value_repr


@attrs.frozen
class OptionSpec:
    """One option: the parameter it sets, its names (the long one first), its help, and
    its value: none for a flag, else the type one value is read as."""

    __repr__ = value_repr

    field: str
    names: tuple[str, ...]
    help: str
    value: type | None = None
    repeatable: bool = False  # given again, it adds a value
    names_a_file: bool = False  # a directory is refused
    minimum: int | None = None
    metavar: str | None = None
    choices: tuple[str, ...] = ()  # the values it takes, the first the default

    @property
    def is_flag(self) -> bool:
        return self.value is None


CONFIG = OptionSpec(
    "config",
    ("--config",),
    "The pyproject.toml to use, instead of the nearest one holding [tool.inwards].",
    value=Path,
    metavar="FILE",
)
ISOLATED = OptionSpec(
    "isolated",
    ("--isolated",),
    "Leave out the user rule root ($XDG_CONFIG_HOME/inwards/rules): only the shipped and "
    "the project's rule definitions apply, as in CI.",
)
NO_CACHE = OptionSpec(
    "no_cache",
    ("--no-cache",),
    "Neither read nor write the extraction cache (also INWARDS_NO_CACHE=1).",
)
DISABLE_PLUGIN = OptionSpec(
    "disable_plugin",
    ("--disable-plugin",),
    "Run without the rule family of this plugin (its entry-point name, such as tidy, or "
    "its distribution): its rules and kinds are absent. Repeatable, or comma-separated; "
    "INWARDS_DISABLE_PLUGINS adds more.",
    value=str,
    repeatable=True,
    metavar="NAME",
)
