"""fapi.yield-dependency-swallows: an `except` around the one `yield` of a FastAPI
dependency that can end without raising, so the endpoint's error disappears there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core import (
    CheckKind,
    Example,
    KindDocs,
    ProjectModel,
    ReadScope,
    Violation,
    quoted,
)
from inwards_rules_fastapi.file_options import FileRuleOptions, file_scope

if TYPE_CHECKING:
    from inwards_core import FunctionFact, HandlerFact, ModuleInfo
    from inwards_rules_fastapi.callee_names import Found

_NAME_LIMIT = 120
# Decorators that make a generator something other than a dependency FastAPI drives.
_NOT_DEPENDENCY = frozenset({"contextmanager", "asynccontextmanager", "fixture"})


class YieldDependencySwallowsOptions(FileRuleOptions):
    """No options of its own."""


def reads(options: YieldDependencySwallowsOptions) -> ReadScope:
    """Content facts of the judged modules that import FastAPI (where `Depends` is
    written); a dependency's own module is read on demand."""
    return file_scope(options.modules)


_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "api", modules = ["shop.api"] },\n'
    "]\n\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["FAPI007"]\n'
)


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="A session dependency that rolls back and carries on",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/db.py": (
                    "from shop.api.engine import SessionLocal\n\n\n"
                    "def get_db():\n"
                    "    db = SessionLocal()\n"
                    "    try:\n"
                    "        yield db\n"
                    "    except Exception:  # expect: FAPI007\n"
                    "        db.rollback()\n"
                    "    finally:\n"
                    "        db.close()\n"
                ),
                "shop/api/engine.py": "SessionLocal = None\n",
                "shop/api/orders.py": (
                    "from fastapi import APIRouter, Depends\n\n"
                    "from shop.api.db import get_db\n\n"
                    "router = APIRouter()\n\n\n"
                    '@router.get("/orders")\n'
                    "def list_orders(db=Depends(get_db)):\n"
                    "    return db.query()\n"
                ),
            },
        ),
        Example(
            title="A handler that raises only on one branch",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/deps.py": (
                    "from typing import Annotated\n\n"
                    "from fastapi import Depends, HTTPException\n\n\n"
                    "async def get_client():\n"
                    "    client = object()\n"
                    "    try:\n"
                    "        yield client\n"
                    "    except (KeyError, HTTPException) as error:  # expect: FAPI007\n"
                    "        if isinstance(error, KeyError):\n"
                    "            raise\n\n\n"
                    "ClientDep = Annotated[object, Depends(get_client)]\n"
                ),
            },
        ),
        Example(
            title="Handlers that re-raise, and a stream, pass",
            good=True,
            config=_CONFIG,
            files={
                "shop/api/deps.py": (
                    "from fastapi import Depends, FastAPI, HTTPException\n\n"
                    "app = FastAPI()\n\n\n"
                    "def get_db():\n"
                    "    db = object()\n"
                    "    try:\n"
                    "        yield db\n"
                    "    except HTTPException:\n"
                    "        raise\n"
                    "    except Exception as error:\n"
                    '        raise RuntimeError("database failed") from error\n\n\n'
                    "def numbers():\n"
                    "    for n in range(3):\n"
                    "        try:\n"
                    "            yield n\n"
                    "        except ValueError:\n"
                    "            pass\n\n\n"
                    '@app.get("/")\n'
                    "def read(db=Depends(get_db), n=Depends(numbers)) -> None: ...\n"
                ),
            },
        ),
    )


DOCS = KindDocs(
    what_it_does="""
Reports an `except` handler around the `yield` of a FastAPI dependency with `yield` when
some path through the handler ends without raising: no `raise` (bare, a new exception, or
`raise ... from ...`) on every branch of its body.

A dependency here is a generator function of the project (`def` or `async def` with
exactly one `yield`, not inside a loop) that a `Depends(...)` or `Security(...)` in a file
importing FastAPI names: in a parameter default or annotation, in `dependencies=[...]`, or
in a module-level alias (`SessionDep = Annotated[Session, Depends(get_db)]`). The name is
resolved through that file's imports, into any module of the project (re-exports
followed). Generators decorated with `contextmanager`, `asynccontextmanager` or `fixture`
are not dependencies FastAPI drives and are skipped, as are streams (more than one
`yield`, or a `yield` in a loop) and a handler of `GeneratorExit` alone (the generator is
being closed, not handed an error). Test modules are skipped unless `check-tests = true`.

```toml
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "api", modules = ["shop.api"] },
]

[tool.inwards.rules]
extend-select = ["FAPI007"]
```
""",
    why_is_this_bad="""
FastAPI throws an exception raised by the endpoint (or by a later dependency) into the
dependency at its `yield`. A handler there that does not raise again swallows it: FastAPI's
exception handlers never see it, the error and its traceback are lost (recent FastAPI
raises a generic "Response not awaited" error in its place, older versions log nothing),
and the client gets a bare `500 Internal Server Error`, even for an `HTTPException` that
was meant to become a `404`. The cause is very hard to find afterwards.
""",
    how_to_fix="""
End every path of the handler with `raise` (the same exception) or with `raise
SomeError(...) from error`, after the cleanup it does (`db.rollback()`). Cleanup that
must run whatever happens belongs in `finally`, which needs no `except` at all.
""",
    limitations="""
Only a `Depends`/`Security` of FastAPI naming a top-level function is followed: a
dependency given as a class, a method, an instance, or only through
`app.dependency_overrides`, is not judged, nor is a generator no `Depends` names in a
file that imports FastAPI. "Raises
on every path" is read from the handler's own statements: `if`/`else`, `with`, `try` and
`match` branches are followed, but a call to a helper that always raises, `sys.exit()` or
an `assert False` counts as ending without raising. The dependency's module is read
through the content facts, which parse only a file whose text holds one of a few fixed
words (`yield`, `async `, `@`, `class `, ...).
""",
)


