"""The source frame under a finding in the text format: the line it points at, and carets
under what it names (the imported name, the module, the comment).

The line is project text: every character that would act on a terminal is shown as an
escape (`escaping.printable`), a tab as spaces to the next stop of four, and the line is cut
to `MAX_WIDTH` columns around the finding with an ellipsis where it was cut, so a minified
file can't flood the report. The carets count columns as a terminal shows them: an escape
as its characters, a wide (East Asian) character as two, a combining mark as none.
"""

from __future__ import annotations

import unicodedata

from inwards_core.model.findings import Span
from inwards_core.model.source_lines import SourceLine
from inwards_core.reporting.escaping import printable

# Columns of a frame's line at most, the ellipses included.
MAX_WIDTH = 120
# Columns kept before the finding when the line is cut.
LEAD = 30
_TAB_STOP = 4
_ELLIPSIS = "…"


def _width(piece: str) -> int:
    if piece.isascii():
        return len(piece)
    total = 0
    for character in piece:
        if unicodedata.combining(character) or unicodedata.category(character) == "Cf":
            continue
        total += 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1
    return total


def _pieces(text: str) -> list[str]:
    """What each character of `text` shows as."""
    pieces: list[str] = []
    column = 0
    for character in text:
        if character == "\t":
            piece = " " * (_TAB_STOP - column % _TAB_STOP)
        else:
            piece = printable(character)
        pieces.append(piece)
        column += _width(piece)
    return pieces


def frame_parts(source: SourceLine, span: Span) -> tuple[str, int, int] | None:
    """The line as shown, and where its carets start and how many there are (in columns);
    None when the span doesn't fall in the line kept."""
    start = span.column - 1 - source.offset
    if start < 0 or start > len(source.text):
        return None
    end = span.end_column - 1 - source.offset if span.end_line == span.line else len(source.text)
    end = min(max(end, start + 1), len(source.text))
    if source.text.isascii() and source.text.isprintable():
        return _plain_parts(source, start, end)
    return _drawn_parts(source, start, end)


def _drawn_parts(source: SourceLine, start: int, end: int) -> tuple[str, int, int]:
    """`frame_parts` for any line: each character drawn as its piece, in columns."""
    pieces = _pieces(source.text)
    widths = [_width(piece) for piece in pieces]
    # The first column shown: the line cut LEAD columns before the finding when it's too wide.
    before = sum(widths[:start])
    first = 0
    if sum(widths) + (1 if source.cut_before else 0) > MAX_WIDTH or source.cut_after:
        shown = 0
        while first < start and before - shown > LEAD:
            shown += widths[first]
            first += 1
    cut_before = source.cut_before or first > 0
    lead = _ELLIPSIS if cut_before else ""
    room = MAX_WIDTH - len(lead) - 1  # one column for a closing ellipsis
    line: list[str] = [lead]
    used = 0
    last = first
    while last < len(pieces) and used + widths[last] <= room:
        line.append(pieces[last])
        used += widths[last]
        last += 1
    if last < len(pieces) or source.cut_after:
        line.append(_ELLIPSIS)
    caret_at = len(lead) + sum(widths[first:start])
    visible_end = min(end, last)
    caret_width = max(1, sum(widths[start:visible_end]))
    return "".join(line).rstrip(), caret_at, caret_width


def _plain_parts(source: SourceLine, start: int, end: int) -> tuple[str, int, int]:
    """`frame_parts` for a line of printable ASCII (no tab, nothing to escape), where each
    character is one column: the same arithmetic without a piece per character (a report
    of many findings spent most of its time there)."""
    text = source.text
    first = 0
    if len(text) + (1 if source.cut_before else 0) > MAX_WIDTH or source.cut_after:
        first = max(0, start - LEAD)
    lead = _ELLIPSIS if source.cut_before or first > 0 else ""
    room = MAX_WIDTH - len(lead) - 1  # one column for a closing ellipsis
    last = min(len(text), first + room)
    tail = _ELLIPSIS if last < len(text) or source.cut_after else ""
    caret_width = max(1, min(end, last) - start)
    return (lead + text[first:last] + tail).rstrip(), len(lead) + start - first, caret_width


def frame(
    source: SourceLine, span: Span, *, paint_gutter: str = "", paint_carets: str = ""
) -> list[str]:
    """Two lines: the numbered source line and the carets under the span; [] when the span
    is outside the line kept. The paint strings wrap the gutter and the carets (colour)."""
    parts = frame_parts(source, span)
    if parts is None:
        return []
    text, caret_at, caret_width = parts
    number = str(source.line)
    reset = "\x1b[0m"

    def paint(value: str, style: str) -> str:
        return f"{style}{value}{reset}" if style else value

    gutter = paint(f"{number} |", paint_gutter)
    empty = paint(f"{' ' * len(number)} |", paint_gutter)
    carets = paint("^" * caret_width, paint_carets)
    return [f"  {gutter} {text}".rstrip(), f"  {empty} {' ' * caret_at}{carets}"]
