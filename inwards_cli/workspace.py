"""uv workspaces: the root's `[tool.uv.workspace]`, its members, and which configuration a
path belongs to.

Members are found as uv finds them: each `members` entry is a glob relative to the root
(`*` and `?` within one path segment, `[...]` a class, `**` any number of directories),
every matched directory holding a `pyproject.toml` is a member (uv passes over one without
it), and a directory matched by an `exclude` glob is not. Nothing of the project is run;
the files are read as TOML only.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.config_file import CONFIG_NAME
from inwards_cli.workspace_toml import parsed, table_at, workspace_root_above
from inwards_core.model.value_repr import value_repr

__all__ = [
    "Member",
    "Workspace",
    "WorkspaceError",
    "WorkspaceView",
    "find_workspace",
    "foreign_packages",
    "nearest_config",
    "read_workspace",
]


class WorkspaceError(Exception):
    """`[tool.uv.workspace]` is there but can't be used; the message names file and key."""


@attrs.frozen
class Member:
    """One workspace member: its directory (POSIX, relative to the workspace root), its
    `pyproject.toml`, and whether that file has a `[tool.inwards]` table."""

    __repr__ = value_repr

    relative: str
    directory: Path
    config: Path
    has_table: bool
    # Where its modules' names start: `root` of its [tool.inwards] (a member without the
    # table: `src` when there is one, else the member's directory).
    source_root: Path


@attrs.frozen
class WorkspaceView:
    """What one configuration's check in a workspace sees differently: the member
    directories below it left to their own configurations (relative to its directory),
    and the other members' packages and installed namespace portions (`foreign_packages`)."""

    __repr__ = value_repr

    excluded: tuple[str, ...] = ()
    workspace_packages: tuple[str, ...] = ()
    installed_portions: tuple[str, ...] = ()


@attrs.frozen
class Workspace:
    """A workspace root, whether its own `pyproject.toml` has `[tool.inwards]`, and its
    members sorted by path (the root itself is never one of them)."""

    __repr__ = value_repr

    root: Path
    config: Path
    root_has_table: bool
    members: tuple[Member, ...]
    source_root: Path  # the root configuration's `root`

    def view(self, directory: Path, source_root: Path) -> WorkspaceView:
        """How the check of the configuration in `directory` sees the workspace."""
        packages, portions = foreign_packages(self, source_root)
        return WorkspaceView(self.members_inside(directory), packages, portions)

    def members_inside(self, directory: Path) -> tuple[str, ...]:
        """The members strictly below `directory`, as POSIX paths relative to it: the
        directories a configuration there leaves to their own configurations."""
        inside: list[str] = []
        for member in self.members:
            try:
                relative = member.directory.relative_to(directory).as_posix()
            except ValueError:
                continue
            if relative != ".":
                inside.append(relative)
        return tuple(inside)


def find_workspace(start: Path) -> Workspace | None:
    """The nearest workspace root at or above `start`: the first `pyproject.toml` on the
    way up with a `[tool.uv.workspace]` table (uv stops at the first too)."""
    found = workspace_root_above(start)
    return None if found is None else read_workspace(*found)


def _globs(value: Any, key: str, config: Path) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise WorkspaceError(
            f"{config}: tool.uv.workspace.{key} must be an array of strings (globs of "
            "member directories relative to the workspace root)."
        )
    return tuple(value)


def _matches(root: Path, pattern: str, config: Path, key: str) -> set[Path]:
    """The directories `pattern` names below `root` (uv's globs; see the module doc)."""
    cleaned = pattern.strip()
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    cleaned = cleaned.rstrip("/")
    if cleaned in ("", "."):
        return {root}
    if Path(cleaned).is_absolute():
        raise WorkspaceError(
            f'{config}: tool.uv.workspace.{key} has "{pattern}", an absolute path; '
            "write it relative to the workspace root."
        )
    try:
        found = root.glob(cleaned)
        return {path.absolute() for path in found if path.is_dir()}
    except (ValueError, OSError) as error:
        raise WorkspaceError(
            f'{config}: tool.uv.workspace.{key} has "{pattern}", which is not a usable '
            f"glob: {error}."
        ) from None


def _inwards_table(document: dict[str, Any] | None) -> dict[str, Any] | None:
    table = None if document is None else table_at(document, "tool", "inwards")
    return table if isinstance(table, dict) else None


def _source_root(directory: Path, table: dict[str, Any] | None) -> Path:
    if table is None:
        return directory / "src" if (directory / "src").is_dir() else directory
    root = table.get("root", ".")
    return directory / root if isinstance(root, str) else directory


def read_workspace(config: Path, document: dict[str, Any] | None = None) -> Workspace | None:
    """The workspace `config` (a root `pyproject.toml`) declares; None when it has no
    `[tool.uv.workspace]` table. `WorkspaceError` when its `members`/`exclude` are not
    arrays of relative globs."""
    config = config.absolute()
    document = document if document is not None else parsed(config)
    if document is None:
        return None
    table = table_at(document, "tool", "uv", "workspace")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise WorkspaceError(f"{config}: tool.uv.workspace must be a table.")
    root = config.parent
    members = _globs(table.get("members"), "members", config)
    excluded = _globs(table.get("exclude"), "exclude", config)
    chosen = _expand(root, members, config, "members")
    chosen -= _expand(root, excluded, config, "exclude")
    chosen.discard(root)
    root_table = _inwards_table(document)  # the root file is read once
    return Workspace(
        root=root,
        config=config,
        root_has_table=root_table is not None,
        members=tuple(_members(root, chosen)),
        source_root=_source_root(root, root_table) if root_table is not None else root,
    )


