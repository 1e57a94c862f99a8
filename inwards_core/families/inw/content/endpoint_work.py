"""What an endpoint does itself: its own body plus the same-module helpers it calls (up to
three calls deep, each counted once), measured against the limits of inw.thin-endpoint.

Pure: content facts in, `Work` out. Statements, branches, nesting, loops and
comprehensions come from the facts (guards excluded, see `inwards_core.extraction.content`);
calls that only log, print or set a response header or cookie are taken back out of the
statements (they are no logic of the endpoint's own).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterator, Mapping

import attrs

from inwards_core import ContentFacts, FunctionFact
from inwards_core.families.inw.content.endpoints import Qualify

HELPER_DEPTH = 3
# Receivers whose calls only log (written names; `logging.*` is recognised qualified).
_LOGGERS = frozenset(("logger", "log", "_logger", "_log", "LOGGER", "LOG", "logging"))
_RESPONSE_CALLS = frozenset(("set_cookie", "delete_cookie", "set_signed_cookie"))
_PLAIN_CALLS = frozenset(("print", "warnings.warn", "logging"))


@attrs.frozen
class Work:
    """The measures of one endpoint with its helpers folded in. `denied_calls` and
    `session_calls` are the calls as written (first seen first, no repeats); `delegates`
    is None when no `delegate-to` is set."""

    statements: int = 0
    branches: int = 0
    nesting: int = 0
    loops: int = 0
    comprehensions: int = 0
    denied_calls: tuple[str, ...] = ()
    session_calls: tuple[str, ...] = ()
    delegates: bool | None = None
    helpers: tuple[str, ...] = ()


@attrs.frozen
class Measure:
    """How to read calls: `deny` (dotted patterns, `*` within a segment), the canonical
    session types and parameter names whose methods count, and `delegation` (whether a
    canonical dotted name lies in `delegate-to`; None when it is not set)."""

    qualify: Qualify
    deny: tuple[str, ...]
    receiver_types: frozenset[str]
    receiver_params: frozenset[str]
    delegation: Callable[[str], bool] | None = None


def denied(name: str, patterns: tuple[str, ...]) -> str | None:
    """The pattern of `patterns` covering the dotted `name` (a pattern covers the names it
    is a prefix of, segment by segment), or None."""
    parts = name.split(".")
    for pattern in patterns:
        wanted = pattern.rstrip(".").split(".")
        if len(wanted) <= len(parts) and all(
            fnmatch.fnmatchcase(part, want) for part, want in zip(parts, wanted, strict=False)
        ):
            return pattern
    return None


def _resolved_call(
    callee: str, function: FunctionFact, facts: ContentFacts, measure: Measure
) -> str:
    """The canonical name of a call: a root bound in the function by a call stands for
    that call's result (`client.get` after `client = httpx.Client()` is
    `httpx.Client().get`); a root that is a parameter stands for its annotated type."""
    root, dot, rest = callee.partition(".")
    root = root.removesuffix("()")
    scopes = [function, *_enclosing_functions(function, facts)] if dot else []
    for scope in scopes:
        for binding in reversed(scope.bindings):
            if binding.name == root and binding.value_callee:
                return f"{_qualified(binding.value_callee, measure)}().{rest}"
        for param in scope.params:
            if param.name == root and param.annotation:
                kind = _alias_target(param.annotation[0], facts, measure)
                return f"{kind}.{rest}"
    return _qualified(callee, measure)


def _enclosing_functions(function: FunctionFact, facts: ContentFacts) -> list[FunctionFact]:
    """The functions around a nested def, innermost first (a router factory's parameters
    type the names its endpoints use)."""
    by_name = {f.qualname: f for f in facts.functions}
    found = []
    scope = function.qualname.rpartition(".<locals>.")[0]
    while scope:
        outer = by_name.get(scope)
        if outer is not None:
            found.append(outer)
        scope = scope.rpartition(".<locals>.")[0]
    return found


def _qualified(callee: str, measure: Measure) -> str:
    head, called, tail = callee.partition("()")
    return measure.qualify(head) + called + tail


def _alias_target(name: str, facts: ContentFacts, measure: Measure) -> str:
    """A same-module alias (`SessionDep = Annotated[Session, ...]`) stands for its type."""
    if "." not in name:
        for binding in reversed(facts.bindings):
            if binding.name == name and binding.annotation and not binding.value_callee:
                return measure.qualify(binding.annotation[0])
    return measure.qualify(name)


def _session_names(function: FunctionFact, facts: ContentFacts, measure: Measure) -> set[str]:
    """Names in the function that hold a database session: parameters typed (or named) so,
    and local names bound by a session constructor (`with Session(engine) as session`)."""
    names = set()
    for param in function.params:
        if param.name in measure.receiver_params or any(
            _alias_target(a, facts, measure) in measure.receiver_types for a in param.annotation
        ):
            names.add(param.name)
    for binding in function.bindings:
        if binding.value_callee and measure.qualify(binding.value_callee) in (
            measure.receiver_types
        ):
            names.add(binding.name)
    return names


def _plain(callee: str, measure: Measure) -> bool:
    """A call that only logs, prints or sets a response cookie."""
    root, _, rest = callee.partition(".")
    if callee in _PLAIN_CALLS or (rest and root in _LOGGERS):
        return True
    if rest and rest.rpartition(".")[2] in _RESPONSE_CALLS:
        return True
    return measure.qualify(callee).startswith("logging.")


def _helper(
    callee: str, caller: FunctionFact, owner: str, functions: Mapping[str, FunctionFact]
) -> FunctionFact | None:
    """The same-module helper a call names: a def nested in the caller's enclosing
    functions (any name), a private module-level function (`_name`), or a private method
    of the endpoint's class (`self._name`). A public function or method is an API of its
    own (a service, a framework hook): calling it is delegating, not hiding work."""
    root, dot, rest = callee.partition(".")
    if dot:
        if owner and root in ("self", "cls") and "." not in rest and rest.startswith("_"):
            return functions.get(f"{owner}.{rest}")
        return None
    scope = caller.qualname
    while scope:
        found = functions.get(f"{scope}.<locals>.{callee}")
        if found is not None:
            return found
        scope = scope.rpartition(".<locals>.")[0]
    return functions.get(callee) if callee.startswith("_") else None


def _own_calls(function: FunctionFact) -> Iterator[str]:
    for call in function.calls:
        if not call.nested and call.callee:
            yield call.callee


def _delegates_through(
    function: FunctionFact,
    resolved: list[tuple[str, str]],
    facts: ContentFacts,
    measure: Measure,
) -> bool:
    """Whether a public function of the module that `function` calls (not folded in)
    calls into `delegate-to` itself, up to `HELPER_DEPTH` calls deep."""
    assert measure.delegation is not None
    functions = {f.qualname: f for f in facts.functions}
    seen = {function.qualname}
    frontier = [(callee, 1) for callee, _ in resolved]
    while frontier:
        callee, depth = frontier.pop(0)
        helper = functions.get(callee) if "." not in callee else None
        if helper is None or helper.qualname in seen or depth > HELPER_DEPTH:
            continue
        seen.add(helper.qualname)
        for inner in _own_calls(helper):
            if measure.delegation(_resolved_call(inner, helper, facts, measure)):
                return True
            frontier.append((inner, depth + 1))
    return False


def _outermost(calls: tuple[str, ...]) -> tuple[str, ...]:
    """Without `httpx.AsyncClient` (or `session.exec`) when `httpx.AsyncClient().post` (or
    `session.exec().all`) is listed too: one call chain, named once."""
    return tuple(c for c in calls if not any(other.startswith(c + "()") for other in calls))


def measure_endpoint(
    endpoint: FunctionFact,
    owner: str,
    facts: ContentFacts,
    measure: Measure,
    endpoints: frozenset[str] = frozenset(),
) -> Work:
    """The endpoint's work with its same-module helpers folded in. A helper that calls into
    `delegate-to` is a delegation: its own body is not folded."""
    functions = {f.qualname: f for f in facts.functions}
    totals = [0, 0, 0, 0, 0]
    denied_calls: dict[str, None] = {}
    session_calls: dict[str, None] = {}
    delegates = False
    helpers: list[str] = []
    seen = {endpoint.qualname} | endpoints  # another endpoint is judged on its own
    frontier: list[tuple[FunctionFact, int]] = [(endpoint, 0)]
    while frontier:
        function, depth = frontier.pop(0)
        resolved = [(c, _resolved_call(c, function, facts, measure)) for c in _own_calls(function)]
        calls_delegate = measure.delegation is not None and any(
            measure.delegation(name) for _, name in resolved
        )
        if measure.delegation is not None and not calls_delegate:
            calls_delegate = _delegates_through(function, resolved, facts, measure)
        if depth and calls_delegate:
            delegates = True
            continue
        delegates = delegates or calls_delegate
        plain = sum(1 for callee, _ in resolved if _plain(callee, measure))
        totals[0] += max(0, function.statements - plain)
        totals[1] += function.branches
        totals[2] = max(totals[2], function.nesting)
        totals[3] += function.loops
        totals[4] += function.comprehensions
        sessions = _session_names(function, facts, measure)
        for callee, name in resolved:
            if callee.partition(".")[0] in sessions and "." in callee:
                session_calls.setdefault(callee)
            elif denied(name, measure.deny) is not None:
                denied_calls.setdefault(callee)
            helper = _helper(callee, function, owner, functions)
            if helper is not None and helper.qualname not in seen and depth < HELPER_DEPTH:
                seen.add(helper.qualname)
                helpers.append(helper.qualname)
                frontier.append((helper, depth + 1))
    statements, branches, nesting, loops, comprehensions = totals
    return Work(
        statements=statements,
        branches=branches,
        nesting=nesting,
        loops=loops,
        comprehensions=comprehensions,
        denied_calls=_outermost(tuple(denied_calls)),
        session_calls=_outermost(tuple(session_calls)),
        delegates=delegates if measure.delegation is not None else None,
        helpers=tuple(helpers),
    )
