"""The line of source a finding points at, kept for the text format's frame under it.

The engine cuts each line from the bytes it already read for the check (no file is read
twice for this) and keeps a window of it around the finding's column: a minified file can
hold a line of megabytes, and a frame shows a screen's width of it at most.
"""

from __future__ import annotations

import attrs

# Characters kept before a finding's column, and in all: more than a frame shows once
# escaped and capped (`inwards_core.reporting.frames`), so the cut is never what shows.
LEAD = 60
WINDOW = 240


@attrs.frozen
class SourceLine:
    """Part of line `line` of `file`, around column `column` (1-based, as `Span`):
    `text` is the line from character `offset` (0-based) on, and `length` the whole line's
    length in characters, so a reader knows what was cut at either end."""

    file: str
    line: int
    column: int
    text: str
    offset: int = 0
    length: int = 0

    @property
    def cut_before(self) -> bool:
        return self.offset > 0

    @property
    def cut_after(self) -> bool:
        return self.offset + len(self.text) < self.length


def source_line(file: str, line: int, column: int, text: str) -> SourceLine:
    """The window of `text` (one whole line, without its line break) that a frame under a
    finding at `column` shows."""
    if len(text) <= WINDOW:
        return SourceLine(file, line, column, text, 0, len(text))
    start = max(0, min(column - 1 - LEAD, len(text) - WINDOW))
    return SourceLine(file, line, column, text[start : start + WINDOW], start, len(text))