def _expand(root: Path, patterns: Sequence[str], config: Path, key: str) -> set[Path]:
    found: set[Path] = set()
    for pattern in patterns:
        found |= _matches(root, pattern, config, key)
    return found


def _members(root: Path, directories: Iterable[Path]) -> list[Member]:
    members: list[Member] = []
    for directory in directories:
        config = directory / CONFIG_NAME
        if not os.path.isfile(config):
            continue  # uv passes over a matched directory without a pyproject.toml
        try:
            relative = directory.relative_to(root).as_posix()
        except ValueError:
            relative = directory.as_posix()  # `../x`: a member outside the root
        table = _inwards_table(parsed(config))
        source_root = _source_root(directory, table)
        members.append(Member(relative, directory, config, table is not None, source_root))
    return sorted(members, key=lambda member: member.relative)


def nearest_config(workspace: Workspace, path: Path) -> Member | Workspace | None:
    """Which configuration `path` (absolute, resolved) belongs to: the deepest member
    holding it, else the root; None when it lies outside the workspace."""
    best: Member | None = None
    for member in workspace.members:
        directory = member.directory.resolve()
        inside = path == directory or directory in path.parents
        if inside and (best is None or len(member.directory.parts) > len(best.directory.parts)):
            best = member
    if best is not None:
        return best
    root = workspace.root.resolve()
    if path == root or root in path.parents:
        return workspace
    return None


# -- the other members' packages, as one configuration sees them -------------------------

_MODULE_SUFFIXES = (".py", ".pyi", ".so", ".pyd")
_NAMESPACE_DEPTH = 3  # acme.platform.billing: deeper shared namespaces are not looked into


def _entries(directory: Path) -> list[tuple[str, bool]]:
    """(name, is a directory) of the importable names in `directory`: modules, and
    directories whose name could be a package (not hidden, caches, metadata or a venv)."""
    try:
        listed = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return []
    found: list[tuple[str, bool]] = []
    for entry in listed:
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            if entry.name.isidentifier() and not os.path.exists(Path(entry.path, "pyvenv.cfg")):
                found.append((entry.name, True))
        else:
            stem = entry.name.partition(".")[0]
            if entry.name.endswith(_MODULE_SUFFIXES) and stem.isidentifier():
                found.append((stem, False))
    return found


def _is_namespace(directory: Path) -> bool:
    return not any((directory / f"__init__{suffix}").exists() for suffix in (".py", ".pyi"))


def _has_name(directory: Path | None, name: str) -> bool:
    if directory is None:
        return False
    if (directory / name).is_dir():
        return True
    return any((directory / f"{name}{suffix}").exists() for suffix in _MODULE_SUFFIXES)


def _packages_below(directory: Path, prefix: str, own: Path | None, depth: int = 0) -> list[str]:
    """The packages and modules `directory` provides, as dotted names under `prefix`,
    going down through the namespace directories it shares with `own` (this project's
    directory at the same place), so that a portion is named (`acme.core`), not the
    namespace both use (`acme`)."""
    names: list[str] = []
    for name, is_dir in _entries(directory):
        if not _has_name(own, name):
            names.append(f"{prefix}{name}")
            continue
        mine = None if own is None else own / name
        if (
            is_dir
            and mine is not None
            and depth < _NAMESPACE_DEPTH
            and _is_namespace(directory / name)
            and mine.is_dir()
            and _is_namespace(mine)
        ):
            names += _packages_below(directory / name, f"{prefix}{name}.", mine, depth + 1)
    return names


def _site_packages(root: Path) -> list[Path]:
    venv = root / ".venv"
    found = [*sorted(venv.glob("lib/python*/site-packages")), venv / "Lib" / "site-packages"]
    return [path for path in found if path.is_dir()]


def foreign_packages(
    workspace: Workspace, source_root: Path
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """For the configuration whose modules start at `source_root`: the packages the other
    members provide (portions of a namespace shared with this project named as such), and
    the portions of this project's namespace packages installed in the workspace .venv."""
    own = source_root.resolve()
    members: list[str] = []
    for member in workspace.members:
        if member.source_root.resolve() == own:
            continue
        members += _packages_below(member.source_root, "", own)
    installed: list[str] = []
    taken = set(members)
    for site in _site_packages(workspace.root):
        for name, is_dir in _entries(own):
            if not is_dir or not _is_namespace(own / name) or not (site / name).is_dir():
                continue
            for portion in _packages_below(site / name, f"{name}.", own / name, 1):
                if portion not in taken:
                    taken.add(portion)
                    installed.append(portion)
    return tuple(dict.fromkeys(members)), tuple(installed)
