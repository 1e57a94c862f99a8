"""fapi.undocumented-error-response: an error status code a path operation can produce
(its own raises and error responses, its helpers' and dependencies') that no `responses=`
on its way into the schema declares."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs

from inwards_core import CheckKind, ProjectModel, ReadScope, Violation, option, quoted
from inwards_rules_fastapi.fapi002_docs import DOCS, examples
from inwards_rules_fastapi.graph_options import GRAPH_SCOPE, GraphRuleOptions

if TYPE_CHECKING:
    from inwards_core import ModuleInfo
    from inwards_rules_fastapi.error_codes import Origin
    from inwards_rules_fastapi.graph import Graph, Inclusion, Node, Operation
    from inwards_rules_fastapi.openapi_entries import Served

_CODE_RANGES = {"4xx": (400, 500), "4xx-5xx": (400, 600)}
_NAME_LIMIT = 80
_SHOWN = 6  # codes named in one message


def _check_codes(value: str) -> str | None:
    return None if value in _CODE_RANGES else 'expected "4xx" or "4xx-5xx".'


def _check_depth(value: int) -> str | None:
    return None if 0 <= value <= 8 else "expected a number from 0 to 8."


def _check_422(value: str) -> str | None:
    return None if value in ("ignore", "report") else 'expected "ignore" or "report".'


@attrs.frozen
class UndocumentedErrorResponseOptions(GraphRuleOptions):
    """Which codes count, and how far the rule follows calls."""

    codes: str = option(
        "4xx",
        check=_check_codes,
        description='Which codes are judged: "4xx" (client errors) or "4xx-5xx" (server '
        "errors too).",
    )
    max_depth: int = option(
        2,
        check=_check_depth,
        description="How many calls away from the endpoint the rule looks for raises: 0 "
        "the endpoint only, 1 its helpers and dependencies, 2 theirs, ... (at most 8).",
    )
    report_direct_raises: bool = option(
        True,
        description="Report codes the endpoint raises or returns itself; false: only those "
        "of its helpers and dependencies.",
    )
    handled_counts_as_documented: bool = option(
        False,
        description="Codes the app's exception handlers give the project's exceptions count "
        "as declared (for a project that documents them with the handler).",
    )
    explicit_422: str = option(
        "ignore",
        check=_check_422,
        description='"ignore": 422, which FastAPI documents for request validation, is never '
        'reported; "report": it must be declared like any other code.',
    )


def reads(options: UndocumentedErrorResponseOptions) -> ReadScope:
    """Every module may hold an app or a router: the graph reads all that import FastAPI;
    helpers in other modules are read on demand."""
    return GRAPH_SCOPE


def check(model: ProjectModel, options: UndocumentedErrorResponseOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.error_codes import produced_codes
    from inwards_rules_fastapi.graph_reading import project_graph
    from inwards_rules_fastapi.openapi_entries import endpoint_of, in_schema, served_by

    graph = project_graph(model)
    served = served_by(model)
    low, high = _CODE_RANGES[options.codes]
    for operations in graph.operations.values():
        for written in operations:
            if not options.reports_in(written.module):
                continue
            if written.methods is None or "WEBSOCKET" in written.methods:
                continue
            ways = served.get(id(written), ())
            if not in_schema(graph, written, ways) or "openapi_extra" in written.keywords:
                continue
            endpoint = endpoint_of(model, written)
            declared = _declared(graph, written, ways)
            if declared is None or endpoint is None:
                continue
            info, operation = endpoint
            function = operation.function
            assert function is not None
            handled = _handled(model, graph, operation, ways)
            shared = _shared_dependencies(model, graph, operation, ways)
            produced = produced_codes(model, info, function, options.max_depth, handled, shared)
            remapped = _handles_http_exceptions(model, graph, operation, ways)
            missing = {
                code: origin
                for code, origin in sorted(produced.items())
                if low <= code < high
                and (origin.returned or not remapped)
                and not (origin.handled and options.handled_counts_as_documented)
                and (options.report_direct_raises or origin.via)
                and (code != 422 or options.explicit_422 == "report")
                and not _covers(declared, code)
            }
            if missing:
                yield _violation(operation, ways, missing)


def _shared_dependencies(
    model: ProjectModel, graph: Graph, operation: Operation, ways: tuple[Served, ...]
) -> list[tuple[ModuleInfo, str]]:
    """The `dependencies=` of the apps, routers and inclusions on the operation's ways
    (`_way_parts`): (the module each is written in, the dependency)."""
    from inwards_rules_fastapi.error_codes import listed_dependencies
    from inwards_rules_fastapi.openapi_entries import keyword

    nodes, inclusions = _way_parts(graph, operation, ways)
    written = [(n.module, n.keywords.get("dependencies")) for n in nodes]
    written += [(i.module, keyword(i.call, "dependencies")) for i in inclusions]
    found: list[tuple[ModuleInfo, str]] = []
    for module, text in written:
        info = model.index.module(module)
        if info is not None and text:
            found += [(info, name) for name in listed_dependencies(model, info, text)]
    return list(dict.fromkeys(found))


def _handled(
    model: ProjectModel, graph: Graph, operation: Operation, ways: tuple[Served, ...]
) -> dict[str, tuple[int, ...]]:
    """The exceptions the handlers of the apps serving the operation map to codes."""
    from inwards_rules_fastapi.exception_handlers import handled_codes

    apps = {way.app.name: way.app for way in ways}
    owner = graph.nodes.get(operation.owner)
    if owner is not None and owner.kind == "app":
        apps.setdefault(owner.name, owner)
    found: dict[str, tuple[int, ...]] = {}
    for name in sorted(apps):
        for exception, codes in handled_codes(model, apps[name]).items():
            found.setdefault(exception, codes)
    return found


def _handles_http_exceptions(
    model: ProjectModel, graph: Graph, operation: Operation, ways: tuple[Served, ...]
) -> bool:
    """An app serving the operation has its own handler for `HTTPException` that may answer
    with another code than the exception's (see `exception_handlers.keeps_http_codes`):
    what a raise responds with is that handler's choice, unknown here."""
    from inwards_rules_fastapi.exception_handlers import keeps_http_codes

    apps = {way.app.name: way.app for way in ways}
    owner = graph.nodes.get(operation.owner)
    if owner is not None:
        apps.setdefault(owner.name, owner)
    return any(
        name.rpartition(".")[2].endswith("HTTPException") and not keeps_http_codes(model, node)
        for app, node in apps.items()
        for name in graph.handlers.get(app, ())
    )


