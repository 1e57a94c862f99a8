"""The HTTP error codes a function's own calls produce, for FAPI002's first ring: raises of
FastAPI's `HTTPException` or of a project subclass (`http_errors`) with a known code, and the
error responses it builds (`JSONResponse(..., status_code=409)`)."""

from __future__ import annotations

from inwards_core import FunctionFact, ModuleInfo, ProjectModel
from inwards_rules_fastapi.function_sites import Site, qualify
from inwards_rules_fastapi.http_errors import HTTP_EXCEPTIONS, raised_code, subclass_code

_RESPONSE_MODULES = ("fastapi.responses.", "starlette.responses.")
_RESPONSE_NAMES = frozenset(("fastapi.Response",))


def own_codes(model: ProjectModel, site: Site) -> list[tuple[int, bool]]:
    """The error codes (>= 400) the function's own calls produce, in source order, each with
    whether it is an error response built rather than a raise."""
    from inwards_rules_fastapi.openapi_entries import keyword, status_code

    codes: list[tuple[int, bool]] = []
    for call in site.function.calls:
        if call.nested or not call.callee:
            continue
        name = qualify(model, site.info, call.callee)
        if call.raised and name in HTTP_EXCEPTIONS:
            code = raised_code(call)
            if code is not None and code >= 400:
                codes.append((code, False))
        elif call.raised and name:
            derived, fixed = subclass_code(model, name)
            code = (raised_code(call) or fixed) if derived else None
            if code is not None and code >= 400:
                codes.append((code, False))
        elif _is_response(name):
            text = keyword(call, "status_code")
            if text is None and len(call.positional) > 1:
                text = call.positional[1]
            code = status_code(text or "")
            if code is not None and code >= 400:
                codes.append((code, True))
    return codes


def response_codes(model: ProjectModel, info: ModuleInfo, function: FunctionFact) -> list[int]:
    """The error codes of the responses `function` (of module `info`) builds."""
    return [code for code, returned in own_codes(model, Site(info, function)) if returned]


def _is_response(name: str) -> bool:
    if name in _RESPONSE_NAMES:
        return True
    return name.startswith(_RESPONSE_MODULES) and name.endswith("Response")
