"""The steps `inwards init` takes for a preset and for `--style auto` alike: the package
name, the pyproject read, edited, shown (--dry-run) and saved, and the table checked
before anything is written."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inwards_cli.commands.console import fail, fail_config, write_text

if TYPE_CHECKING:
    from inwards_core.config.values import Config


def resolve_package(text: str | None, package: str | None) -> str:
    """--package, else the normalised [project].name; exit 2 when neither gives one."""
    from inwards_cli.commands.init_project import project_name, valid_package

    if package is None and text is None:
        fail(
            "error: there is no pyproject.toml to read the package name from; pass --package NAME."
        )
    name = package if package is not None else (project_name(text) if text else None)
    if name is None:
        fail("error: pyproject.toml has no [project] name; pass --package NAME.")
    if not valid_package(name):
        fail(
            f"error: {name!r} is not a top-level Python package name; pass --package NAME "
            "(letters, digits and _, as `import NAME` takes it)."
        )
    if len(name.encode("utf-8")) > _LONGEST_FILE_NAME:
        fail(
            f"error: the package name is {len(name)} characters long; it names a folder, and "
            f"a file name holds at most {_LONGEST_FILE_NAME} bytes: pass a shorter --package NAME."
        )
    return name


# What a file system takes for one file or folder name (NAME_MAX on Linux and macOS).
_LONGEST_FILE_NAME = 255


def load_pyproject(project_dir: Path, *, create: bool) -> tuple[Path, str | None]:
    """The pyproject's path and text (None: there is none, and `create` allows that)."""
    from inwards_cli.commands.init_project import read_pyproject

    path = project_dir / "pyproject.toml"
    if os.path.lexists(path):
        return path, read_pyproject(path)
    if not create:
        fail(
            f"error: no pyproject.toml in {project_dir}; run inwards init in the project's "
            "directory (or create one: `uv init`, or --scaffold with --package NAME)."
        )
    return path, None


def new_pyproject(text: str, table: dict[str, Any], comment: str, *, force: bool) -> str:
    """`text` with the table added (or replaced with `force`); exit 2 with the line of an
    existing table otherwise, or of a TOML error."""
    from inwards_cli.pyproject_edit import (
        InwardsTableExistsError,
        PyprojectEditError,
        with_inwards_table,
    )

    try:
        return with_inwards_table(text, table, comment, replace=force)
    except InwardsTableExistsError as error:
        fail(
            f"error: pyproject.toml:{error.line}: [tool.inwards] is already there; "
            "pass --force to replace it, or edit it by hand."
        )
    except PyprojectEditError as error:
        where = f":{error.line}" if error.line else ""
        fail(f"error: pyproject.toml{where}: {error.message}")


def validate(table: dict[str, Any]) -> Config:
    """Never write a table the check would refuse: a preset bug is exit 2, not a file."""
    from inwards_core.config.load import build_config
    from inwards_core.config.values import ConfigError, NoPositions

    try:
        return build_config(table, file="pyproject.toml", positions=NoPositions())
    except ConfigError as error:
        fail_config(error)


def show_dry_run(path: Path, old: str, new: str, table_text: str) -> None:
    from inwards_cli.pyproject_edit import unified_diff

    write_text(f"[tool.inwards] to write:\n\n{table_text}\n")
    write_text(f"The change to {path.name}:\n\n{unified_diff(old, new, path.name)}")


def save(path: Path, text: str) -> None:
    from inwards_cli.adapters.atomic import failure_reason
    from inwards_cli.pyproject_edit import write_pyproject

    try:
        write_pyproject(path, text)
    except OSError as error:
        fail(f"error: can't write {path.name}: {failure_reason(error)}.")
