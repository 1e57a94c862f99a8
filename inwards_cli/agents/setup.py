"""What `inwards init --agent claude` adds to a Claude Code settings document: the hooks that
run `inwards hook claude-code` and the `permissions.deny` rules for what the agent may not
edit. Pure: a parsed document in, a new document out; the command reads and writes the files.

A document is merged into, never replaced: the user's keys, hooks and rules stay as they are,
in their order. A hook of ours is known by its command (`settings.runs_inwards`), so a second
run adds nothing, and a run with another command (a new install, `--launcher`) updates our
hooks in place instead of adding a second set.
"""

from __future__ import annotations

import copy
import shlex
from collections.abc import Sequence
from typing import Any

from inwards_cli.agents.settings import runs_inwards

# The events the hook answers, each with the tools it needs to see (None: every occurrence).
HOOK_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("SessionStart", None),
    ("PreToolUse", "Edit|Write|MultiEdit|Bash"),
    ("PostToolUse", "Edit|Write|MultiEdit"),
    ("Stop", None),
)
HOOK_ARGUMENTS = ("hook", "claude-code")


class SettingsShapeError(ValueError):
    """A settings document inwards can't merge into without changing what the user wrote:
    `key` names the value (`hooks.PreToolUse`) that has another type than Claude Code's."""

    def __init__(self, key: str, expected: str) -> None:
        super().__init__(f"`{key}` is not {expected}")
        self.key = key


def direct_command(executable: Sequence[str]) -> str:
    """The hook's command line running the installed `inwards` by its absolute path, quoted
    for the shell Claude Code runs hooks with."""
    return shlex.join([*executable, *HOOK_ARGUMENTS])


def launcher_command(launcher: str) -> str:
    """The hook's command line through a launcher (`uv run`, `poetry run`), from the project
    directory, where the launcher finds the project's environment."""
    words = shlex.split(launcher)
    if not words:
        raise ValueError("the launcher is empty")
    return f'cd "$CLAUDE_PROJECT_DIR" && {shlex.join([*words, "inwards", *HOOK_ARGUMENTS])}'


def with_hooks(document: Any, command: str) -> dict[str, Any]:
    """`document` with a hook running `command` for every event of HOOK_EVENTS: added where
    the event has none of ours, our existing one given `command` otherwise."""
    merged = _object(copy.deepcopy(document), "the settings")
    hooks = _object(merged.setdefault("hooks", {}), "hooks")
    for event, matcher in HOOK_EVENTS:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise SettingsShapeError(f"hooks.{event}", "an array")
        ours = [
            (group, hook)
            for group in groups
            if isinstance(group, dict) and isinstance(group.get("hooks"), list)
            for hook in group["hooks"]
            if isinstance(hook, dict) and runs_inwards(hook)
        ]
        if not ours:
            groups.append(_group(matcher, command))
            continue
        for group, hook in ours:
            _retarget(hook, command)
            if all(isinstance(h, dict) and runs_inwards(h) for h in group["hooks"]):
                _set_matcher(group, matcher)  # a group of ours alone: our tools
    return merged


def with_denials(document: dict[str, Any], rules: Sequence[str]) -> dict[str, Any]:
    """`document` with each of `rules` in `permissions.deny` (appended when missing)."""
    merged = copy.deepcopy(document)
    permissions = _object(merged.setdefault("permissions", {}), "permissions")
    deny = permissions.setdefault("deny", [])
    if not isinstance(deny, list):
        raise SettingsShapeError("permissions.deny", "an array")
    deny += [rule for rule in dict.fromkeys(rules) if rule not in deny]
    return merged


def _object(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SettingsShapeError(key, "an object")
    return value


def _group(matcher: str | None, command: str) -> dict[str, Any]:
    group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    group["hooks"] = [{"type": "command", "command": command}]
    return group


def _retarget(hook: dict[str, Any], command: str) -> None:
    hook["type"] = "command"
    hook["command"] = command
    hook.pop("args", None)  # the exec form's arguments: ours are in the command now


def _set_matcher(group: dict[str, Any], matcher: str | None) -> None:
    if matcher is None:
        group.pop("matcher", None)
    else:
        group["matcher"] = matcher
