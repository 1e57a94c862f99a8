"""Whether one route path answers every request another would, segment by segment, as
Starlette matches paths (FAPI005).

A parameter segment is `{name}` or `{name:convertor}`; the convertors are Starlette's:
`str` (any non-empty segment, the default), `int` (digits), `float` (digits with an
optional fraction), `uuid`, and `path` (the rest of the path, slashes and nothing
included). Parameter names never matter. A segment mixing text and a parameter
(`{name}.json`) covers only the same segment.
"""

from __future__ import annotations

import re

_UNKNOWN = "\x00"  # graph.UNKNOWN_PREFIX: a prefix that is not a literal

_PARAM = re.compile(r"^\{([A-Za-z_]\w*)(?::(\w+))?\}$")
_ANY_PARAM = re.compile(r"\{([A-Za-z_]\w*)(?::(\w+))?\}")
_SHAPES = {
    "int": re.compile(r"^[0-9]+$"),
    "float": re.compile(r"^[0-9]+(\.[0-9]+)?$"),
    "uuid": re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"),
}
# Which convertor's values another convertor's segment always accepts.
_COVERS = {
    "str": {"str", "int", "float", "uuid"},
    "int": {"int"},
    "float": {"float", "int"},
    "uuid": {"uuid"},
}


def _convertor(segment: str) -> str | None:
    found = _PARAM.match(segment)
    if found is None:
        return None
    return found.group(2) or "str"


def normalised(path: str) -> str:
    """The path with every parameter name replaced, so that `/u/{a}` and `/u/{b}` are
    the same path."""
    return _ANY_PARAM.sub(lambda m: "{" + (m.group(2) or "str") + "}", path)


def _covers_segment(first: str, second: str) -> bool:
    if normalised(first) == normalised(second):
        return True
    if _UNKNOWN in first or _UNKNOWN in second:
        return False  # an unknown prefix matches only itself
    convertor = _convertor(first)
    if convertor is None or convertor == "path":
        return False  # a literal (or a mixed segment) covers only itself
    other = _convertor(second)
    if other is not None:
        return other in _COVERS.get(convertor, set())
    if "{" in second or not second:
        return False
    shape = _SHAPES.get(convertor)
    return shape is None or shape.match(second) is not None


def covers(first: str, second: str) -> bool:
    """Does the path `first` match every request path `second` matches?"""
    left = first.split("/")
    right = second.split("/")
    for index, segment in enumerate(left):
        if _convertor(segment) == "path" and index == len(left) - 1:
            return len(right) > index  # the rest of the path, empty or not
        if index >= len(right):
            return False
        if _convertor(right[index]) == "path":
            return False  # the second takes any number of segments; the first does not
        if not _covers_segment(segment, right[index]):
            return False
    return len(left) == len(right)


def known(path: str) -> bool:
    """A path whose parameters this module can judge (no unknown convertor, balanced
    braces)."""
    if path.count("{") != path.count("}"):
        return False
    for segment in path.split("/"):
        convertor = _convertor(segment)
        if convertor is not None and convertor not in (*_COVERS, "path"):
            return False
    return True
