"""The checks of one string entry of `[tool.inwards]`: each returns the problem's message,
or None when the entry is good. `ProblemCollector.string_list` runs them over an array."""

from __future__ import annotations

import re

from inwards_core.config.patterns import parse_module_pattern

_GENERATED_SEGMENT = re.compile(r"^[\w*?]+$")


def dotted_name_problem(text: str) -> str | None:
    """Why `text` is not a dotted Python name, or None when it is one."""
    if not text:
        return "must not be empty"
    for segment in text.split("."):
        if not segment:
            return f'"{text}" has an empty segment'
        if not segment.isidentifier():
            return f'"{text}": "{segment}" is not a valid module name segment'
    return None


def any_string(text: str) -> str | None:
    return None


def dotted_entry(text: str) -> str | None:
    problem = dotted_name_problem(text)
    return f'{problem}; write a dotted package name such as "google.cloud".' if problem else None


def ignore_entry(text: str) -> str | None:
    name = text[1:] if text.startswith("/") else text
    problem = dotted_name_problem(name)
    if problem:
        return (
            f'{problem}; write a module name such as "tests" or "shop.migrations" '
            '(a leading "/" anchors it to the top level).'
        )
    return None


def generated_entry(text: str) -> str | None:
    if not text:
        return "must not be empty."
    if "[" in text or "]" in text:
        return f'"{text}" has brackets; only "*" and "?" wildcards are allowed.'
    segments = text.split(".")
    if any(not segment for segment in segments):
        return f'"{text}" has an empty segment.'
    for segment in segments:
        if not _GENERATED_SEGMENT.match(segment) or segment[0].isdigit():
            return f'"{text}": "{segment}" is not a module name (with "*" or "?" wildcards).'
    if all(set(segment) <= {"*", "?"} for segment in segments):
        return f'"{text}" is only wildcards, so it would match every module.'
    return None


def library_entry(text: str) -> str | None:
    problem = dotted_name_problem(text)
    if problem is None:
        return None
    return (
        f'"{text}" is not an import name: write the name you import, such as "sqlalchemy" or '
        '"http.client"; globs and distribution names like "python-dateutil" are not accepted.'
    )


def module_entry(text: str) -> str | None:
    try:
        parse_module_pattern(text)
    except ValueError as error:
        message = str(error)
        return message if message.endswith(".") else message + "."
    return None
