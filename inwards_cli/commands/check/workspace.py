"""`inwards check` at a uv workspace root: every member with its own `[tool.inwards]` and
baseline, the root's own configuration over the rest (the members' directories left out),
the members without a table listed as not checked; with PATHS, each path checked by the
nearest configuration above it. One merged report in every format, the worst exit status.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs

from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.check.output import emit, render_report
from inwards_cli.commands.check.run import CheckOutcome, check
from inwards_cli.commands.console import fail
from inwards_cli.workspace import Member, Workspace, WorkspaceView, nearest_config
from inwards_core.model.findings import NotChecked
from inwards_core.reporting.escaping import safe_line
from inwards_core.reporting.merge import ReportPart, merge_reports
from inwards_core.rules.selection import ActiveRule

__all__ = ["run_workspace_check"]


@attrs.frozen
class _Part:
    """One configuration to run: its file, its directory's path below the root ("" or
    ending in "/"), the paths named for it (none: the whole project), and the member
    directories below it that their own configurations check."""

    config: Path
    prefix: str
    paths: tuple[Path, ...]
    view: WorkspaceView


def _prefix(workspace: Workspace, directory: Path) -> str:
    relative = Path(os.path.relpath(directory, workspace.root)).as_posix()
    return "" if relative == "." else f"{relative}/"


def _no_table(member: Member) -> str:
    return f"{member.relative} has no [tool.inwards] table, so it was not checked."


def _whole_plan(workspace: Workspace) -> tuple[list[_Part], list[NotChecked]]:
    parts: list[_Part] = []
    if workspace.root_has_table:
        view = workspace.view(workspace.root, workspace.source_root)
        parts.append(_Part(workspace.config, "", (), view))
    not_checked: list[NotChecked] = []
    for member in workspace.members:
        if member.has_table:
            view = workspace.view(member.directory, member.source_root)
            parts.append(_Part(member.config, _prefix(workspace, member.directory), (), view))
        else:
            not_checked.append(NotChecked(member.relative, _no_table(member)))
    return parts, not_checked


def _resolved(path: Path) -> Path:
    """The path, resolved; one that doesn't exist or can't be examined is exit 2, as in a
    check of one project."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        fail(f"{path} is not a file or directory.")
    except OSError as error:
        fail(f"{path} can't be examined: {(error.strerror or str(error)).lower()}.")
    return path.resolve()


def _members_below(workspace: Workspace, directory: Path) -> list[Member]:
    """The members strictly inside `directory` (resolved)."""
    found = []
    for member in workspace.members:
        inside = member.directory.resolve()
        if inside != directory and directory in inside.parents:
            found.append(member)
    return found


def _python_outside(directory: Path, members: Sequence[Member]) -> bool:
    """Whether `directory` holds a Python file that none of `members` (inside it) holds:
    whether its own configuration has anything to check there."""
    skipped = {str(member.directory.resolve()) for member in members}
    for here, directories, files in os.walk(directory):
        if any(name.endswith((".py", ".pyi")) for name in files):
            return True
        directories[:] = [
            name
            for name in directories
            if not name.startswith(".")
            and name != "__pycache__"
            and os.path.join(here, name) not in skipped
        ]
    return False


def _paths_plan(
    workspace: Workspace, paths: Sequence[Path]
) -> tuple[list[_Part], list[NotChecked]]:
    """Each path to the nearest configuration above it, in the order first named; a
    directory that holds members also names each of them to its own configuration."""
    named: dict[Path, list[Path]] = {}
    owners: dict[Path, Member | Workspace] = {}
    not_checked: list[NotChecked] = []

    def route(path: Path, resolved: Path, *, holds_members: bool = False) -> None:
        owner = nearest_config(workspace, resolved)
        relative = Path(os.path.relpath(resolved, workspace.root)).as_posix()
        if owner is None:
            message = f"{path} is outside the workspace at {workspace.root}, so it was not checked."
            not_checked.append(NotChecked(str(resolved), message))
        elif isinstance(owner, Member) and not owner.has_table:
            message = (
                f"{path} is in {owner.relative}, which has no [tool.inwards] table, so it was "
                "not checked."
            )
            not_checked.append(NotChecked(relative, message))
        elif isinstance(owner, Workspace) and not owner.root_has_table:
            if not holds_members:  # its members are checked: nothing to say about the rest
                message = (
                    f"{path} belongs to no workspace member, and the workspace root's "
                    f"{owner.config.name} has no [tool.inwards] table, so it was not checked."
                )
                not_checked.append(NotChecked(relative, message))
        else:
            named.setdefault(owner.config, []).append(path)
            owners[owner.config] = owner

    for path in paths:
        resolved = _resolved(path)
        below = _members_below(workspace, resolved) if resolved.is_dir() else []
        if not below or _python_outside(resolved, below):
            route(path, resolved, holds_members=bool(below))
        for member in below:
            shown = Path(os.path.relpath(member.directory, Path.cwd()))
            route(shown, member.directory.resolve())
    parts = []
    for config, group in named.items():
        directory, source_root = config.parent, owners[config].source_root
        view = workspace.view(directory, source_root)
        unique = tuple(dict.fromkeys(group))
        parts.append(_Part(config, _prefix(workspace, directory), unique, view))
    return parts, not_checked


