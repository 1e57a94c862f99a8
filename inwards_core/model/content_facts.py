"""Facts about a module's content beyond its imports, for the opt-in content rules.

Read by `inwards_core.extraction.content.read_content` (CPython's `ast`, one iterative
walk). Like `ModuleFacts` they depend only on the file's text and module name, so a cache
may keep them; `inwards_core.model.content_data` converts them to compact rows of
lists and strings and back. Data coming back from a cache is untrusted: any wrong shape,
and any string or count past the bounds below, is a `ValueError` (a cache miss).

Bounds (hostile input): strings are cut to `STRING_LIMIT` characters, per-call argument
lists to `ARGUMENT_LIMIT` entries, and a file keeps at most `FUNCTION_LIMIT` functions,
`CLASS_LIMIT` classes and `ITEM_LIMIT` calls, bindings, parameters, decorators, bases,
methods and attributes in all; past any of them `truncated` is set and the rest is dropped.
"""

from __future__ import annotations

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
