"""The mutable drafts and the frames of `inwards_core.extraction.content_walk`."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace

from inwards_core.model.content_facts import (
    BindingFact,
    CallFact,
    ClassFact,
    FunctionFact,
    HandlerFact,
    TryFact,
)
from inwards_core.model.findings import Span


@dataclass
class FunctionDraft:
    fact: FunctionFact
    statements: int = 0
    branches: int = 0
    nesting: int = 0
    loops: int = 0
    comprehensions: int = 0
    calls: list[CallFact] = field(default_factory=list)
    bindings: list[BindingFact] = field(default_factory=list)
    yields: int = 0
    yield_in_loop: bool = False
    tries: list[TryDraft] = field(default_factory=list)
    return_values: list[str] = field(default_factory=list)
    signature_calls: list[CallFact] = field(default_factory=list)


@dataclass
class TryDraft:
    """A `try` of a function; kept as a `TryFact` when a `yield` stands in its body."""

    span: Span
    handlers: tuple[HandlerFact, ...]
    has_yield: bool = False


@dataclass
class ClassDraft:
    fact: ClassFact
    methods: list[str] = field(default_factory=list)
    attributes: list[BindingFact] = field(default_factory=list)


@dataclass(frozen=True)
class Frame:
    """Where a statement stands: who gets its calls (list, nested?), its bindings (list,
    name prefix), whose metrics it adds to, how deep, and the qualname prefix."""

    calls: tuple[tuple[list[CallFact], bool], ...]
    bindings: tuple[tuple[list[BindingFact], str], ...]
    prefix: str
    function: FunctionDraft | None = None  # the innermost enclosing function
    metrics: FunctionDraft | None = None  # None in class bodies and guards' bodies
    cls: ClassDraft | None = None  # the class whose body this is
    depth: int = 0
    elif_: bool = False
    tries: tuple[TryDraft, ...] = ()  # the function's `try`s whose body this stands in
    loop: bool = False  # in a `for`/`while` body of the function


def is_elif(orelse: object) -> bool:
    return isinstance(orelse, list) and len(orelse) == 1 and isinstance(orelse[0], ast.If)


def elif_frame(inner: Frame) -> Frame:
    """An `elif` stands as deep as its `if` and is no new statement."""
    return replace(inner, depth=inner.depth - 1, elif_=True)


# -- results ---------------------------------------------------------------------------


def function_fact(function: FunctionDraft) -> FunctionFact:
    """The finished record of a function's draft."""
    return FunctionFact(
        qualname=function.fact.qualname,
        span=function.fact.span,
        is_async=function.fact.is_async,
        decorators=function.fact.decorators,
        params=function.fact.params,
        statements=function.statements,
        branches=function.branches,
        nesting=function.nesting,
        loops=function.loops,
        comprehensions=function.comprehensions,
        calls=by_position(function.calls),
        bindings=tuple(function.bindings),
        trivial=function.fact.trivial,
        returns=function.fact.returns,
        documented=function.fact.documented,
        yields=function.yields,
        yield_in_loop=function.yield_in_loop,
        yield_tries=tuple(
            TryFact(attempt.span, attempt.handlers)
            for attempt in function.tries
            if attempt.has_yield
        ),
        return_values=tuple(function.return_values),
        signature_calls=by_position(function.signature_calls),
    )


def class_fact(cls: ClassDraft) -> ClassFact:
    """The finished record of a class's draft."""
    fact = cls.fact
    return ClassFact(
        fact.qualname,
        fact.span,
        fact.bases,
        fact.keywords,
        fact.decorators,
        tuple(cls.methods),
        tuple(cls.attributes),
    )


def by_position(calls: list[CallFact]) -> tuple[CallFact, ...]:
    return tuple(sorted(calls, key=lambda c: (c.span.line, c.span.column, c.nested)))
