"""fapi.endpoint-metadata: a path operation whose OpenAPI entry lacks what the project
asks of every entry (a summary, a response model, an explicit status code, a description
per declared response, optionally tags and an operation id)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

import attrs

from inwards_core import CheckKind, ProjectModel, ReadScope, Violation, option, quoted
from inwards_rules_fastapi.fapi001_docs import DOCS, examples
from inwards_rules_fastapi.graph_options import GRAPH_SCOPE, GraphRuleOptions

if TYPE_CHECKING:
    from inwards_core import FunctionFact
    from inwards_rules_fastapi.graph import Graph, Operation
    from inwards_rules_fastapi.openapi_entries import Served

_SUMMARY_MODES = ("summary-or-docstring", "summary")
_METHODS = frozenset(("get", "post", "put", "delete", "patch", "options", "head", "trace"))
# Return annotations that give FastAPI no response model.
_NO_MODEL = frozenset(("None", "Any", "typing.Any", "object", "NoReturn", "Never"))
# Responses whose body FastAPI leaves undescribed even when annotated: JSON of any shape.
_JSON_RESPONSES = frozenset(("JSONResponse", "ORJSONResponse", "UJSONResponse"))
_NAME_LIMIT = 80


def _check_summary(value: str | Literal[False]) -> str | None:
    if value is False or value in _SUMMARY_MODES:
        return None
    return 'expected "summary-or-docstring", "summary" or false.'


def _check_methods(value: tuple[str, ...]) -> str | None:
    wrong = [m for m in value if m.lower() not in _METHODS]
    return f"{wrong[0]!r} is no HTTP method." if wrong else None


@attrs.frozen
class EndpointMetadataOptions(GraphRuleOptions):
    """What every operation's OpenAPI entry must carry."""

    require_summary: str | Literal[False] = option(
        "summary-or-docstring",
        check=_check_summary,
        description='"summary-or-docstring": a `summary=` or `description=` argument, or a '
        'docstring on the function; "summary": a `summary=` argument; false: not judged.',
    )
    require_response_model: bool = option(
        True,
        description="Require `response_model=` (or `response_class=`), or a return "
        "annotation FastAPI turns into a model; 204 and 304 operations are exempt.",
    )
    require_status_code: tuple[str, ...] = option(
        ("post", "delete"),
        check=_check_methods,
        description="HTTP methods whose operations must set `status_code=` explicitly.",
    )
    require_response_fields: tuple[str, ...] = option(
        ("description",),
        description="Keys every entry of a `responses=` dict on the decorator must hold.",
    )
    require_tags: bool = option(
        False,
        description="Require tags, on the decorator, its router or an `include_router` call.",
    )
    require_operation_id: bool = option(
        False,
        description="Require `operation_id=` on the decorator (or a "
        "`generate_unique_id_function=` on it, its router or its app).",
    )


def reads(options: EndpointMetadataOptions) -> ReadScope:
    """Every module may hold an app or a router: the graph reads all that import FastAPI."""
    return GRAPH_SCOPE


