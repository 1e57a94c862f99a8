"""The PreToolUse config guard: what an agent may not change, and whether a tool call would.

Refused to the file tools (Edit, Write, MultiEdit): anything under `.inwards/` (the state
the Stop gate relies on, and the project's rule root), the baseline, the user and
organisation rule roots, a change of the parsed `[tool.inwards]` of a `pyproject.toml`
(comments, formatting and other tables are free: the edit is applied in memory and both
tables compared), a Claude Code settings file that runs inwards' hooks (or says
`disableAllHooks`), and an edit of one that would change its `hooks` or `disableAllHooks`.
A path is judged as written and with its links resolved, so a link made to reach one of
them does not. Refused to Bash: a command naming one of them that is not read-only
(`inwards_cli.agents.shell`).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.adapters.org_rules import ORG_RULES_OVERRIDE
from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.adapters.rule_roots import user_rules_directory
from inwards_cli.agents.edits import edited_text
from inwards_cli.agents.settings import guarded_part, our_events, read_settings, settings_files
from inwards_cli.agents.shell import is_read_only, named_in
from inwards_cli.config_file import CONFIG_NAME, MAX_CONFIG_BYTES
from inwards_core.baseline import BASELINE_FILE_NAME
from inwards_core.config.nesting import TomlTooDeepError, load_toml
from inwards_core.model.value_repr import value_repr

ASK = "If it really must change, stop and ask the user to change it."
_BROKEN = object()  # a text that doesn't parse


@attrs.frozen
class Protected:
    """The places an agent may not change, as absolute paths (links resolved)."""

    __repr__ = value_repr

    inwards_dirs: tuple[Path, ...]
    baseline: Path
    rule_roots: tuple[Path, ...]
    settings: tuple[Path, ...]
    # Where a pyproject.toml's [tool.inwards] is guarded: the project's own directories.
    projects: tuple[Path, ...] = ()

    @classmethod
    def of(cls, project_dir: Path, claude_dir: Path, environ: Mapping[str, str]) -> Protected:
        roots = [user_rules_directory(environ)[0]]
        org = environ.get(ORG_RULES_OVERRIDE, "")
        if org and os.path.isabs(org):
            roots.append(Path(org))
        return cls(
            inwards_dirs=tuple(
                dict.fromkeys(_real(d / ".inwards") for d in (project_dir, claude_dir))
            ),
            baseline=_real(project_dir / BASELINE_FILE_NAME),
            rule_roots=tuple(_real(root) for root in roots),
            settings=tuple(_real(path) for path in settings_files(claude_dir, environ)),
            projects=tuple(dict.fromkeys(_real(d) for d in (project_dir, claude_dir))),
        )


def file_tool_refusal(
    protected: Protected, path: Path, tool_name: str, tool_input: Mapping[str, Any]
) -> tuple[str, str] | None:
    """(what, reason) when the file tool call may not run; None when it may. `path` is the
    absolute path the call names."""
    written = Path(os.path.normpath(path))
    real = _real(path)
    for candidate in dict.fromkeys((written, real)):
        for directory in protected.inwards_dirs:
            if _under(candidate, directory):
                return "state", (
                    "inwards: .inwards/ holds the record of this session that the checks compare "
                    f"against, and the project's own rules; it is not edited by agents. {ASK}"
                )
        if candidate == protected.baseline:
            return "baseline", (
                f"inwards: {BASELINE_FILE_NAME} says which violations the project accepts; only "
                f"the user adds to it. Fix the violation instead. {ASK}"
            )
        for root in protected.rule_roots:
            if _under(candidate, root):
                return "rules", (
                    f"inwards: {root} is a rule root: its definitions decide what is checked. {ASK}"
                )
    if real in protected.settings or written in protected.settings:
        if _holds_our_hooks(real) or _changes(real, tool_name, tool_input, _settings_part):
            return "settings", (
                "inwards: this Claude Code settings file holds the hooks that check this "
                f"session (or the edit would change them, or turn all hooks off). {ASK}"
            )
    elif (
        real.name == CONFIG_NAME
        and any(_under(real, directory) for directory in protected.projects)
        and _changes(real, tool_name, tool_input, _inwards_table)
    ):
        return "config", (
            f"inwards: this edit changes [tool.inwards] of {CONFIG_NAME}, the architecture "
            "this session is checked against (comments and the other tables are free to "
            f"change). {ASK}"
        )
    return None


def shell_refusal(protected: Protected, command: str) -> tuple[str, str] | None:
    """(what, reason) when the Bash command may not run; None when it may."""
    names = [".inwards", BASELINE_FILE_NAME]
    if ".claude" in command:
        names += [path.name for path in protected.settings]
    named = named_in(command, list(dict.fromkeys(names)), [str(r) for r in protected.rule_roots])
    if not named or is_read_only(command):
        return None
    shown = ", ".join("inwards commands that rewrite them" if n == "inwards" else n for n in named)
    return "shell", (
        f"inwards: this command names {shown}, which hold what this session is checked "
        "against; only read-only commands (cat, head, tail, grep, rg, wc, ls, stat, file, diff, "
        "find, echo, pwd, git status/diff/log/show, without redirections or substitutions) may "
        f"name them. {ASK}"
    )


def _changes(path: Path, tool_name: str, tool_input: Mapping[str, Any], part: Any) -> bool:
    """Whether the call changes `part` of the file (applied in memory). A call that can't
    apply changes nothing: the tool fails."""
    try:
        old: str | None = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES).decode("utf-8-sig")
    except FileNotFoundError:
        old = None
    except (OSError, UnicodeDecodeError):
        return True  # a file that can't be read can't be shown to be left alone
    new = edited_text(tool_name, tool_input, old)
    if new is None:
        return False
    before, after = part(old), part(new)
    if after is _BROKEN:
        return before is not None
    return bool(before != after)


def _holds_our_hooks(path: Path) -> bool:
    document = read_settings(path)
    return bool(our_events(document)) or (
        isinstance(document, dict) and "disableAllHooks" in document
    )


def _inwards_table(text: str | None) -> Any:
    if text is None:
        return None
    try:
        document = load_toml(text)
    except (tomllib.TOMLDecodeError, TomlTooDeepError, ValueError):
        return _BROKEN if "inwards" in text else None
    tool = document.get("tool")
    return tool.get("inwards") if isinstance(tool, dict) else None


def _settings_part(text: str | None) -> Any:
    import json

    if text is None:
        return None
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return _BROKEN
    part = guarded_part(document)
    if part is None or all(value is None for value in part.values()):
        return None
    return part


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _under(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents
