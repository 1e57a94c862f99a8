"""inw.async-blocking: a synchronous database, cache, cloud or HTTP call inside `async def`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs

from inwards_core import (
    CheckKind,
    KindDocs,
    ModuleInfo,
    ProjectModel,
    ReadScope,
    Violation,
    option,
    quoted,
)
from inwards_core.families.inw.content.inw013_examples import examples
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.module_entries import check_patterns, first_match

if TYPE_CHECKING:  # the content records and the resolver are loaded when the rule runs
    from inwards_core import CallFact, FunctionFact
    from inwards_core.families.inw.content.blocking_calls import Block, Resolver, View

_NAME_LIMIT = 120


def _check_dotted(value: tuple[str, ...]) -> str | None:
    for entry in value:
        parts = entry.split(".")
        if len(parts) < 2 or not all(part.isidentifier() for part in parts):
            return f'"{entry}" is not a dotted name such as "mylib.Client" or "mylib.fetch".'
    return None


@attrs.frozen
class AsyncBlockingOptions(ScopedOptions):
    """Where the rule reports, and what else blocks."""

    check_tests: bool = option(
        False,
        description="Judge test modules too (a `tests`/`test` segment, or a last segment "
        "`test_*`, `*_test` or `conftest`); they are skipped by default.",
    )
    extend_blocking_calls: tuple[str, ...] = option(
        (),
        check=_check_dotted,
        description="More callables that block by themselves (dotted import names, such as "
        "`mylib.fetch`), added to the built-in families.",
    )
    extend_blocking_types: tuple[str, ...] = option(
        (),
        check=_check_dotted,
        description="More classes whose public methods block (dotted import names, such as "
        "`mylib.Client`): a parameter annotated with one, or a name bound to a call of one, "
        "is a blocking receiver.",
    )
    follow_modules: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description="The first-party modules (prefixes or selectors) whose plain `def`s are "
        "followed one hop from an `async def`; empty: every first-party module.",
    )


def reads(options: AsyncBlockingOptions) -> ReadScope:
    """The modules `modules` names are read even outside every layer; content facts of
    every judged module (a file is parsed only when its text has a trigger such as
    `async `); helpers one hop away are read on demand."""
    return ReadScope(modules=options.modules, content=True, content_words=("async ",))


DOCS = KindDocs(
    what_it_does="""
Reports a call inside an `async def` that waits on a database, a cache, a cloud service or
the network without giving the event loop back: while it waits, every other request the
process serves waits too. The call must be the function's own (not in a nested `def` or
`lambda`, which may well run in a thread) and not awaited. Three shapes are reported:

- a method of a *blocking instance* (`db.execute(...)`, `cache.get(...)`,
  `s3.put_object(...)`), where the instance's type is known from the parameter's annotation
  (plain, `Optional[...]`, `X | None`, `Annotated[X, ...]`, or an alias of those such as
  `SessionDep = Annotated[Session, Depends(get_session)]`, in the same file or imported
  from another module of the project), or from what the name was bound to, in the function
  or at module level (`cache = redis.Redis()`, `with Session(engine) as db`, `conn =
  engine.connect()`, `db = SessionLocal()` after `SessionLocal = sessionmaker(...)`), also
  an instance imported from another module of the project (`from app.db import engine`);
- a call that *blocks by itself*: `requests.get(...)`, `urllib.request.urlopen(...)`,
  `sqlite3.connect(...)`, and the other drivers' `connect`;
- a call of a *plain function of the project* (same module or imported) whose own body
  makes one of the calls above: one hop, reported at the call in the `async def`, naming
  the helper and its blocking call. A helper's helpers are not followed.

Every name is resolved through the file's imports (and the project's re-exports) before it
is matched: a class of the project called `Session` is not SQLAlchemy's, `requests.Session`
is an HTTP session, and the asyncio twins (`AsyncSession`, `redis.asyncio.Redis`,
`psycopg.AsyncConnection`) never match. Test modules are skipped unless
`check-tests = true`.

The built-in blocking families:

- SQLAlchemy and SQLModel: `Session` (also `scoped_session`, and sessions made by a
  `sessionmaker`), `Engine` (`create_engine`) and `Connection` (`engine.connect()`,
  `engine.begin()`); session methods: `bulk_insert_mappings`, `bulk_save_objects`,
  `bulk_update_mappings`, `close`, `commit`, `connection`, `delete`, `exec`, `execute`,
  `flush`, `get`, `get_one`, `invalidate`, `merge`, `query`, `refresh`, `reset`, `rollback`,
  `scalar`, `scalars`, `stream`, `stream_scalars`.
- redis-py: `redis.Redis`, `StrictRedis`, `RedisCluster`, `redis.from_url`; every method but
  `get_connection_kwargs`, `get_encoder`, `get_retry`, `lock`, `monitor`, `pipeline`,
  `pubsub`, `register_script`, `set_response_callback`, `set_retry` (a pipeline blocks on
  `execute`). `redis.asyncio` is not blocking.
- boto3: `boto3.client(...)`, `boto3.resource(...)` and its sub-resources (`s3.Bucket("b")`,
  `dynamodb.Table("t")`), `Session().client(...)`; every method but `can_paginate`, `close`,
  `exceptions`, `generate_presigned_post`, `generate_presigned_url`, `get_paginator`,
  `get_waiter`, `meta`.
- DB-API drivers: `sqlite3`, `psycopg`, `psycopg2`, `pymysql`, `MySQLdb`, `mysql.connector`:
  `connect(...)` itself, and the connection's and cursor's `execute`, `fetch*`, `commit`...
  methods.
- `requests`: `requests.get`, `requests.post`, `requests.put`, `requests.patch`,
  `requests.delete`, `requests.head`, `requests.options`, `requests.request` and the same
  methods of a `requests.Session`.
- `urllib.request`: `urlopen`, `urlretrieve`, and `open` of an opener from `build_opener`.

```toml
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "api", modules = ["shop.api"] },
]

[tool.inwards.rules]
extend-select = ["INW013"]

[tool.inwards.rules.async-blocking]
extend-blocking-calls = ["shop.legacy.fetch_rates"]
extend-blocking-types = ["ldap3.Connection"]
follow-modules = ["shop.api", "shop.db"]
```
""",
    why_is_this_bad="""
An `async def` runs on the event loop, one piece at a time. A synchronous call holds the
loop for as long as the server, the disk or the network takes to answer: meanwhile no other
request makes progress, timeouts fire and throughput collapses under load, while every
test with one client passes.
""",
    how_to_fix="""
Use the library's asyncio client and await it (SQLAlchemy's `AsyncSession` and
`create_async_engine`, `redis.asyncio`, `httpx.AsyncClient` or `aiohttp` for HTTP,
`aioboto3`, `psycopg.AsyncConnection`, `aiosqlite`). Where there is none, run the call in
a worker thread: `await asyncio.to_thread(session.execute, query)` (or
`run_in_threadpool`). In a web framework that runs plain functions in a thread pool
(FastAPI, Starlette), the simplest fix may be to make the endpoint a plain `def`.
""",
    limitations="""
