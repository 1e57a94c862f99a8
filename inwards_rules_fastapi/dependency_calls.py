"""The `Depends(...)` and `Security(...)` calls of a module, wherever they are written:
parameter defaults and annotations, decorator arguments (`dependencies=[...]`), bodies,
and module level (`SessionDep = Annotated[Session, Depends(get_session)]`,
`APIRouter(dependencies=[...])`). Shared by FAPI007 and FAPI009."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import CallFact, ContentFacts
from inwards_rules_fastapi.callee_names import DEPENDS, Names


def dependency_calls(facts: ContentFacts, names: Names) -> Iterator[CallFact]:
    """Each `Depends`/`Security` call of FastAPI's in the module, once, in source order."""
    seen: set[tuple[int, int]] = set()
    every: list[CallFact] = list(facts.calls)
    for function in facts.functions:
        every += function.signature_calls
        every += function.calls
    for call in sorted(every, key=lambda c: (c.span.line, c.span.column)):
        key = (call.span.line, call.span.column)
        if key in seen or not call.callee:
            continue
        seen.add(key)
        if names.qualify(call.callee) in DEPENDS:
            yield call


def dependency_argument(call: CallFact) -> str:
    """The dependency as written: the first positional argument, else `dependency=`'s
    value ("" when there is none or it is not a name or a call of one)."""
    if call.positional and call.positional[0]:
        return call.positional[0]
    for keyword, value in zip(call.keywords, call.keyword_values, strict=False):
        if keyword == "dependency":
            return value
    return ""
