"""Globs over file paths, as the `diagrams` key takes them.

A glob is a POSIX path relative to the project directory: segments separated by `/`, in
which `*` matches any run of characters and `?` one character (neither crosses a `/`),
`[seq]` one character of a set (`[!seq]` one outside it, `a-z` a range), and a segment
that is `**` alone matches any number of directories, none included. A leading `./` and
`.` segments are allowed and mean nothing; `..`, an absolute path, a backslash and an
empty segment are refused: the files a glob names stay inside the project directory.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from functools import lru_cache


def path_glob_problem(text: str) -> str | None:
    """Why `text` is not a good path glob (a message ending with a full stop), or None."""
    if not text.strip():
        return 'must name a file or a glob such as "docs/architecture.md" or "docs/**/*.md".'
    if "\0" in text:
        return "must not hold a NUL character (\\u0000); no file name can."
    if "\\" in text:
        return f'"{text}": write "/" between directories (a backslash is not read as one).'
    if text.startswith("/") or (text[1:2] == ":" and text[:1].isascii() and text[:1].isalpha()):
        return f'"{text}" must be relative to the directory of the configuration.'
    segments = text.split("/")
    if ".." in segments:
        return f'"{text}" must stay inside the directory of the configuration (no "..").'
    if any(not segment for segment in segments):
        return f'"{text}" has an empty segment (two "/" in a row, or one at the end).'
    for segment in segments:
        problem = _segment_problem(segment)
        if problem is not None:
            return f'"{text}": {problem}'
    return None


def _segment_problem(segment: str) -> str | None:
    if "**" in segment and segment != "**":
        return f'"{segment}": "**" must be a whole segment (as in "docs/**/*.md").'
    index = 0
    while index < len(segment):
        if segment[index] == "[":
            end, problem = _bracket_end(segment, index)
            if problem is not None:
                return problem
            index = end
        index += 1
    return None


def _bracket_end(segment: str, start: int) -> tuple[int, str | None]:
    """The index of the `]` closing the set opened at `start`, or why the set is bad."""
    index = start + 1
    if index < len(segment) and segment[index] == "!":
        index += 1
    first = index
    if index < len(segment) and segment[index] == "]":
        index += 1  # a `]` first in the set is one of its characters
    while index < len(segment) and segment[index] != "]":
        index += 1
    if index >= len(segment):
        return index, f'"[" at {start + 1} opens a set of characters that no "]" closes.'
    body = segment[first:index]
    for at in range(1, len(body) - 1):
        if body[at] == "-" and body[at - 1] > body[at + 1]:
            return index, f'the range "{body[at - 1]}-{body[at + 1]}" runs backwards.'
    return index, None


def _segments(text: str) -> tuple[str, ...]:
    return tuple(segment for segment in text.split("/") if segment and segment != ".")


@lru_cache(maxsize=256)
def _compiled(text: str) -> tuple[str, ...]:
    return _segments(text)


def path_matches(glob: str, path: str) -> bool:
    """Whether the POSIX `path` (relative to the project directory) matches `glob`, which
    `path_glob_problem` accepts. Case-sensitive, whatever the file system."""
    return _match(_compiled(glob), _segments(path))


def _match(pattern: Sequence[str], parts: Sequence[str]) -> bool:
    # `**` may take any number of segments: each state (pattern index, path index) is
    # tried once, so the time stays within len(pattern) * len(parts) segment tests.
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        at, on = state
        if at == len(pattern):
            if on == len(parts):
                return True
            continue
        segment = pattern[at]
        if segment == "**":
            stack.append((at + 1, on))
            if on < len(parts):
                stack.append((at, on + 1))
        elif on < len(parts) and fnmatch.fnmatchcase(parts[on], segment):
            stack.append((at + 1, on + 1))
    return False
