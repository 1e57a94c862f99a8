"""The fourth ring of FAPI002: the project's exceptions an app's exception handlers turn
into error responses.

A handler is read where the app is made: `@app.exception_handler(E)` on a function and
`app.add_exception_handler(E, handler)` in the app's module (at module level, or in the
factory function that builds the app), `app` being the name the app is bound to there. Its
codes are the error responses it builds (`JSONResponse(..., status_code=409)`); a code in
a variable (`exc.status_code`) is unknown. A raised exception is mapped by the handler of
its class or of the nearest base class the project defines (bases followed a few hops).
Handlers registered elsewhere (a `register_handlers(app)` function) are not seen.
"""

from __future__ import annotations

from collections.abc import Mapping

from inwards_core import CallFact, FunctionFact, ModuleInfo, ProjectModel
from inwards_rules_fastapi.graph import Node
from inwards_rules_fastapi.graph_names import split_module

_BASE_HOPS = 6
_DEFAULT_HANDLER = "fastapi.exception_handlers.http_exception_handler"


def handled_codes(model: ProjectModel, app: Node) -> Mapping[str, tuple[int, ...]]:
    """For each exception (canonical name) the app's handlers map, the error codes the
    handler responds with (only handlers with at least one known code)."""
    return _handlers(model, app)[0]


def keeps_http_codes(model: ProjectModel, app: Node) -> bool:
    """The app has handlers of its own for `HTTPException`, and each answers with the
    exception's own code: it calls FastAPI's `http_exception_handler`, or builds a
    response with `status_code=exc.status_code`."""
    return _handlers(model, app)[1]


def _handlers(model: ProjectModel, app: Node) -> tuple[Mapping[str, tuple[int, ...]], bool]:
    table = model.shared(_handler_tables)
    found = table.get(app.name)
    if found is None:
        found = table[app.name] = _read_handlers(model, app)
    return found


def _handler_tables(
    model: ProjectModel,
) -> dict[str, tuple[Mapping[str, tuple[int, ...]], bool]]:
    return {}


def _read_handlers(model: ProjectModel, app: Node) -> tuple[dict[str, tuple[int, ...]], bool]:
    from inwards_rules_fastapi.function_sites import qualify
    from inwards_rules_fastapi.own_codes import response_codes

    info = model.index.module(app.module)
    facts = None if info is None else model.content(info)
    if info is None or facts is None or not facts.parsed:
        return {}, False
    found: dict[str, tuple[int, ...]] = {}
    http: list[bool] = []
    for written, (where, handler) in _pairs(model, app, info, facts.functions, facts.calls):
        name = qualify(model, info, written) if written else ""
        if name.rpartition(".")[2].endswith("HTTPException"):
            http.append(_keeps_code(model, where, handler))
            continue
        codes = tuple(sorted(set(response_codes(model, where, handler))))
        if name and codes:
            found.setdefault(name, codes)
    return found, bool(http) and all(http)


def _pairs(
    model: ProjectModel,
    app: Node,
    info: ModuleInfo,
    functions: tuple[FunctionFact, ...],
    module_calls: tuple[CallFact, ...],
) -> list[tuple[str, tuple[ModuleInfo, FunctionFact]]]:
    """(the exception as written, the handler and its module) for each registration."""
    from inwards_rules_fastapi.function_sites import qualify, top_function

    receiver = app.name.rpartition(".")[2]
    inside = app.factory + ".<locals>." if app.factory else ""
    pairs: list[tuple[str, tuple[ModuleInfo, FunctionFact]]] = []
    for function in functions:
        if inside and not function.qualname.startswith(inside):
            continue
        for decorator in function.decorators:
            if decorator.callee == f"{receiver}.exception_handler" and decorator.positional:
                pairs.append((decorator.positional[0], (info, function)))
    calls = list(module_calls) if not app.factory else []
    for function in functions:
        if function.qualname == app.factory:
            calls += [c for c in function.calls if not c.nested]
    for call in calls:
        if call.callee == f"{receiver}.add_exception_handler" and len(call.positional) > 1:
            local = _local_function(functions, inside, call.positional[1])
            if local is not None:
                pairs.append((call.positional[0], (info, local)))
                continue
            elsewhere = top_function(model, qualify(model, info, call.positional[1]))
            if elsewhere is not None:
                pairs.append((call.positional[0], elsewhere))
    return pairs


def _keeps_code(model: ProjectModel, info: ModuleInfo, handler: FunctionFact) -> bool:
    from inwards_rules_fastapi.function_sites import qualify
    from inwards_rules_fastapi.openapi_entries import keyword

    for call in handler.calls:
        if qualify(model, info, call.callee) == _DEFAULT_HANDLER:
            return True
        if (keyword(call, "status_code") or "").endswith(".status_code"):
            return True
    return False


def _local_function(
    functions: tuple[FunctionFact, ...], inside: str, written: str
) -> FunctionFact | None:
    if not inside:
        return None
    for function in functions:
        if function.qualname == inside + written:
            return function
    return None


def mapped_codes(
    model: ProjectModel, exception: str, handled: Mapping[str, tuple[int, ...]]
) -> tuple[str, tuple[int, ...]] | None:
    """(the handled class, its codes) for a raised exception's canonical name: its own
    handler's, or that of the nearest base class of the project that has one."""
    from inwards_rules_fastapi.function_sites import qualify

    name = exception
    for _ in range(_BASE_HOPS):
        if name in handled:
            return name, handled[name]
        found = split_module(model, name)
        if found is None or not found[1] or "." in found[1]:
            return None
        info, last = found
        base = _first_base(model, info, last)
        if not base:
            return None
        name = qualify(model, info, base)
    return None


def _first_base(model: ProjectModel, info: ModuleInfo, name: str) -> str:
    facts = model.content(info)
    if facts is None:
        return ""
    for cls in facts.classes:
        if cls.qualname == name and cls.bases:
            return cls.bases[0]
    return ""
