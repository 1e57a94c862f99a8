"""fapi.depends-called: `Depends(f())` where `f` is a generator, an `async def`, or a
function that returns plain values: the dependency is called once, at import."""

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
    from inwards_core import CallFact, FunctionFact, ModuleInfo
    from inwards_rules_fastapi.callee_names import Names

_NAME_LIMIT = 120
# What `FunctionFact.return_values` writes for a value that is never callable.
_PLAIN_RETURNS = frozenset({"<none>", "<value>"})


class DependsCalledOptions(FileRuleOptions):
    """No options of its own."""


def reads(options: DependsCalledOptions) -> ReadScope:
    """Content facts of the judged modules that import FastAPI; the called function's
    module is read on demand (one hop through imports)."""
    return file_scope(options.modules)


_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "api", modules = ["shop.api"] },\n'
    "]\n\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["FAPI009"]\n'
)


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="A session generator called inside Depends",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/db.py": (
                    "from collections.abc import Iterator\n\n"
                    "from sqlalchemy.orm import Session\n\n"
                    "from shop.api.engine import engine\n\n\n"
                    "def get_db() -> Iterator[Session]:\n"
                    "    with Session(engine) as session:\n"
                    "        yield session\n"
                ),
                "shop/api/engine.py": "engine = None\n",
                "shop/api/orders.py": (
                    "from fastapi import APIRouter, Depends\n\n"
                    "from shop.api.db import get_db\n\n"
                    "router = APIRouter()\n\n\n"
                    '@router.get("/orders")\n'
                    "def list_orders(db=Depends(get_db())):  # expect: FAPI009\n"
                    "    return db.query()\n"
                ),
            },
        ),
        Example(
            title="Settings read once, and a coroutine never awaited",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/users.py": (
                    "from typing import Annotated\n\n"
                    "from fastapi import APIRouter, Depends, Security\n\n"
                    "router = APIRouter()\n\n\n"
                    "def get_settings():\n"
                    '    return {"region": "eu"}\n\n\n'
                    "async def current_user():\n"
                    '    return "alice"\n\n\n'
                    '@router.get("/me")\n'
                    "async def me(\n"
                    "    settings: Annotated[dict, Depends(get_settings())],  # expect: FAPI009\n"
                    "    user: str = Security(current_user()),  # expect: FAPI009\n"
                    ") -> str:\n"
                    "    return user\n"
                ),
            },
        ),
        Example(
            title="Factories that return the dependency pass",
            good=True,
            config=_CONFIG,
            files={
                "shop/api/auth.py": (
                    "from fastapi import APIRouter, Depends, Header\n\n"
                    "router = APIRouter()\n\n\n"
                    "def require_role(role: str):\n"
                    "    def check(x_role: str = Header()) -> None:\n"
                    "        if x_role != role:\n"
                    '            raise PermissionError("forbidden")\n\n'
                    "    return check\n\n\n"
                    "def limit(count: int):\n"
                    "    return lambda: count\n\n\n"
                    '@router.get("/admin", dependencies=[Depends(require_role("admin"))])\n'
                    "def admin(page: int = Depends(limit(10))) -> int:\n"
                    "    return page\n"
                ),
            },
        ),
    )


