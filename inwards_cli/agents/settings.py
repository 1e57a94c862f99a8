"""The Claude Code settings files that hold the hooks, and whether inwards' hooks are in them.

Claude Code reads hooks from the user's `~/.claude/settings.json` and the project's
`.claude/settings.json` and `.claude/settings.local.json` (and from managed settings, which
an agent can't write). `"disableAllHooks": true` in any of them turns every hook off. The
Stop gate compares what these files say with what they said when the session started, and
the PreToolUse guard refuses an edit that would change the `hooks` or `disableAllHooks` of
one of them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from inwards_cli.adapters.reading import read_regular_file

MAX_SETTINGS_BYTES = 10 * 1024 * 1024
PROJECT_SETTINGS = (Path(".claude") / "settings.json", Path(".claude") / "settings.local.json")
GUARDED_KEYS = ("hooks", "disableAllHooks")
# A hook command that runs `inwards hook claude-code` (a shell command or the exec form).
_OUR_COMMAND = re.compile(r"inwards(?:_cli)?\b.*\bhook\b.*\bclaude-code\b", re.DOTALL)


def settings_files(claude_dir: Path, environ: Mapping[str, str]) -> list[Path]:
    """The settings files whose hooks Claude Code runs in this project."""
    found = [claude_dir / relative for relative in PROJECT_SETTINGS]
    home = environ.get("HOME", "")
    if home and os.path.isabs(home):
        found.append(Path(home) / ".claude" / "settings.json")
    return found


def read_settings(path: Path) -> Any:
    """The JSON document in a settings file; None when there is none or it can't be read."""
    with contextlib.suppress(OSError, UnicodeDecodeError, ValueError, RecursionError):
        data = read_regular_file(path, max_bytes=MAX_SETTINGS_BYTES)
        return json.loads(data.decode("utf-8-sig"))
    return None


def guarded_part(document: Any) -> Any:
    """What of a settings document the agent may not change: its hooks and the switch that
    turns them all off (None when the document is no object)."""
    if not isinstance(document, dict):
        return None
    return {key: document.get(key) for key in GUARDED_KEYS}


def our_events(document: Any) -> set[str]:
    """The hook events for which the document runs `inwards hook claude-code`."""
    if not isinstance(document, dict) or not isinstance(document.get("hooks"), dict):
        return set()
    found: set[str] = set()
    for event, groups in document["hooks"].items():
        if isinstance(event, str) and any(_runs_us(group) for group in _items(groups)):
            found.add(event)
    return found


def hook_state(files: Iterable[Path]) -> tuple[tuple[str, ...], bool]:
    """The events some settings file runs inwards for, and whether one turns hooks off."""
    events: set[str] = set()
    disabled = False
    for path in files:
        document = read_settings(path)
        events |= our_events(document)
        disabled |= isinstance(document, dict) and document.get("disableAllHooks") is True
    return tuple(sorted(events)), disabled


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _runs_us(group: Any) -> bool:
    if not isinstance(group, dict):
        return False
    return any(isinstance(hook, dict) and runs_inwards(hook) for hook in _items(group.get("hooks")))


def runs_inwards(hook: dict[str, Any]) -> bool:
    """Whether one hook of a settings file runs `inwards hook claude-code` (a shell command
    line, or the exec form's command and `args`)."""
    words = [hook.get("command"), *_items(hook.get("args"))]
    text = " ".join(word for word in words if isinstance(word, str))
    return bool(_OUR_COMMAND.search(text))