def _way_parts(
    graph: Graph, operation: Operation, ways: tuple[Served, ...]
) -> tuple[list[Node], list[Inclusion]]:
    """The apps and routers, and the inclusions, on the operation's ways into a schema: its
    router, and each app serving it with the inclusions and routers on the way; for an
    operation no app is known to serve, the inclusions of its router the graph sees (their
    receiver may be unknown: a router passed to a function)."""
    nodes = [graph.nodes.get(operation.owner)]
    inclusions: list[Inclusion] = []
    for way in ways:
        nodes.append(way.app)
        inclusions += way.route.via
    if not ways:
        inclusions += [i for i in graph.inclusions if i.child == operation.owner]
    nodes += [graph.nodes.get(inclusion.child or "") for inclusion in inclusions]
    known = {node.name: node for node in nodes if node is not None}
    return list(known.values()), list(dict.fromkeys(inclusions))


def _inclusions_above(graph: Graph, name: str) -> list[Inclusion]:
    """The inclusions of router `name`, then those of each router that includes it, and
    so on up (each router once)."""
    found: list[Inclusion] = []
    pending = [name]
    seen = {name}
    while pending:
        child = pending.pop(0)
        for inclusion in graph.inclusions:
            if inclusion.child != child:
                continue
            found.append(inclusion)
            parent = inclusion.parent
            if parent is not None and parent not in seen:
                seen.add(parent)
                pending.append(parent)
    return found