DOCS = KindDocs(
    what_it_does="""
Reports `Depends(f())` and `Security(f())` (a FastAPI dependency written with the call
parentheses) where `f` is a function of the project that cannot give FastAPI a dependency
when it is called:

- a generator (`def` or `async def` with `yield`): the call makes one generator object;
- an `async def`: the call makes one coroutine object, never awaited;
- a function whose every `return` gives a plain value (a literal, a collection, an f-string,
  arithmetic, `None`, or no `return` at all).

`Depends` and `Security` are recognised through the file's imports (from `fastapi`,
`fastapi.params` or `fastapi.param_functions`), in parameter defaults and annotations
(`Annotated[Session, Depends(get_db())]`), in decorator arguments
(`dependencies=[Depends(...)]`), in bodies and at module level. `f` is resolved through
the file's imports, one hop into another module of the project (re-exports followed).
A factory that returns a callable passes: one that returns a nested `def`, a `lambda`, a
function or class, an instance (`Checker()`), or anything the rule cannot classify.
Test modules are skipped unless `check-tests = true`.

```toml
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "api", modules = ["shop.api"] },
]

[tool.inwards.rules]
extend-select = ["FAPI009"]

[tool.inwards.rules.depends-called]
modules = ["shop.api"]
```
""",
    why_is_this_bad="""
`Depends` takes the dependency itself and calls it on every request. With the parentheses,
the function runs once, when the line runs (at import, for a parameter default), and FastAPI
receives what it returned: a generator object, a coroutine object or a plain value, none of
which it can call. The app then fails as soon as the route is declared, with an assertion
or a `TypeError` from `inspect` that names neither the dependency nor the parentheses, and
a coroutine made this way never runs at all (Python only warns that it was never awaited).
The rule points at the line instead.
""",
    how_to_fix="""
Pass the function without calling it: `Depends(get_db)`. When the dependency needs
arguments, make `f` a factory that returns a function (or an instance with `__call__`)
and call the factory: `Depends(require_role("admin"))` where `require_role` returns the
checker. For a value computed once on purpose, use a module-level constant or
`functools.lru_cache` on the dependency, and still pass the function.
""",
    limitations="""
Only functions of the project are judged: `f` must be a top-level `def` of the file or of
a module it imports (one hop, re-exports followed); a method (`self.f()`, `obj.f()`), a
class call (`Depends(Settings())`) or a library's function is never reported, nor is a call
given by keyword (`Depends(dependency=f())`). Only files that import FastAPI are read for
`Depends`. A function
returning a name, a call or anything else the rule cannot tell is plain passes. The
function's module is read through the content facts, which parse only a file whose text
holds one of a few fixed words (`yield`, `async `, `@`, `class `, ...): a helper in a file
with none of them is not seen.
""",
)


def check(model: ProjectModel, options: DependsCalledOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.callee_names import Names
    from inwards_rules_fastapi.dependency_calls import dependency_calls
    from inwards_rules_fastapi.graph_reading import fastapi_modules

    infos = [info for info in fastapi_modules(model) if options.applies_to(info.name)]
    model.read_content_of(infos)
    for info in infos:
        facts = model.content(info)
        if facts is None or not facts.parsed:
            continue
        names = Names.of(model, info)
        for call in dependency_calls(facts, names):
            found = _judged(model, names, call)
            if found is not None:
                yield _violation(info, call, *found)


def _called_name(call: CallFact) -> str:
    """`get_db` of `Depends(get_db())`, "" when the argument is no call of a name chain."""
    from inwards_rules_fastapi.dependency_calls import dependency_argument

    written = dependency_argument(call)
    if not written.endswith("()"):
        return ""
    name = written[:-2]
    return name if name and "(" not in name and not name.startswith('"') else ""


def _judged(model: ProjectModel, names: Names, call: CallFact) -> tuple[str, str] | None:
    """(the called name as written, the variant) when the call is reported."""
    from inwards_rules_fastapi.callee_names import find_definition

    written = _called_name(call)
    if not written:
        return None
    found = find_definition(model, names.qualify(written))
    if found is None or found.function is None:
        return None
    variant = _variant(found.function)
    return None if variant is None else (written, variant)


def _variant(function: FunctionFact) -> str | None:
    if function.yields:
        return "generator"
    if function.is_async:
        return "coroutine"
    if function.trivial:
        return None
    if all(value in _PLAIN_RETURNS for value in function.return_values):
        return "plain"
    return None


def _violation(info: ModuleInfo, call: CallFact, written: str, variant: str) -> Violation:
    function = quoted(written, _NAME_LIMIT)
    shown = f"{quoted(call.callee, _NAME_LIMIT)}({function}())"
    what = {
        "generator": f"`{function}` is a generator, so `{shown}` hands FastAPI one "
        "generator object, made once when this line runs, not a dependency to run per "
        "request",
        "coroutine": f"`{function}` is an `async def`, so `{shown}` hands FastAPI one "
        "coroutine object, made once when this line runs and never awaited, not a "
        "dependency",
        "plain": f"`{function}` returns a plain value, not a callable, so `{shown}` runs it "
        "once, when this line runs, and hands FastAPI its result",
    }[variant]
    return Violation(
        file=info.file,
        module=info.name,
        span=call.span,
        message=f"{what}: pass the function itself, `{quoted(call.callee)}({function})`.",
        variant="" if variant == "generator" else variant,
        params={"call": shown, "function": function, "depends": quoted(call.callee)},
    )


KIND = CheckKind(
    id="fapi.depends-called",
    summary="`Depends(f())` where `f` is a generator, an `async def` or returns a plain value.",
    options_type=DependsCalledOptions,
    check=check,
    reads=reads,
    guidance_params={
        "call": "the dependency as written (`Depends(get_db())`)",
        "function": "the function called inside it (`get_db`)",
        "depends": "`Depends` or `Security`, as written",
    },
    docs=DOCS,
    examples=examples,
)