class _Headed:
    """Standard error that says which configuration speaks before its first line: a
    member's messages name its files as the member sees them (`pyproject.toml:12:1`)."""

    def __init__(self, inner: TextIO, header: str) -> None:
        self._inner = inner
        self._header = header
        self._said = False

    def write(self, text: str) -> int:
        if text and not self._said:
            self._said = True
            self._inner.write(self._header)
        return self._inner.write(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, ...
        return getattr(self._inner, name)


def _from_here(path: Path) -> str:
    return Path(os.path.relpath(path, Path.cwd())).as_posix()


def _run(part: _Part, arguments: CheckArguments) -> CheckOutcome | int:
    """One configuration's check, or the exit status it stopped with: 2 (its errors are
    on stderr already), or 0 once --show-files listed its files."""
    one = attrs.evolve(arguments, config=part.config, paths=part.paths)
    headed = _Headed(sys.stderr, f"In {safe_line(_from_here(part.config))}:\n")
    try:
        with contextlib.redirect_stderr(headed):
            return check(one, view=part.view)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2


def _refuse(arguments: CheckArguments, workspace: Workspace) -> None:
    """The options that follow one configuration, refused at a workspace root (exit 2)."""
    if arguments.explain is not None:
        fail(
            "--explain explains one configuration's run, and this is a uv workspace root: "
            "run it in a member, or name a configuration with --config FILE."
        )
    where = _from_here(workspace.config)
    if arguments.watch:
        fail(
            f"--watch follows one configuration, and {where} is a uv workspace root: run it "
            "in a member's directory, or name a configuration with --config."
        )
    if arguments.baseline is not None:
        fail(
            f"--baseline names one baseline, and {where} is a uv workspace root, where each "
            "configuration reads the inwards-baseline.json next to it: name a configuration "
            "with --config too, or leave --baseline out."
        )


def run_workspace_check(arguments: CheckArguments, workspace: Workspace) -> int:
    """Check the workspace, write the one report, return the worst exit status."""
    _refuse(arguments, workspace)
    if arguments.paths:
        plan, not_checked = _paths_plan(workspace, arguments.paths)
    else:
        plan, not_checked = _whole_plan(workspace)
    parts: list[ReportPart] = []
    rules: dict[str, ActiveRule] = {}
    warnings: dict[str, None] = {}
    listed = 0  # --show-files: the worst exit status of the listings
    for part in plan:
        outcome = _run(part, arguments)
        shown = f"{part.prefix}{part.config.name}"
        if arguments.show_files:
            listed = max(listed, outcome if isinstance(outcome, int) else 0)
            continue
        if isinstance(outcome, int):
            parts.append(ReportPart(shown, part.prefix, None))
            message = f"{shown} could not be checked: its errors are above."
            not_checked.append(NotChecked(part.prefix.rstrip("/") or ".", message))
            continue
        parts.append(ReportPart(shown, part.prefix, outcome.report))
        for active in outcome.rules:
            rules.setdefault(active.code, active)
        warnings.update(dict.fromkeys(outcome.rule_warnings))
    if arguments.show_files:
        return listed
    duration = sum(p.report.duration_ms for p in parts if p.report is not None)
    merged = merge_reports(parts, not_checked=not_checked, duration_ms=duration)
    text = render_report(
        merged.report,
        arguments,
        workspace.root,
        rules=tuple(rules.values()),
        rule_warnings=tuple(warnings),
        merged=merged,
    )
    if not arguments.silent or arguments.output_file is not None:
        emit(text, arguments.output_file)
    code = merged.exit_code()
    return 0 if arguments.exit_zero and code == 1 else code
