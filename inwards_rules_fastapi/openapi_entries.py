"""What FAPI001 and FAPI002 read of a path operation's OpenAPI entry: the `responses=`
dicts (as content facts write a dict literal, see
`inwards_core.extraction.content_parts.dict_text`), status codes written as numbers or as
`status.HTTP_404_NOT_FOUND` names, and which apps serve an operation in their schema.

Unknown means silent: a `responses=` that is no dict literal, or a dict with a spread
(`**common`), a key the facts could not keep or entries cut by the bound, is `None` here,
and the rules then judge nothing that depends on it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from inwards_core import CallFact, FunctionFact, ModuleInfo, ProjectModel
from inwards_rules_fastapi.graph import Graph, Inclusion, Node, Operation, Route
from inwards_rules_fastapi.graph_reading import project_graph

_STATUS_NAME = re.compile(r"(?:^|\.)HTTP_([1-5]\d\d)(?:_[A-Z0-9_]*)?$")
_HTTP_STATUS = re.compile(r"(?:^|\.)HTTPStatus\.([A-Z_]+)$")
_MORE = "..."


@attrs.frozen
class ResponseEntry:
    """One key of a `responses=` dict: its text (`404`, `"4XX"`, `status.HTTP_409_CONFLICT`)
    and the keys of its value when that is a dict literal (None otherwise)."""

    key: str
    fields: tuple[str, ...] | None


def read_dict(text: str) -> tuple[ResponseEntry, ...] | None:
    """The entries of a dict literal's text, or None when the text is no dict literal or
    does not hold every entry (a spread, an unreadable key, entries cut)."""
    if len(text) < 2 or text[0] != "{" or text[-1] != "}":
        return None
    entries: list[ResponseEntry] = []
    for part in _split(text[1:-1]):
        key, colon, inner = part.partition(":")
        if key == _MORE or key == "?" or key.startswith("**"):
            return None
        if not colon:
            entries.append(ResponseEntry(key, None))
            continue
        fields = tuple(_split(inner[1:-1])) if inner.startswith("{") else ()
        entries.append(ResponseEntry(key, fields))
    return tuple(entries)


def _split(body: str) -> list[str]:
    """`body` split at the commas outside braces ("" gives no part)."""
    parts: list[str] = []
    depth = 0
    start = 0
    for index, char in enumerate(body):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:index])
            start = index + 1
    if body:
        parts.append(body[start:])
    return parts


def status_code(text: str) -> int | None:
    """The HTTP status code a keyword or key text stands for: `404`, `"404"`,
    `status.HTTP_404_NOT_FOUND` (any receiver: fastapi's and starlette's `status` modules
    name them alike), `HTTPStatus.NOT_FOUND`; None for anything else."""
    if text.startswith('"') and text.endswith('"'):
        text = text[1:-1]
    if text.isdigit() and len(text) == 3:
        return int(text)
    found = _STATUS_NAME.search(text)
    if found is not None:
        return int(found.group(1))
    named = _HTTP_STATUS.search(text)
    if named is not None:
        from http import HTTPStatus

        member = HTTPStatus.__members__.get(named.group(1))
        return None if member is None else int(member)
    return None


def keyword(call: CallFact, name: str) -> str | None:
    """The value text of keyword `name` of `call`, None without it."""
    for written, value in zip(call.keywords, call.keyword_values, strict=False):
        if written == name:
            return value
    return None


@attrs.frozen
class Served:
    """An app that serves the operation, and the route that brings it there."""

    app: Node
    route: Route


def served_by(model: ProjectModel) -> Mapping[int, tuple[Served, ...]]:
    """For each operation (by `id`, the graph living as long as the run), the apps that
    serve it, once per route."""
    return model.shared(_served)


def _served(model: ProjectModel) -> dict[int, tuple[Served, ...]]:
    graph = project_graph(model)
    found: dict[int, list[Served]] = {}
    for node in graph.nodes.values():
        if node.kind != "app":
            continue
        for route in graph.routes(node.name):
            found.setdefault(id(route.operation), []).append(Served(node, route))
    return {key: tuple(value) for key, value in found.items()}


def _hidden(keywords: Mapping[str, str]) -> bool:
    return keywords.get("include_in_schema") == "False"


def _inclusion_hidden(graph: Graph, inclusion: Inclusion) -> bool:
    child = graph.nodes.get(inclusion.child or "")
    return keyword(inclusion.call, "include_in_schema") == "False" or (
        child is not None and _hidden(child.keywords)
    )


def in_schema(graph: Graph, operation: Operation, served: tuple[Served, ...]) -> bool:
    """Whether the operation can appear in an OpenAPI schema: not hidden by
    `include_in_schema=False` (its own, its router's, an inclusion's) on every way an app
    serves it, and served by an app whose `openapi_url` is not None. An operation no app is
    known to serve counts as in a schema unless its own app or router hides it."""
    if _hidden(operation.keywords) or "**" in operation.keywords:
        return False
    owner = graph.nodes.get(operation.owner)
    if owner is not None and _hidden(owner.keywords):
        return False
    if not served:
        if owner is not None and _hidden_above(graph, owner.name, frozenset()):
            return False
        return owner is None or owner.keywords.get("openapi_url") != "None"
    return any(
        way.app.keywords.get("openapi_url") != "None"
        and not any(_inclusion_hidden(graph, inclusion) for inclusion in way.route.via)
        for way in served
    )


def _hidden_above(graph: Graph, name: str, seen: frozenset[str]) -> bool:
    """Every `include_router` of router `name` the graph sees hides it: the call says
    `include_in_schema=False`, or the receiver is a router that hides its routes itself or
    is hidden the same way above it (FastAPI passes the flag down to every included route).
    False when nothing includes it."""
    inclusions = [i for i in graph.inclusions if i.child == name and i.how == "include_router"]
    return bool(inclusions) and all(
        _inclusion_hidden(graph, inclusion)
        or _router_hidden(graph, inclusion.parent, seen | {name})
        for inclusion in inclusions
    )


def _router_hidden(graph: Graph, name: str | None, seen: frozenset[str]) -> bool:
    parent = graph.nodes.get(name or "")
    if parent is None or parent.kind != "router" or parent.name in seen:
        return False
    return _hidden(parent.keywords) or _hidden_above(graph, parent.name, seen)


def endpoint_of(model: ProjectModel, operation: Operation) -> tuple[ModuleInfo, Operation] | None:
    """The operation's endpoint function with its module: the decorated function, or the
    project's top-level function an `add_api_route(path, endpoint)` names (the operation
    returned with it as `function`); None when it is unknown."""
    info = model.index.module(operation.module)
    if info is None:
        return None
    if operation.function is not None:
        return info, operation
    call = operation.call
    written = call.positional[1] if len(call.positional) > 1 else ""
    written = written or operation.keywords.get("endpoint", "")
    if not written or written.startswith('"') or "(" in written:
        return None
    from inwards_rules_fastapi.function_sites import qualify, top_function

    found = top_function(model, qualify(model, info, written))
    if found is None:
        return None
    return found[0], _with_function(operation, found[1])


def _with_function(operation: Operation, function: FunctionFact) -> Operation:
    return attrs.evolve(operation, function=function)