def check(model: ProjectModel, options: YieldDependencySwallowsOptions) -> Iterator[Violation]:
    checked = {info.file for info in model.checked}
    for found in _dependencies(model, options):
        if found.info.file not in checked or not options.applies_to(found.info.name):
            continue
        function = found.function
        if function is None or not _is_single_yield_dependency(function):
            continue
        for attempt in function.yield_tries:
            for handler in attempt.handlers:
                if not handler.reraises and not _only_closing(handler):
                    yield _violation(found.info, function, handler)


def _dependencies(model: ProjectModel, options: YieldDependencySwallowsOptions) -> list[Found]:
    """The functions the checked files' `Depends`/`Security` calls name, each once, in the
    order of their modules and lines."""
    from inwards_rules_fastapi.callee_names import Names, find_definition
    from inwards_rules_fastapi.dependency_calls import dependency_argument, dependency_calls
    from inwards_rules_fastapi.graph_reading import fastapi_modules

    targets: set[str] = set()
    infos = fastapi_modules(model)  # `Depends` comes from FastAPI: only they can write it
    model.read_content_of(infos)
    for info in infos:
        facts = model.content(info)
        if facts is None or not facts.parsed:
            continue
        names = Names.of(model, info)
        for call in dependency_calls(facts, names):
            written = dependency_argument(call)
            if written and not written.startswith('"') and "(" not in written:
                targets.add(names.qualify(written))
    found: dict[tuple[str, str], Found] = {}
    for target in sorted(targets):
        definition = find_definition(model, target)
        if definition is not None and definition.function is not None:
            found.setdefault((definition.info.name, definition.name), definition)
    return [
        definition
        for _, definition in sorted(
            found.items(),
            key=lambda item: (
                item[0][0],
                item[1].function.span.line if item[1].function is not None else 0,
            ),
        )
    ]


def _only_closing(handler: HandlerFact) -> bool:
    """`except GeneratorExit`: the generator is being closed, not handed an error; ending
    there is how a generator finishes."""
    return bool(handler.caught) and all(
        name.rpartition(".")[2] == "GeneratorExit" for name in handler.caught
    )


def _is_single_yield_dependency(function: FunctionFact) -> bool:
    if function.yields != 1 or function.yield_in_loop or not function.yield_tries:
        return False
    return not any(
        decorator.callee.rpartition(".")[2] in _NOT_DEPENDENCY for decorator in function.decorators
    )


def _violation(info: ModuleInfo, function: FunctionFact, handler: HandlerFact) -> Violation:
    name = quoted(function.qualname, _NAME_LIMIT)
    caught = ", ".join(quoted(c, _NAME_LIMIT) for c in handler.caught) or "everything"
    written = f"({caught})" if len(handler.caught) > 1 else caught
    clause = f"except {written}" if handler.caught else "bare `except`"
    shown = f"`{clause}`" if handler.caught else clause
    message = (
        f"The {shown} around the `yield` of the dependency `{name}` can end without raising: "
        "an error from the endpoint stops there, unseen by FastAPI's exception handlers "
        "and the log, and the client gets a bare 500."
    )
    return Violation(
        file=info.file,
        module=info.name,
        span=handler.span,
        message=message,
        params={"function": name, "caught": caught},
    )


KIND = CheckKind(
    id="fapi.yield-dependency-swallows",
    summary="An `except` around a dependency's `yield` that can end without raising.",
    options_type=YieldDependencySwallowsOptions,
    check=check,
    reads=reads,
    guidance_params={
        "function": "the dependency with `yield`",
        "caught": "what the handler catches (`Exception`, `everything` for a bare except)",
    },
    docs=DOCS,
    examples=examples,
)
