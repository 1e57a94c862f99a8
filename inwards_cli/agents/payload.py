"""One Claude Code hook payload: the JSON object Claude Code writes on the hook's standard
input, read strictly enough to act on and no further.

The fields are those of Claude Code's hooks reference (https://code.claude.com/docs/en/hooks):
every event has `session_id`, `transcript_path`, `cwd`, `permission_mode` and
`hook_event_name`; the tool events add `tool_name`, `tool_input` and `tool_use_id`
(PostToolUse also `tool_response`); Stop adds `stop_hook_active`; SessionStart `source`.
Fields the hooks don't use are ignored, so a newer Claude Code that adds some still works.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core.model.value_repr import value_repr

MAX_PAYLOAD_BYTES = 32 * 1024 * 1024
"""A payload larger than this is not read: a Write of a file this large is no source file."""

FILE_TOOLS = ("Edit", "Write", "MultiEdit")


class PayloadError(Exception):
    """A payload the hook can't act on; the message is one line."""


@attrs.frozen
class HookPayload:
    __repr__ = value_repr

    event: str
    session_id: str
    tool_name: str = ""
    tool_input: Mapping[str, Any] = attrs.field(factory=dict)
    tool_use_id: str = ""
    stop_hook_active: bool = False
    source: str = ""

    @property
    def file_path(self) -> str | None:
        """The file a file tool works on (`tool_input.file_path`), when it names one."""
        if self.tool_name not in FILE_TOOLS:
            return None
        path = self.tool_input.get("file_path")
        return path if isinstance(path, str) and path and "\0" not in path else None

    @property
    def command(self) -> str | None:
        """The shell command of a Bash tool call."""
        if self.tool_name != "Bash":
            return None
        command = self.tool_input.get("command")
        return command if isinstance(command, str) else None


def parse_payload(data: bytes) -> HookPayload:
    """The payload in `data`; `PayloadError` for one too large, not JSON, or without the
    fields every event has."""
    if len(data) > MAX_PAYLOAD_BYTES:
        raise PayloadError(
            f"the hook payload is larger than {MAX_PAYLOAD_BYTES // (1024 * 1024)} MiB; "
            "it was not read."
        )
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise PayloadError("the hook payload is not UTF-8 text.") from None
    except RecursionError:
        raise PayloadError("the hook payload is nested too deeply to read.") from None
    except ValueError as error:
        raise PayloadError(f"the hook payload is not JSON ({_first_line(error)}).") from None
    if not isinstance(document, dict):
        raise PayloadError("the hook payload is not a JSON object.")
    event = _text(document, "hook_event_name")
    session_id = _text(document, "session_id")
    tool_input = document.get("tool_input", {})
    return HookPayload(
        event=event,
        session_id=session_id,
        tool_name=_optional_text(document, "tool_name"),
        tool_input=tool_input if isinstance(tool_input, dict) else {},
        tool_use_id=_optional_text(document, "tool_use_id"),
        stop_hook_active=document.get("stop_hook_active") is True,
        source=_optional_text(document, "source"),
    )


def _text(document: Mapping[str, Any], key: str) -> str:
    value = document.get(key)
    if not isinstance(value, str) or not value:
        raise PayloadError(f"the hook payload has no {key} (a non-empty string).")
    return value


def _optional_text(document: Mapping[str, Any], key: str) -> str:
    value = document.get(key)
    return value if isinstance(value, str) else ""


def _first_line(error: ValueError) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__
