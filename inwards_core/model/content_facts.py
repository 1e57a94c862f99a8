"""Facts about a module's content beyond its imports, for the opt-in content rules.

Read by `inwards_core.extraction.content.read_content` (CPython's `ast`, one iterative
walk). Like `ModuleFacts` they depend only on the file's text and module name, so a cache
may keep them; `content_to_data` / `content_from_data` convert them to compact rows of
lists and strings and back. Data coming back from a cache is untrusted: any wrong shape,
and any string or count past the bounds below, is a `ValueError` (a cache miss).

Bounds (hostile input): strings are cut to `STRING_LIMIT` characters, per-call argument
lists to `ARGUMENT_LIMIT` entries, and a file keeps at most `FUNCTION_LIMIT` functions,
`CLASS_LIMIT` classes and `ITEM_LIMIT` calls, bindings, parameters, decorators, bases,
methods and attributes in all; past any of them `truncated` is set and the rest is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

from inwards_core.model.findings import Span
from inwards_core.model.value_repr import value_repr

STRING_LIMIT = 200
ARGUMENT_LIMIT = 4  # first positional arguments kept per call
KEYWORD_LIMIT = 32
FUNCTION_LIMIT = 5_000
CLASS_LIMIT = 2_000
ITEM_LIMIT = 20_000


@attrs.frozen
class CallFact:
    """One call expression (or a decorator, which may be a bare name: `@app`).

    - `callee`: the called expression as dotted text (`db.add`, `requests.get`); a call in
      the chain keeps `()` (`boto3.client().put_object`); "" when it is not a name chain.
    - `span`: the callee's span.
    - `awaited`: the call stands directly under `await`.
    - `nested`: inside a lambda, or a def or class nested in the function holding the fact.
    - `positional`: the first `ARGUMENT_LIMIT` positional arguments: a dotted name, a string
      literal in double quotes (`'"users"'`), a call of a name chain with `()`
      (`Depends(get_db())` keeps `get_db()`), or "" for anything else.
    - `keywords`: keyword argument names, "**" for a `**mapping`; `keyword_values` their
      values, one per name: a dotted name, a string literal in double quotes, the repr of a
      number, bool or None (`status_code=201` gives "201"), or "" for anything else.
    - `raised`: the call is what a `raise` statement raises (`raise HTTPException(404)`).
    """

    __repr__ = value_repr

    callee: str
    span: Span
    awaited: bool = False
    nested: bool = False
    positional: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    keyword_values: tuple[str, ...] = ()
    raised: bool = False


@attrs.frozen
class ParamFact:
    """A parameter and the dotted names its annotation mentions, `Annotated[X, ...]`
    (first argument only), `Optional[...]`, `Union[...]` and `X | Y` flattened."""

    __repr__ = value_repr

    name: str
    annotation: tuple[str, ...] = ()


@attrs.frozen
class BindingFact:
    """A name bound by `x = ...`, `x: T = ...`, `type X = ...` or `with ... as x`; at the
    module's top level also an attribute set there (`Base.metadata.naming_convention = ...`,
    named by its dotted text).

    `value_callee` is the callee of a call value (dotted as `CallFact.callee`) and
    `positional` its first arguments (as `CallFact.positional`). `annotation` holds the
    dotted names of the declared type, or, for an alias (no annotation, or `TypeAlias`)
    whose value is a subscript or a `|` of names (`SessionDep = Annotated[Session, ...]`),
    the names of the value, flattened as `ParamFact.annotation`. `literal` is a string
    value (cut).
    """

    __repr__ = value_repr

    name: str
    span: Span
    value_callee: str = ""
    annotation: tuple[str, ...] = ()
    literal: str | None = None
    positional: tuple[str, ...] = ()


@attrs.frozen
class HandlerFact:
    """An `except` handler of a `TryFact`: the span of its `except ...` clause, the dotted
    names it catches (() for a bare `except`; "" for an expression that is no name), and
    whether every path through its body ends in a `raise` (see
    `inwards_core.extraction.content` for how paths are followed)."""

    __repr__ = value_repr

    span: Span
    caught: tuple[str, ...] = ()
    reraises: bool = False


@attrs.frozen
class TryFact:
    """A `try` (or `try`/`except*`) statement of a function whose own body holds a `yield`
    of that function (at any depth, not in a nested def), with its handlers."""

    __repr__ = value_repr

    span: Span
    handlers: tuple[HandlerFact, ...] = ()


@attrs.frozen
class FunctionFact:
    """A `def` or `async def`; the metrics count its own body, not nested defs' bodies.

    See `inwards_core.extraction.content` for how statements, branches (guards excluded),
    nesting, loops and comprehensions are counted. `trivial`: the body is only a docstring,
    `...`, `pass` and `raise NotImplementedError(...)`. `returns`: the dotted names of the
    return annotation (flattened as `ParamFact.annotation`; ("None",) for `-> None`, () for
    none); `documented`: the body starts with a docstring.

    Generators and what a function gives back (its own body, not nested defs or lambdas):
    `yields` counts its `yield` and `yield from` expressions, `yield_in_loop` tells that one
    stands in a `for` or `while` body, `yield_tries` are the `try` statements with a `yield`
    in their body. `return_values` has one entry per `return`: "<none>" for a bare `return`
    or `return None`; "<value>" for a value that is never callable (a literal, a
    collection display or comprehension, an f-string, arithmetic, a comparison, `not`, a
    boolean operation of such values); "<lambda>"; a dotted name; a call of a name chain
    as `CallFact.callee` writes it with `()` (`Checker()`); "" for anything else.
    `signature_calls` are the calls written in its decorators' arguments, its parameters'
    defaults and annotations and its return annotation (`Depends(get_db)`,
    `dependencies=[Depends(auth)]`), not in `calls`.
    """

    __repr__ = value_repr

    qualname: str
    span: Span
    is_async: bool
    decorators: tuple[CallFact, ...] = ()
    params: tuple[ParamFact, ...] = ()
    statements: int = 0
    branches: int = 0
    nesting: int = 0
    loops: int = 0
    comprehensions: int = 0
    calls: tuple[CallFact, ...] = ()
    bindings: tuple[BindingFact, ...] = ()
    trivial: bool = False
    returns: tuple[str, ...] = ()
    documented: bool = False
    yields: int = 0
    yield_in_loop: bool = False
    yield_tries: tuple[TryFact, ...] = ()
    return_values: tuple[str, ...] = ()
    signature_calls: tuple[CallFact, ...] = ()


@attrs.frozen
class ClassFact:
    """A class: dotted bases, keywords (`table=True` as `("table", "True")`), decorators,
    the qualnames of its methods (into `ContentFacts.functions`) and its class-body
    bindings, those of an inner `class Meta` named `Meta.<name>`."""

    __repr__ = value_repr

    qualname: str
    span: Span
    bases: tuple[str, ...] = ()
    keywords: tuple[tuple[str, str], ...] = ()
    decorators: tuple[CallFact, ...] = ()
    methods: tuple[str, ...] = ()
    attributes: tuple[BindingFact, ...] = ()


@attrs.frozen
class ContentFacts:
    """`parsed` is False when the text had no trigger or did not parse: nothing was read.
    `bindings` and `calls` are the module's own (top level and class bodies, including
    calls inside literals such as `urlpatterns = [path(...)]`)."""

    __repr__ = value_repr

    parsed: bool
    functions: tuple[FunctionFact, ...] = ()
    classes: tuple[ClassFact, ...] = ()
    bindings: tuple[BindingFact, ...] = ()
    calls: tuple[CallFact, ...] = ()
    truncated: bool = False


def cut(text: str) -> str:
    """`text` cut to `STRING_LIMIT` characters."""
    return text[:STRING_LIMIT]


# -- plain-data conversion (for caches) ------------------------------------------------


def _span_row(span: Span) -> list[int]:
    return [span.line, span.column, span.end_line, span.end_column]


def _call_row(call: CallFact) -> list[Any]:
    return [
        call.callee,
        _span_row(call.span),
        call.awaited,
        call.nested,
        list(call.positional),
        list(call.keywords),
        list(call.keyword_values),
        call.raised,
    ]


def _binding_row(binding: BindingFact) -> list[Any]:
    return [
        binding.name,
        _span_row(binding.span),
        binding.value_callee,
        list(binding.annotation),
        binding.literal,
        list(binding.positional),
    ]


def _function_row(function: FunctionFact) -> list[Any]:
    return [
        function.qualname,
        _span_row(function.span),
        function.is_async,
        [_call_row(d) for d in function.decorators],
        [[p.name, list(p.annotation)] for p in function.params],
        [
            function.statements,
            function.branches,
            function.nesting,
            function.loops,
            function.comprehensions,
        ],
        [_call_row(c) for c in function.calls],
        [_binding_row(b) for b in function.bindings],
        function.trivial,
        list(function.returns),
        function.documented,
        [
            function.yields,
            function.yield_in_loop,
            [_try_row(t) for t in function.yield_tries],
            list(function.return_values),
            [_call_row(c) for c in function.signature_calls],
        ],
    ]


def _try_row(attempt: TryFact) -> list[Any]:
    return [
        _span_row(attempt.span),
        [[_span_row(h.span), list(h.caught), h.reraises] for h in attempt.handlers],
    ]


def _class_row(cls: ClassFact) -> list[Any]:
    return [
        cls.qualname,
        _span_row(cls.span),
        list(cls.bases),
        [[k, v] for k, v in cls.keywords],
        [_call_row(d) for d in cls.decorators],
        list(cls.methods),
        [_binding_row(b) for b in cls.attributes],
    ]


def content_to_data(facts: ContentFacts) -> dict[str, Any]:
    """Plain JSON-able data; `content_from_data` rebuilds an equal record."""
    return {
        "parsed": facts.parsed,
        "functions": [_function_row(f) for f in facts.functions],
        "classes": [_class_row(c) for c in facts.classes],
        "bindings": [_binding_row(b) for b in facts.bindings],
        "calls": [_call_row(c) for c in facts.calls],
        "truncated": facts.truncated,
    }


_T = TypeVar("_T")


def _list(data: Any, limit: int) -> list[Any]:
    if not isinstance(data, list) or len(data) > limit:
        raise ValueError("expected a list within the bounds")
    return data


def _row(data: Any, length: int) -> list[Any]:
    if not isinstance(data, list) or len(data) != length:
        raise ValueError(f"expected a row of {length}")
    return data


def _each(data: Any, limit: int, read: Callable[[Any], _T]) -> tuple[_T, ...]:
    return tuple(read(item) for item in _list(data, limit))


def _str(data: Any) -> str:
    if isinstance(data, str) and len(data) <= STRING_LIMIT:
        return data
    raise ValueError("expected a string within the bounds")


def _opt_str(data: Any) -> str | None:
    return None if data is None else _str(data)


def _bool(data: Any) -> bool:
    if isinstance(data, bool):
        return data
    raise ValueError("expected a boolean")


def _count(data: Any) -> int:
    if isinstance(data, int) and not isinstance(data, bool) and 0 <= data <= 10**9:
        return data
    raise ValueError("expected a count")


def _span(data: Any) -> Span:
    row = _row(data, 4)
    line, column, end_line, end_column = (_count(x) for x in row)
    if min(line, column, end_line, end_column) < 1:
        raise ValueError("bad span")
    return Span(line, column, end_line, end_column)


def _strings(data: Any, limit: int) -> tuple[str, ...]:
    return _each(data, limit, _str)


def _call(data: Any) -> CallFact:
    row = _row(data, 8)
    keywords = _strings(row[5], KEYWORD_LIMIT)
    values = _strings(row[6], KEYWORD_LIMIT)
    if len(values) != len(keywords):
        raise ValueError("one value per keyword")
    return CallFact(
        callee=_str(row[0]),
        span=_span(row[1]),
        awaited=_bool(row[2]),
        nested=_bool(row[3]),
        positional=_strings(row[4], ARGUMENT_LIMIT),
        keywords=keywords,
        keyword_values=values,
        raised=_bool(row[7]),
    )


def _binding(data: Any) -> BindingFact:
    row = _row(data, 6)
    return BindingFact(
        name=_str(row[0]),
        span=_span(row[1]),
        value_callee=_str(row[2]),
        annotation=_strings(row[3], ITEM_LIMIT),
        literal=_opt_str(row[4]),
        positional=_strings(row[5], ARGUMENT_LIMIT),
    )


def _param(data: Any) -> ParamFact:
    row = _row(data, 2)
    return ParamFact(name=_str(row[0]), annotation=_strings(row[1], ITEM_LIMIT))


def _function(data: Any) -> FunctionFact:
    row = _row(data, 12)
    statements, branches, nesting, loops, comprehensions = (_count(x) for x in _row(row[5], 5))
    yields, in_loop, tries, return_values, signature_calls = _row(row[11], 5)
    return FunctionFact(
        qualname=_str(row[0]),
        span=_span(row[1]),
        is_async=_bool(row[2]),
        decorators=_each(row[3], ITEM_LIMIT, _call),
        params=_each(row[4], ITEM_LIMIT, _param),
        statements=statements,
        branches=branches,
        nesting=nesting,
        loops=loops,
        comprehensions=comprehensions,
        calls=_each(row[6], ITEM_LIMIT, _call),
        bindings=_each(row[7], ITEM_LIMIT, _binding),
        trivial=_bool(row[8]),
        returns=_strings(row[9], ITEM_LIMIT),
        documented=_bool(row[10]),
        yields=_count(yields),
        yield_in_loop=_bool(in_loop),
        yield_tries=_each(tries, ITEM_LIMIT, _try),
        return_values=_strings(return_values, ITEM_LIMIT),
        signature_calls=_each(signature_calls, ITEM_LIMIT, _call),
    )


def _handler(data: Any) -> HandlerFact:
    row = _row(data, 3)
    return HandlerFact(
        span=_span(row[0]), caught=_strings(row[1], ITEM_LIMIT), reraises=_bool(row[2])
    )


def _try(data: Any) -> TryFact:
    row = _row(data, 2)
    return TryFact(span=_span(row[0]), handlers=_each(row[1], ITEM_LIMIT, _handler))


def _keyword(data: Any) -> tuple[str, str]:
    row = _row(data, 2)
    return _str(row[0]), _str(row[1])


def _class(data: Any) -> ClassFact:
    row = _row(data, 7)
    return ClassFact(
        qualname=_str(row[0]),
        span=_span(row[1]),
        bases=_strings(row[2], ITEM_LIMIT),
        keywords=_each(row[3], KEYWORD_LIMIT, _keyword),
        decorators=_each(row[4], ITEM_LIMIT, _call),
        methods=_strings(row[5], ITEM_LIMIT),
        attributes=_each(row[6], ITEM_LIMIT, _binding),
    )


def content_from_data(data: Any) -> ContentFacts:
    """Rebuild a record from `content_to_data` output; `ValueError` on any shape problem
    or any string or count past the bounds."""
    if not isinstance(data, Mapping) or set(data) != _KEYS:
        raise ValueError("expected an object with the content keys")
    return ContentFacts(
        parsed=_bool(data["parsed"]),
        functions=_each(data["functions"], FUNCTION_LIMIT, _function),
        classes=_each(data["classes"], CLASS_LIMIT, _class),
        bindings=_each(data["bindings"], ITEM_LIMIT, _binding),
        calls=_each(data["calls"], ITEM_LIMIT, _call),
        truncated=_bool(data["truncated"]),
    )


_KEYS = frozenset(("parsed", "functions", "classes", "bindings", "calls", "truncated"))

__all__ = [
    "BindingFact",
    "CallFact",
    "ClassFact",
    "ContentFacts",
    "FunctionFact",
    "HandlerFact",
    "ParamFact",
    "TryFact",
]
