"""The content facts as plain data and back, for caches (`ModuleFacts.content` in an
extraction cache entry): compact rows of lists and strings. `content_from_data` trusts
nothing: any wrong shape, and any string or count past the bounds of
`inwards_core.model.content_facts`, is a `ValueError` (a cache miss)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from inwards_core.model.content_facts import (
    ARGUMENT_LIMIT,
    CLASS_LIMIT,
    FUNCTION_LIMIT,
    ITEM_LIMIT,
    KEYWORD_LIMIT,
    STRING_LIMIT,
    BindingFact,
    CallFact,
    ClassFact,
    ContentFacts,
    FunctionFact,
    HandlerFact,
    ParamFact,
    TryFact,
)
from inwards_core.model.findings import Span

_T = TypeVar("_T")


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
