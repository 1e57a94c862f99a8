"""Checks of what a caller of the public API passes in.

A wrong type is caught where it enters, as a `TypeError` (a wrong value as a `ValueError`)
that names the argument and shows the value, rather than as an `AttributeError` deep in the
engine, or as a silently different run (a string iterated as a list of one-letter paths).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_SHOWN = 80  # characters of a value's repr a message shows


def shown(value: Any) -> str:
    """`repr(value)`, cut to a readable length (a caller may pass megabytes)."""
    text = repr(value)
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}… ({len(text)} characters)"


def type_name(value: Any) -> str:
    return type(value).__name__


def require_str(argument: str, value: Any, what: str = "") -> str:
    """`value` when it is a `str`; `what` says what the text is, for the message."""
    if not isinstance(value, str):
        about = f" ({what})" if what else ""
        raise TypeError(f"{argument} must be a str{about}, not {type_name(value)}: {shown(value)}")
    return value


def require_mapping(argument: str, value: Any, what: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{argument} must be a mapping of {what}, not {type_name(value)}")
    return value


def path_sequence(argument: str, value: Any) -> tuple[str, ...] | None:
    """`value` as a tuple of path strings; None stays None (the whole project). One string
    is refused: iterated, it would be a list of one-character paths."""
    if value is None:
        return None
    if isinstance(value, str | bytes):
        raise TypeError(
            f"{argument} must be a sequence of paths, not one {type_name(value)}: "
            f"pass [{shown(value)}]"
        )
    if not isinstance(value, Sequence | frozenset | set):
        raise TypeError(f"{argument} must be a sequence of paths, not {type_name(value)}")
    paths = tuple(value)
    for index, path in enumerate(paths):
        if not isinstance(path, str):
            raise TypeError(
                f"{argument}[{index}] must be a str, not {type_name(path)}: {shown(path)}"
            )
    return paths