def _declared(graph: Graph, operation: Operation, ways: tuple[Served, ...]) -> set[str] | None:
    """The response keys declared on the operation's ways into the schema (its decorator,
    then `_way_parts`), normalised: "404", "4XX", "DEFAULT"; None when one `responses=`
    cannot be read."""
    from inwards_rules_fastapi.openapi_entries import keyword

    nodes, inclusions = _way_parts(graph, operation, ways)
    if not ways:
        # Higher up than its router's own inclusions: the routers that include those
        # routers document what their routes may answer too (their `dependencies=` are
        # not followed: what the operation raises is read no further up).
        above = _inclusions_above(graph, operation.owner)
        inclusions += [i for i in above if i not in inclusions]
        nodes += [n for i in above if (n := graph.nodes.get(i.parent or "")) is not None]
    texts = [operation.keywords.get("responses")]
    texts += [node.keywords.get("responses") for node in nodes]
    texts += [keyword(inclusion.call, "responses") for inclusion in inclusions]
    declared: set[str] = set()
    for text in texts:
        if text is None:
            continue
        keys = _keys(text)
        if keys is None:
            return None
        declared |= keys
    return declared


def _keys(text: str) -> set[str] | None:
    from inwards_rules_fastapi.openapi_entries import read_dict, status_code

    entries = read_dict(text)
    if entries is None:
        return None
    keys: set[str] = set()
    for entry in entries:
        code = status_code(entry.key)
        if code is not None:
            keys.add(str(code))
        elif entry.key.startswith('"'):
            keys.add(entry.key.strip('"').upper())
        else:
            return None  # a name the rule cannot read as a code
    return keys


def _covers(declared: set[str], code: int) -> bool:
    return bool({str(code), f"{code // 100}XX", "DEFAULT"} & declared)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _origin(origin: Origin) -> str:
    if origin.handled:
        exception = quoted(origin.handled.rpartition(".")[2], _NAME_LIMIT)
        through = f" through `{quoted(origin.via, _NAME_LIMIT)}`" if origin.via else ""
        return f"`{exception}` raised{through}, mapped by an exception handler"
    if origin.via:
        return f"through `{quoted(origin.via, _NAME_LIMIT)}`"
    return "returned here" if origin.returned else "raised here"


def _violation(
    operation: Operation, ways: tuple[Served, ...], missing: dict[int, Origin]
) -> Violation:
    function = operation.function
    assert function is not None
    name = quoted(function.qualname.rpartition(".")[2], _NAME_LIMIT)
    methods = "/".join(operation.methods or ())
    # Shown with an unknown prefix as `{...}`, never as the placeholder's control bytes.
    readable = {way.route.path: way.route.shown for way in ways if way.route.path is not None}
    path = next(iter(readable.values())) if len(readable) == 1 else operation.path
    where = f"{methods} {quoted(path or '...', _NAME_LIMIT)}"
    shown = list(missing.items())[:_SHOWN]
    codes = _listed([f"{code} ({_origin(origin)})" for code, origin in shown])
    more = f" and {len(missing) - _SHOWN} more" if len(missing) > _SHOWN else ""
    bare = _listed([str(code) for code in missing])
    return Violation(
        file=operation.file,
        module=operation.module,
        span=operation.call.span,
        message=f"`{name}` ({where}) can respond {codes}{more}, which no `responses=` "
        "on its decorator, router or app declares.",
        params={"endpoint": name, "operation": where, "codes": bare},
    )


KIND = CheckKind(
    id="fapi.undocumented-error-response",
    summary="A path operation can respond with an error code its OpenAPI responses don't declare.",
    options_type=UndocumentedErrorResponseOptions,
    check=check,
    reads=reads,
    guidance_params={
        "endpoint": "the endpoint function's name",
        "operation": "its method and path (`POST /orders`)",
        "codes": "the undeclared status codes (`404 and 409`)",
    },
    docs=DOCS,
    examples=examples,
)