def check(model: ProjectModel, options: EndpointMetadataOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.graph_reading import project_graph
    from inwards_rules_fastapi.openapi_entries import endpoint_of, in_schema, served_by

    graph = project_graph(model)
    served = served_by(model)
    for operations in graph.operations.values():
        for declared in operations:
            if not options.reports_in(declared.module):
                continue
            if declared.methods is None or "WEBSOCKET" in declared.methods:
                continue
            ways = served.get(id(declared), ())
            endpoint = endpoint_of(model, declared)
            if endpoint is None or not in_schema(graph, declared, ways):
                continue
            operation = endpoint[1]
            missing = _missing(graph, operation, ways, options)
            if missing:
                yield _violation(operation, ways, missing)


def _missing(
    graph: Graph, operation: Operation, ways: tuple[Served, ...], options: EndpointMetadataOptions
) -> list[str]:
    from inwards_rules_fastapi.openapi_entries import status_code

    words = operation.keywords
    function = operation.function
    assert function is not None
    missing: list[str] = []
    if options.require_summary is not False and "summary" not in words:
        documented = "description" in words or function.documented
        if options.require_summary == "summary" or not documented:
            missing.append("summary")
    wanted = {m.upper() for m in options.require_status_code}
    if wanted & set(operation.methods or ()) and "status_code" not in words:
        missing.append("explicit status code")
    code = status_code(words.get("status_code", ""))
    # A status code the rule cannot read (a constant of the project's) may be 204: unknown.
    bodiless = code in (204, 304) or (code is None and "status_code" in words)
    if options.require_response_model and not bodiless and not _has_model(operation):
        missing.append("response model")
    missing += _responses_without(operation, options.require_response_fields)
    owner = graph.nodes.get(operation.owner)
    if options.require_tags and not _has_tags(words.get("tags")) and not _tagged(owner, ways):
        missing.append("tags")
    if options.require_operation_id and "operation_id" not in words:
        generators = [words] + ([owner.keywords] if owner is not None else [])
        generators += [way.app.keywords for way in ways]
        if not any("generate_unique_id_function" in w for w in generators):
            missing.append("operation id")
    return missing


def _has_model(operation: Operation) -> bool:
    from inwards_rules_fastapi.openapi_entries import read_dict, status_code

    words = operation.keywords
    if "response_model" in words or "response_class" in words:
        return True
    if "responses" in words:
        # A success response described in `responses=` is a model too; a dict the rule
        # cannot read whole, or a name, may hold one (fastapi-users' login responses do). A
        # call (or another expression, written "") is unknown too, but only its own part:
        # projects build their shared error responses so (`errors(404, 409)`), and the
        # model is left to the rest of the entry.
        text = words["responses"]
        entries = read_dict(text)
        if entries is None and text != "":
            return True
        if any(
            (e.key.strip('"') == "2XX" or 200 <= (status_code(e.key) or 0) < 300)
            and e.fields is not None
            and ('"model"' in e.fields or '"content"' in e.fields)
            for e in entries or ()
        ):
            return True
    function = operation.function
    assert function is not None
    if _returns_raw_responses(function.return_values):
        return True
    names = [n for n in function.returns if n not in _NO_MODEL]
    if not names:
        return False
    # `-> JSONResponse` describes no body; `-> HTMLResponse`, `-> Response` and the like
    # say the body is not JSON, which no model would describe.
    return not all(n.rpartition(".")[2] in _JSON_RESPONSES for n in names)


def _returns_raw_responses(values: tuple[str, ...]) -> bool:
    """Every `return` gives a response it builds (`HTMLResponse(...)`,
    `RedirectResponse(...)`), not JSON: a body no model describes, by the author's choice."""
    built = [v[:-2].rpartition(".")[2] for v in values if v.endswith("()")]
    return (
        bool(values)
        and len(built) == len(values)
        and all(n.endswith("Response") and n not in _JSON_RESPONSES for n in built)
    )


def _responses_without(operation: Operation, fields: tuple[str, ...]) -> list[str]:
    from inwards_rules_fastapi.openapi_entries import read_dict, status_code

    text = operation.keywords.get("responses")
    if not fields or text is None:
        return []
    entries = read_dict(text)
    if entries is None:
        return []
    # FastAPI describes the operation's own success response itself ("Successful
    # Response"), whatever `responses=` adds to it.
    success = status_code(operation.keywords.get("status_code", "200")) or 200
    judged = [e for e in entries if e.fields is not None and status_code(e.key) != success]
    found: list[str] = []
    for field in fields:
        quoted_field = f'"{field}"'
        lacking = [e.key for e in judged if e.fields is not None and quoted_field not in e.fields]
        if lacking:
            keys = ", ".join(k.strip('"') for k in lacking[:4]) + (" ..." * (len(lacking) > 4))
            found.append(f"`{field}` in responses {quoted(keys, _NAME_LIMIT)}")
    return found


def _tagged(owner: object, ways: tuple[Served, ...]) -> bool:
    from inwards_rules_fastapi.graph import Node
    from inwards_rules_fastapi.openapi_entries import keyword

    if isinstance(owner, Node) and _has_tags(owner.keywords.get("tags")):
        return True
    return any(
        _has_tags(keyword(inclusion.call, "tags")) for way in ways for inclusion in way.route.via
    )


def _has_tags(value: str | None) -> bool:
    """A `tags=` that may name a tag: not missing, `None` or an empty list."""
    return value is not None and value not in ("None", "[]")


def _where(operation: Operation, ways: tuple[Served, ...]) -> str:
    methods = "/".join(operation.methods or ())
    # Shown with an unknown prefix as `{...}`, never as the placeholder's control bytes.
    readable = {way.route.path: way.route.shown for way in ways if way.route.path is not None}
    path = next(iter(readable.values())) if len(readable) == 1 else operation.path
    return f"{methods} {quoted(path or '...', _NAME_LIMIT)}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _returns_nothing(function: FunctionFact) -> bool:
    """`-> None`, or no annotation and no `return` with a value: the body is `null`, which
    no model describes; a 204 (or a `response_class=`) says there is none."""
    if function.returns:
        return function.returns == ("None",)
    return all(value == "<none>" for value in function.return_values)


def _violation(operation: Operation, ways: tuple[Served, ...], missing: list[str]) -> Violation:
    function = operation.function
    assert function is not None
    name = quoted(function.qualname.rpartition(".")[2], _NAME_LIMIT)
    where = _where(operation, ways)
    lacking = _listed(missing)
    no_body = "response model" in missing and _returns_nothing(function)
    return Violation(
        file=operation.file,
        module=operation.module,
        span=operation.call.span,
        message=f"`{name}` ({where}) publishes an OpenAPI entry without {lacking}.",
        params={"endpoint": name, "operation": where, "missing": lacking},
        variant="no-body" if no_body else "",
    )


KIND = CheckKind(
    id="fapi.endpoint-metadata",
    summary="A path operation's OpenAPI entry lacks a summary, a response model, an "
    "explicit status code or response descriptions.",
    options_type=EndpointMetadataOptions,
    check=check,
    reads=reads,
    guidance_params={
        "endpoint": "the endpoint function's name",
        "operation": "its method and path (`POST /orders`)",
        "missing": "what its OpenAPI entry lacks, listed",
    },
    docs=DOCS,
    examples=examples,
)
