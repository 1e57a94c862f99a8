"""Dotted keys as text: `tool.inwards.layers[2].modules[0]` to segments and back, and the
first overlong dotted key of a TOML text that no parser has read yet (tomllib takes time
quadratic in a dotted key's parts)."""

from __future__ import annotations

import functools
import re

Segment = str | int
Path = tuple[Segment, ...]

BARE_KEY_TEXT = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
# Runs stepped over at once (a key may be megabytes long).
BARE_RUN = re.compile(r"[A-Za-z0-9_-]*")
_SEGMENT_RUN = re.compile(r"[^.\[]*")


def parse_dotted_key(key: str) -> Path:
    """`a."b.c"[2][0].d` -> ("a", "b.c", 2, 0, "d"). Lenient: odd text gives odd segments."""
    segments: list[Segment] = []
    i, n = 0, len(key)
    while i < n:
        ch = key[i]
        if ch == ".":
            i += 1
        elif ch == "[":
            end = key.find("]", i)
            end = n if end < 0 else end
            inner = key[i + 1 : end].strip()
            segments.append(int(inner) if inner.isdigit() else inner)
            i = end + 1
        elif ch in "\"'":
            i += 1
            chars: list[str] = []
            while i < n and key[i] != ch:
                if ch == '"' and key[i] == "\\" and i + 1 < n:
                    i += 1
                chars.append(key[i])
                i += 1
            segments.append("".join(chars))
            i += 1
        else:
            start = i
            i = _SEGMENT_RUN.match(key, i).end()  # type: ignore[union-attr]
            segments.append(key[start:i])
    return tuple(segments)


def key_segment(name: str) -> str:
    """`name` as one segment of a dotted key: bare when TOML allows it, else quoted."""
    if BARE_RUN.fullmatch(name) and name:
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_key(path: Path) -> str:
    """("a", "b.c", 2) -> `a."b.c"[2]`: the inverse of `parse_dotted_key`."""
    out = ""
    for segment in path:
        if isinstance(segment, int):
            out += f"[{segment}]"
        else:
            out += ("." if out else "") + key_segment(segment)
    return out


# TOML text outside keys, for finding dotted keys before any parser sees the text:
# strings (multi-line ones first) and comments are skipped whole, possessively.
_ML_BASIC = r'"""(?:[^"\\]++|\\.|"(?!""))*+"{3,5}'
_ML_LITERAL = r"'''(?:[^']++|'(?!''))*+'{3,5}"
_BASIC = r'"(?:[^"\\\n]++|\\.)*+"'
_LITERAL = r"'[^'\n]*+'"
_DOT_PART = r"[ \t]*+\.[ \t]*+(?:[A-Za-z0-9_-]++|" + _BASIC + "|" + _LITERAL + ")"


@functools.cache
def _overlong_key_pattern(limit: int) -> re.Pattern[str]:
    """Matches up to the first dot of the first dotted key of more than `limit` parts:
    everything before it is consumed once (each dotted run as a whole, after looking at
    most `limit` parts ahead), so the search is linear in the text."""
    long_run = "(?:" + _DOT_PART + "){" + str(limit) + "}"
    skipped = (
        "(?:" + "|".join((_ML_BASIC, _ML_LITERAL, _BASIC, _LITERAL)) + r"|#[^\n]*+"
        r"|[^\"'#.]++|(?!" + long_run + ")(?:" + _DOT_PART + r")++|(?!" + long_run + r")\."
        r"|[\"']"
        ")*+"
    )
    return re.compile(skipped + "(?=" + long_run + ")", re.S)


_RUN_PART = re.compile(_DOT_PART, re.S)


def overlong_dotted_key(text: str, limit: int) -> tuple[int, int, int, str] | None:
    """The first dotted key (or table header) of more than `limit` parts, as its line,
    column, number of parts and text; None when there is none. Meant for text no parser
    has read yet (tomllib takes time quadratic in a dotted key's parts), so it reads no
    more of TOML than strings, comments and dots."""
    if text.count(".") < limit:
        return None  # too few dots anywhere (the usual case: no pattern to compile)
    found = _overlong_key_pattern(limit).match(text)
    if found is None:
        return None
    dot = found.end()
    line_start = text.rfind("\n", 0, dot) + 1
    start = dot
    while start > line_start and text[start - 1] in " \t":
        start -= 1
    if start > line_start and text[start - 1] in "\"'":
        start = max(text.rfind(text[start - 1], line_start, start - 1), line_start)
    else:
        before = text[line_start:start]
        start -= len(before) - len(before.rstrip(BARE_KEY_TEXT))
    parts = 1
    end = dot
    for part in _RUN_PART.finditer(text, dot):
        if part.start() != end:
            break
        parts += 1
        end = part.end()
    line = text.count("\n", 0, start) + 1
    return line, start - line_start + 1, parts, text[start:end]
