"""Whether a check runs in a uv workspace, cheaply: a check outside any workspace only
reads its configuration file once more and looks for a `pyproject.toml` in each directory
above it; the members are read (`inwards_cli/workspace.py`) only once a
`[tool.uv.workspace]` table is found."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.config_file import CONFIG_NAME, MAX_CONFIG_BYTES, find_config
from inwards_core.config.nesting import TomlTooDeepError, load_toml

if TYPE_CHECKING:
    from inwards_cli.workspace import Workspace, WorkspaceView

__all__ = ["parsed", "table_at", "view_for_config", "workspace_here", "workspace_root_above"]


def parsed(path: Path) -> dict[str, Any] | None:
    """The TOML document at `path`; None when it is absent, unreadable or not TOML (a
    broken file is the business of whatever reads it as a configuration)."""
    try:
        data = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES)
        return load_toml(data.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, TomlTooDeepError):
        return None


def table_at(document: dict[str, Any], *keys: str) -> Any:
    """`document[k1][k2]...`, or None where a level is missing or not a table."""
    here: Any = document
    for key in keys:
        if not isinstance(here, dict):
            return None
        here = here.get(key)
    return here


def _workspace_document(path: Path) -> dict[str, Any] | None:
    """The document at `path` when it has a `[tool.uv.workspace]` table; most files have
    not even the word, and are not parsed."""
    try:
        data = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES)
    except OSError:
        return None
    if b"workspace" not in data:
        return None
    try:
        document = load_toml(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, TomlTooDeepError):
        return None
    return document if table_at(document, "tool", "uv", "workspace") is not None else None


def workspace_root_above(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The first `pyproject.toml` at or above `start` with a `[tool.uv.workspace]` table
    (uv stops at the first too), and its document."""
    here = start.absolute()
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        candidate = directory / CONFIG_NAME
        if not os.path.isfile(candidate):
            continue
        document = _workspace_document(candidate)
        if document is not None:
            return candidate, document
    return None


def workspace_here() -> Workspace | None:
    """The workspace `inwards check` (without --config) runs over from here: one with
    members whose root holds the configuration found from here, or, when none is found, the
    nearest root above. Inside a member with its own `[tool.inwards]` (or any project below
    the root with one) the check is that project's, as always.
    A `[tool.uv.workspace]` that can't be used is a configuration error (exit 2)."""
    cwd = Path.cwd()
    found = workspace_root_above(cwd)
    if found is None:
        return None
    nearest = find_config(cwd)  # a member's, or a project's between here and the root
    if nearest is not None and nearest.absolute() != found[0]:
        return None
    from inwards_cli.workspace import WorkspaceError, read_workspace

    try:
        workspace = read_workspace(*found)
    except WorkspaceError as error:
        from inwards_cli.commands.console import fail

        fail(f"config error: {error}")
    if workspace is None or not workspace.members:
        return None
    return workspace


def view_for_config(config: Path) -> WorkspaceView | None:
    """How a check of the one configuration `config` sees the uv workspace it is part of:
    at the root, without the members; in a member, with the other members' packages; None
    outside a workspace. A check of one configuration goes on whatever the workspace
    table holds (the run at the root reports what is wrong with it)."""
    config = config.absolute()
    document = _workspace_document(config)
    found = None if document is None else (config, document)
    if found is None:
        found = workspace_root_above(config.parent.parent)
        if found is None:
            return None
    from inwards_cli.workspace import WorkspaceError, read_workspace

    try:
        workspace = read_workspace(*found)
    except WorkspaceError:
        return None
    if workspace is None or not workspace.members:
        return None
    if found[0] == config:
        return workspace.view(workspace.root, workspace.source_root)
    real = config.resolve()
    for member in workspace.members:
        if member.config.resolve() == real:
            return workspace.view(member.directory, member.source_root)
    return None
