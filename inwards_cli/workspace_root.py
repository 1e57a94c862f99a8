"""Whether a check runs in a uv workspace, cheaply: a check outside any workspace only
reads its configuration file once more and looks for a `pyproject.toml` in each directory
above it; the members are read (`inwards_cli/workspace.py`) only once a
`[tool.uv.workspace]` table is found."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inwards_cli.config_file import find_config
from inwards_cli.workspace_toml import workspace_document, workspace_root_above

if TYPE_CHECKING:
    from inwards_cli.workspace import Workspace, WorkspaceView

__all__ = ["view_for_config", "workspace_here"]


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
    document = workspace_document(config)
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
