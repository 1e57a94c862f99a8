"""What a file tool call would make of a file, worked out in memory before it runs: Claude
Code's `Write` (`content`), `Edit` (`old_string`, `new_string`, `replace_all`) and
`MultiEdit` (`edits`, each an Edit applied in turn), as its hooks reference describes their
`tool_input`; and how many lines a call adds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any


def edited_text(tool_name: str, tool_input: Mapping[str, Any], old: str | None) -> str | None:
    """The file's text after the call, from its text before (`old`, None when there is no
    file); None when the call can't apply (the tool itself fails then, and nothing
    changes)."""
    if tool_name == "Write":
        content = tool_input.get("content")
        return content if isinstance(content, str) else None
    if tool_name == "Edit":
        return _apply(old, tool_input)
    if tool_name == "MultiEdit":
        edits = tool_input.get("edits")
        if not isinstance(edits, list) or not edits:
            return None
        text = old
        for edit in edits:
            if not isinstance(edit, dict):
                return None
            text = _apply(text, edit)
            if text is None:
                return None
        return text
    return None


def _apply(old: str | None, edit: Mapping[str, Any]) -> str | None:
    before, after = edit.get("old_string"), edit.get("new_string")
    if not isinstance(before, str) or not isinstance(after, str):
        return None
    if old is None or old == "":
        # An empty old_string on a missing or empty file writes new_string.
        return after if before == "" else None
    if before == "" or before not in old:
        return None
    if edit.get("replace_all") is True:
        return old.replace(before, after)
    if old.count(before) > 1:
        return None  # Claude Code refuses an ambiguous edit
    return old.replace(before, after, 1)


def lines_added(tool_name: str, tool_input: Mapping[str, Any], old: str | None = None) -> int:
    """The lines a call adds: the lines of what it writes that were not there (for a Write
    without the old text, every line it writes)."""
    if tool_name == "Write":
        content = tool_input.get("content")
        return _new_lines(old or "", content) if isinstance(content, str) else 0
    edits: list[Any] = [tool_input] if tool_name == "Edit" else []
    if tool_name == "MultiEdit" and isinstance(tool_input.get("edits"), list):
        edits = tool_input["edits"]
    added = 0
    for edit in edits:
        if isinstance(edit, dict):
            before, after = edit.get("old_string"), edit.get("new_string")
            if isinstance(before, str) and isinstance(after, str):
                added += _new_lines(before, after)
    return added


def _new_lines(before: str, after: str) -> int:
    """The non-blank lines of `after` beyond those `before` has (a multiset difference)."""
    had = Counter(line.strip() for line in before.splitlines() if line.strip())
    have = Counter(line.strip() for line in after.splitlines() if line.strip())
    return sum((have - had).values())