The time module (`time.sleep`), sockets, `subprocess` and file I/O are not in the families,
nor is httpx's synchronous API: only what is listed above is known to block. Add the rest
with the options (`extend-blocking-calls = ["httpx.get", "httpx.post"]`,
`extend-blocking-types = ["httpx.Client"]`). Receivers are
names: an attribute (`self.session.execute(...)`, `request.state.db`) has no known type.
A name bound in a branch counts wherever it is used after it; rebinding a name to anything
else (an asyncio client, `None`) stops it from being blocking from then on. Names bound by a
`for`, by unpacking (`db, cache = ...`) or in a comprehension are not seen: a module-level
binding of the same name decides their type. A helper is
followed only when it is a module-level plain `def` and its own body blocks (not a method,
not a second hop). Other modules are read through the content facts, which parse only a
file whose text holds one of their fixed words: `async `, `class `, `@`, or a name of the
families (`Session`, `Engine`, `sessionmaker`, `create_engine`, `Annotated`, `connect(`,
`cursor(`, `Redis`, `boto3`, `requests.`, `urlopen`). An alias, an instance or a helper in
a module with none of them (a client made by a first-party factory, say) is not seen. A file
that does not parse is not judged (INW020 reports it).
""",
)


def _enclosing(function: FunctionFact) -> str:
    return quoted(function.qualname.rpartition(".<locals>.")[2], _NAME_LIMIT)


def check(model: ProjectModel, options: AsyncBlockingOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.content.blocking_calls import Resolver, Splitter, Tables, View
    from inwards_core.families.inw.content.content_names import Names, is_test_module

    resolver: Resolver | None = None
    for info in model.checked:
        if not options.applies_to(info.name):
            continue
        if not options.check_tests and is_test_module(info.name):
            continue
        # Only the modules holding `async ` were read up front (`content_words`).
        facts = model.content_held(info)
        if facts is None or not any(f.is_async for f in facts.functions):
            continue
        if resolver is None:
            tables = Tables.with_options(
                options.extend_blocking_types, options.extend_blocking_calls
            )
            resolver = Resolver(tables, Splitter(model))
        view = View(info.name, facts, Names.of(model, info))
        for function in facts.functions:
            if function.is_async:
                yield from _judge_function(resolver, info, view, function, options)


def _judge_function(
    resolver: Resolver,
    info: ModuleInfo,
    view: View,
    function: FunctionFact,
    options: AsyncBlockingOptions,
) -> Iterator[Violation]:
    for call in function.calls:
        if call.awaited or call.nested:
            continue
        block = resolver.block(view, function, call)
        if block is not None:
            yield _direct(info, function, block)
            continue
        helper = resolver.helper(view, call)
        if helper is None:
            continue
        helper_view, helper_function = helper
        if options.follow_modules and first_match(helper_view.name, options.follow_modules) is None:
            continue
        inner = next(resolver.blocks_in(helper_view, helper_function), None)
        if inner is not None:
            yield _hop(info, function, call, helper_view.name, helper_function, inner)


def _what(block: Block, line: bool = False) -> str:
    """What a blocking call does, after its name: `waits on a synchronous Redis client`;
    with `line`, the call is named with its line (a helper's)."""
    shown = f"`{quoted(block.call.callee, _NAME_LIMIT)}`"
    if line:
        shown = f"line {block.call.span.line}'s {shown}"
    verb = "waits on a" if block.method else "is a"
    return f"{shown} {verb} {block.noun}"


def _params(function: FunctionFact, call: CallFact, block: Block, **extra: str) -> dict[str, str]:
    params = {
        "call": quoted(call.callee, _NAME_LIMIT),
        "function": _enclosing(function),
        "noun": block.noun,
        "helper": "",
        "helper_call": "",
    }
    params.update(extra)
    return params


def _direct(info: ModuleInfo, function: FunctionFact, block: Block) -> Violation:
    message = (
        f"{_what(block)} inside `async def {_enclosing(function)}`: the event loop stops "
        "until it returns."
    )
    return Violation(
        file=info.file,
        module=info.name,
        span=block.call.span,
        message=message,
        variant="" if block.method else "call",
        params=_params(function, block.call, block),
    )


def _hop(
    info: ModuleInfo,
    function: FunctionFact,
    call: CallFact,
    helper_module: str,
    helper: FunctionFact,
    inner: Block,
) -> Violation:
    helper_name = quoted(helper.qualname, _NAME_LIMIT)
    callee = quoted(call.callee, _NAME_LIMIT)
    where = "" if helper_module == info.name else f" of `{quoted(helper_module)}`"
    subject = (
        f"`{callee}` is a plain function{where}"
        if callee.rpartition(".")[2] == helper_name
        else f"`{callee}` calls the plain function `{helper_name}`{where}"
    )
    message = (
        f"{subject}, where {_what(inner, line=True)}: called inside "
        f"`async def {_enclosing(function)}`, it stops the event loop until it returns."
    )
    return Violation(
        file=info.file,
        module=info.name,
        span=call.span,
        message=message,
        variant="hop",
        params=_params(
            function,
            call,
            inner,
            helper=helper_name,
            helper_call=quoted(inner.call.callee, _NAME_LIMIT),
        ),
    )


KIND = CheckKind(
    id="inw.async-blocking",
    summary="A synchronous database, cache, cloud or HTTP call inside `async def`.",
    options_type=AsyncBlockingOptions,
    check=check,
    reads=reads,
    guidance_params={
        "call": "the blocking call as written (for a helper, the call of the helper)",
        "function": "the `async def` it is in",
        "noun": "what the call waits on (`synchronous Redis client`, `blocking HTTP request "
        "(requests)`)",
        "helper": "the plain function one hop away whose body blocks (`hop` variant)",
        "helper_call": "the blocking call in that helper (`hop` variant)",
    },
    docs=DOCS,
    examples=examples,
)
