"""fapi.lifespan-events: startup and shutdown handlers registered the deprecated way, and
never run when the same app or router also sets `lifespan=`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core import (
    CheckKind,
    KindDocs,
    ProjectModel,
    ReadScope,
    Severity,
    Violation,
    quoted,
)
from inwards_rules_fastapi.fapi006_examples import examples
from inwards_rules_fastapi.file_options import FileRuleOptions, file_scope

if TYPE_CHECKING:
    from inwards_rules_fastapi.lifespan_sites import Site

_NAME_LIMIT = 120


class LifespanEventsOptions(FileRuleOptions):
    """No options of its own."""


def reads(options: LifespanEventsOptions) -> ReadScope:
    """Content facts of the judged modules that import FastAPI (the project graph), and of
    the modules that import one of its apps or routers, read on demand."""
    return file_scope(options.modules)


DOCS = KindDocs(
    what_it_does="""
Reports startup and shutdown handlers registered the way FastAPI has deprecated:

- `@app.on_event("startup")` on a function (or `"shutdown"`);
- `app.add_event_handler("startup", handler)`, at module level or in a function;
- `FastAPI(on_startup=[...], on_shutdown=[...])` and `APIRouter(on_startup=[...])`.

Each is a warning. It is an error when the app or router that receives the handlers also
sets `lifespan=`: FastAPI then runs the lifespan alone, and the handlers never run.

The receiver (`app`, `router`) is resolved through the file's imports to an app or router
of the project (`app = FastAPI()` in this module, in the enclosing factory function, or
imported from another module, re-exports followed), or is a parameter annotated
`FastAPI` or `APIRouter`. Test modules are skipped unless `check-tests = true`.

```toml
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "api", modules = ["shop.api"] },
]

[tool.inwards.rules]
extend-select = ["FAPI006"]
```
""",
    why_is_this_bad="""
FastAPI wants one `lifespan` function instead: `on_event` is deprecated (it warns), and
`add_event_handler`, `on_startup` and `on_shutdown`, which Starlette has dropped, are kept
by FastAPI for backward compatibility only, marked to be deprecated and removed: code
written this way depends on a compatibility layer. Worse, the two styles don't mix: once `lifespan=` is set,
handlers registered the old way are silently skipped, so the database pool is never opened
or the cache never flushed, and nothing says so.
""",
    how_to_fix="""
Write one `lifespan` async context manager: the code before its `yield` runs at startup,
the code after it at shutdown, and what it yields is the app's state. Pass it as
`FastAPI(lifespan=lifespan)` and move every handler into it.

```python
from contextlib import asynccontextmanager

@asynccontextmanager
async def lifespan(app: FastAPI):
    await database.connect()
    yield
    await database.disconnect()

app = FastAPI(lifespan=lifespan)
```
""",
    limitations="""
A receiver the rule cannot resolve (an attribute such as `self.app`, a parameter without an
annotation, an app made by a library) is not judged, nor are handlers appended to
`app.router.on_startup` by hand. Only the receiver's own `lifespan=` makes a finding an
error: current FastAPI merges an included router's default lifespan into the app's, so a
router's handlers still run under an app with a lifespan. A `lifespan=None` counts as not
set; any other value, even one the rule cannot read, counts as set. The message says "the
deprecated way" for every form, though FastAPI (0.163.2) warns only for `on_event`.
""",
)


def check(model: ProjectModel, options: LifespanEventsOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.lifespan_sites import sites

    for site in sites(model):
        if options.applies_to(site.module):
            yield _violation(site)


def _violation(site: Site) -> Violation:
    shown = quoted(site.spelling, _NAME_LIMIT)
    target = quoted(site.target, _NAME_LIMIT)
    if site.lifespan:
        message = (
            f"`{shown}` registers {site.what} on `{target}`, which also sets `lifespan=`: "
            "FastAPI runs the lifespan alone and these handlers never run."
        )
    else:
        message = (
            f"`{shown}` registers {site.what} the deprecated way: move the code into "
            f"the `lifespan` function of `{target}`."
        )
    return Violation(
        file=site.file,
        module=site.module,
        span=site.span,
        message=message,
        severity=None if site.lifespan else Severity.WARNING,
        variant="lifespan" if site.lifespan else "",
        params={"call": shown, "target": target},
    )


KIND = CheckKind(
    id="fapi.lifespan-events",
    summary="Deprecated startup and shutdown handlers, and handlers a `lifespan=` silences.",
    options_type=LifespanEventsOptions,
    check=check,
    reads=reads,
    guidance_params={
        "call": 'the registration as written (`@app.on_event("startup")`, '
        "`FastAPI(on_startup=...)`)",
        "target": "the app or router that receives the handlers",
    },
    docs=DOCS,
    examples=examples,
)
