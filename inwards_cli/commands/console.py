"""What a command writes: text on stdout, `warning:` lines and failures on stderr, every
line made safe to print, and paths as the user sees them from where they stand."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from inwards_core.config.values import ConfigError
from inwards_core.reporting.escaping import safe_line

# Exit statuses 0 and 1 come from Report.exit_code(); usage and config errors are 2.
EXIT_USAGE = 2


def fail(*lines: str, code: int = EXIT_USAGE) -> NoReturn:
    """Plain text on stderr, one line per argument, stdout untouched, whatever the output
    format. A line may quote a path or a value from the project, so each is `safe_line`:
    a control character or a line break in it is shown as an escape, and it can't pose as
    a line of its own or as a CI runner's command."""
    sys.stderr.write("".join(f"{safe_line(line)}\n" for line in lines))
    raise SystemExit(code)


def fail_config(error: ConfigError) -> NoReturn:
    lines: list[str] = []
    for problem in error.problems:
        # A problem continues on lines of its own only indented (a TOML excerpt with its
        # caret, an example); any other line break is in quoted project text.
        first, *rest = problem.render().split("\n    ")
        lines.append(f"config error: {first}")
        lines += [f"    {line}" for line in rest]
    fail(*lines)


def write_text(text: str) -> None:
    """Human-readable output on stdout (tables, status, rule pages), each line made safe:
    it quotes definition paths, summaries and guidance, which may be project text."""
    lines = text.split("\n")
    sys.stdout.write("\n".join(safe_line(line) for line in lines))


def warn(line: str) -> None:
    """One `warning:` line on stderr, project text in it escaped (see `fail`)."""
    sys.stderr.write(f"warning: {safe_line(line)}\n")


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
