"""FastAPI's and Starlette's `HTTPException` (`HTTP_EXCEPTIONS`) and the project's own
subclasses of it, for FAPI002: `raise ItemNotFound()` where `class
ItemNotFound(HTTPException)` passes its code to `super().__init__(404, ...)`.

A class counts when its first base, followed through the project a few hops, is FastAPI's
or Starlette's `HTTPException`; its code is the one the raise passes (`status_code=` or the
first positional argument), else the one the nearest `__init__` on the way passes to
`super().__init__`. Anything else is unknown.
"""

from __future__ import annotations

from inwards_core import CallFact, ContentFacts, ProjectModel
from inwards_rules_fastapi.function_sites import qualify
from inwards_rules_fastapi.graph_names import split_module

_BASE_HOPS = 6

HTTP_EXCEPTIONS = frozenset(
    (
        "fastapi.HTTPException",
        "fastapi.exceptions.HTTPException",
        "starlette.exceptions.HTTPException",
    )
)


def raised_code(call: CallFact) -> int | None:
    """The code a raise of an `HTTPException` (or of a subclass) passes itself."""
    from inwards_rules_fastapi.openapi_entries import keyword, status_code

    text = keyword(call, "status_code")
    if text is None and call.positional:
        text = call.positional[0]
    return status_code(text or "")


def subclass_code(model: ProjectModel, canonical: str) -> tuple[bool, int | None]:
    """(whether `canonical` is a class of the project deriving from `HTTPException`, the
    code its `__init__` fixes, None when none does or it is unknown)."""
    name = canonical
    code: int | None = None
    for _ in range(_BASE_HOPS):
        found = split_module(model, name)
        if found is None or not found[1] or "." in found[1]:
            return False, None
        info, last = found
        facts = model.content(info)
        cls = (
            None if facts is None else next((c for c in facts.classes if c.qualname == last), None)
        )
        if facts is None or cls is None or not cls.bases:
            return False, None
        if code is None:
            code = _init_code(facts, last)
        base = qualify(model, info, cls.bases[0])
        if base in HTTP_EXCEPTIONS:
            return True, code
        name = base
    return False, None


def _init_code(facts: ContentFacts, cls: str) -> int | None:
    for function in facts.functions:
        if function.qualname != f"{cls}.__init__":
            continue
        for call in function.calls:
            if call.callee == "super().__init__":
                return raised_code(call)
    return None
