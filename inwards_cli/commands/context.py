"""`inwards context`: the architecture brief, printed or kept in `AGENTS.md`."""

from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.commands.console import fail, write_text
from inwards_cli.commands.loading import active_rules, build_config, locate_config, plugin_host
from inwards_cli.commands.options import ConfigOption, IsolatedOption

AGENTS_FILE = "AGENTS.md"


def context_command(
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Keep the brief in AGENTS.md beside pyproject.toml, between the markers "
            "<!-- inwards-brief:begin --> and <!-- inwards-brief:end --> (the file is "
            "created, or only what stands between the markers is replaced).",
        ),
    ] = False,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
) -> None:
    """Print a short Markdown brief of the architecture for people and coding agents: the
    layers innermost first with their modules and what each may import, siblings, the
    libraries kept out, where the ports are, the contexts, and the opt-in rules that are
    on. Exit status 0, or 2 (no configuration, markers out of order, a failed write)."""
    target, brief = architecture_brief_of(config, isolated=isolated)
    if not write:
        write_text(brief)
        return
    keep_brief(target, brief)


def architecture_brief_of(config: Path | None, *, isolated: bool) -> tuple[Path, str]:
    """The project's AGENTS.md (beside its pyproject.toml) and the brief to keep in it."""
    from inwards_core.diagrams.brief import architecture_brief

    loaded = locate_config(config)
    built = build_config(loaded)
    rules = active_rules(loaded, built, isolated=isolated)
    brief = architecture_brief(built, rules, plugin_host(loaded.project_dir))
    return loaded.project_dir / AGENTS_FILE, brief


def keep_brief(target: Path, brief: str, *, who: str = "context", dry_run: bool = False) -> None:
    """Keep `brief` between the markers of `target` (`inwards context --write`, and
    `inwards init --agent agents-md` under the name `who`); with `dry_run`, print the diff
    instead. Exit 2 with one line naming the file when it can't be read or written."""
    from inwards_cli.adapters.atomic import failure_reason, write_user_file
    from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file
    from inwards_cli.config_file import MAX_CONFIG_BYTES
    from inwards_cli.pyproject_edit import unified_diff
    from inwards_core.diagrams.brief import MarkerError, with_brief

    try:
        # As check reads its configuration: a regular file of bounded size, never a FIFO
        # that would block nor a link that leads elsewhere (the write would refuse it too).
        data = read_regular_file(target, follow_symlinks=False, max_bytes=MAX_CONFIG_BYTES)
        old = data.decode("utf-8")
    except FileNotFoundError:
        old = ""
    except UnicodeDecodeError as error:
        fail(f"{who}: {target}: can't be read ({error})")
    except NotARegularFileError as error:
        fail(f"{who}: {target} {error.strerror}; the brief is written into a file.")
    except OSError as error:
        if error.errno == errno.ELOOP:
            fail(
                f"{who}: {target} is a symbolic link; the brief is written only into the "
                "file itself (replace the link with the file)."
            )
        fail(f"{who}: {target}: can't be read: {failure_reason(error)}.")
    try:
        new = with_brief(old, brief)
    except MarkerError as error:
        fail(f"{who}: {target}:{error.line}: {error}")
    if new == old:
        sys.stdout.write(f"{AGENTS_FILE} is up to date\n")
        return
    if dry_run:
        write_text(f"The change to {AGENTS_FILE}:\n\n{unified_diff(old, new, AGENTS_FILE)}")
        write_text("Nothing written (--dry-run).\n")
        return
    try:
        write_user_file(target, new.encode("utf-8"))
    except OSError as error:
        fail(f"{who}: can't write {target}: {failure_reason(error)}")
    sys.stdout.write(f"wrote the brief into {AGENTS_FILE}\n")
