"""What every command shares: finding the configuration, reporting config errors."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from inwards_cli.config_file import NO_CONFIG_MESSAGE, LoadedConfig, find_config, read_config
from inwards_core.config.model import ConfigError

# Exit statuses 0 and 1 come from Report.exit_code(); usage and config errors are 2.
EXIT_USAGE = 2


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Plain text on stderr, stdout untouched, whatever the output format."""
    sys.stderr.write(message.rstrip("\n") + "\n")
    raise SystemExit(code)


def fail_config(error: ConfigError) -> NoReturn:
    lines = [f"config error: {problem.render()}" for problem in error.problems]
    fail("\n".join(lines))


def locate_config(config: Path | None) -> LoadedConfig:
    try:
        if config is not None:
            if not config.is_file():
                fail(f"{config} is not a file.")
            return read_config(config)
        found = find_config(Path.cwd())
        if found is None:
            fail(NO_CONFIG_MESSAGE)
        return read_config(found)
    except ConfigError as error:
        fail_config(error)


def display_from(project_dir: Path) -> Callable[[str], str]:
    """Project-relative POSIX paths -> paths relative to where the user stands."""
    cwd = Path.cwd()
    base = project_dir.resolve()
    same = base == cwd.resolve()

    def display(path: str) -> str:
        if same:
            return path
        return Path(os.path.relpath(base / path, cwd)).as_posix()

    return display
