"""The page and the examples of FAPI003 (router-wiring)."""

from __future__ import annotations

from inwards_core import Example, KindDocs

DOCS = KindDocs(
    what_it_does="""
Reports three ways the routes of a FastAPI router go missing without an error:

- **unmounted**: a router bound to a name at module level (`router = APIRouter(...)`, or an
  instance of a subclass), with at least one path operation (its own, or of a router it
  includes), that no app reaches through
  `include_router` or `mount`, directly or through other routers. Reported on the
  `APIRouter(...)` call of the top router of each tree that no app reaches: a router that
  other routers include goes missing with them, and is not reported again (a cycle of
  unreached routers is reported as a cycle).
  The fix names the app that includes the most routers as the likely place.
- **cycle**: routers that include each other, directly or through others, or a router that
  includes itself. Each cycle is reported once, on the `include_router` call that closes
  it (the last of its calls in source order), with the whole cycle in the message. Recent
  FastAPI releases refuse such a call with an `AssertionError` when it runs (the app does
  not start); older ones accept it and serve whatever the order of the calls gave.
- **order**: at module level, `parent.include_router(child)` above `@child.get(...)`
  decorators of the same file. FastAPI releases whose `include_router` copies the routes
  the child holds when it runs (before 0.137) leave the routes declared below it out of
  the parent. Later releases include the router itself (by reference) and see later
  routes, but a
  project pinned to an older one, or a library supporting both, does not; turn this part
  off with `check-order = false` when only such recent releases matter.

It reads the project graph the FAPI family shares (`inwards_rules_fastapi/graph.py`): every
`FastAPI(...)` is an app, one built inside a factory function (`create_app()`) too, and
receivers and routers are resolved across files through imports, aliases and re-exports,
never by importing the project. A router that a receiver the graph cannot name includes
(the `app` parameter of a `register(app)` function) counts as reached. When an
`include_router` call's router cannot be named (a loop variable, a parameter, what a
project function returns), any router could be the one it includes: unknown means silent,
so by default there are then no unmounted findings at all; `unresolved-includes = "warn"`
keeps them, as warnings that name that call. (The default differs from inwards 0.7, which
warns: on Prefect's server, which includes its 29 routers in a loop over a tuple, every
one of those warnings was wrong.) A
project with no app at all (a library of routers) has no unmounted router, and a router
whose routes an operation passes as OpenAPI callbacks (`callbacks=router.routes`) is
documentation, not meant to be included.

```toml
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["FAPI003"]

[tool.inwards.rules.router-wiring]
entrypoints = ["shop.main:app"]
allow-unmounted = ["shop.experimental"]
unresolved-includes = "silent"
check-order = true
```

With `entrypoints` only the apps named count (`module:name`, the app's variable or the
function that builds it); an entry that names no app counts for nothing. Test modules are
not reported on unless `check-tests = true`; their apps count either way.
""",
    why_is_this_bad="""
A router that no app includes is a set of endpoints that do not exist: its tests call the
router or the functions directly and pass, FastAPI says nothing, and a linter that reads one
file at a time cannot know. An inclusion cycle stops a recent FastAPI at start-up, and
with an older one, like an inclusion above the routes, makes what an app serves depend on
the order the calls run in, which the next refactoring changes.
""",
    how_to_fix="""
Include an unmounted router where its sibling routers are included (the app's module or a
parent router), or list it in `allow-unmounted` when it is meant to stay out (a test-only
router, one kept for a later release). For a cycle, remove the inclusion that points back
up, towards the app. For an inclusion above the routes, move the `include_router` call
below the last route decorator, or into the module that builds the app.
""",
    limitations="""
Only what the graph reads: a router built by a factory function (`def make_router():
router = APIRouter() ...`) is never reported unmounted, nor one a library's app includes.
Wiring the graph cannot follow (`importlib`, `getattr`, a loop over a list, a router passed
as a parameter) is an unresolved inclusion, which silences the unmounted findings of the
whole project (or makes them warnings with `unresolved-includes = "warn"`). A conditional inclusion (`if
settings.DEBUG: ...`) counts as an inclusion. A cycle through wiring the graph cannot
follow is not seen. The order check looks at module-level calls and decorators of one
file only.
""",
)

_CONFIG = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["FAPI003"]
"""


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="A router nobody includes, and an inclusion above the routes",
            good=False,
            config=_CONFIG,
            files={
                "shop/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "from shop import orders\n\n"
                    "app = FastAPI()\n"
                    "app.include_router(orders.router)\n"
                ),
                "shop/orders.py": (
                    "from fastapi import APIRouter\n\n"
                    'router = APIRouter(prefix="/orders")\n'
                    'detail = APIRouter(prefix="/{order_id}")\n'
                    "router.include_router(detail)  # expect: FAPI003\n\n\n"
                    '@detail.get("/")\n'
                    "def read_order(order_id: int) -> int:\n"
                    "    return order_id\n"
                ),
                "shop/invoices.py": (
                    "from fastapi import APIRouter\n\n"
                    'router = APIRouter(prefix="/invoices")  # expect: FAPI003\n\n\n'
                    '@router.get("/{invoice_id}")\n'
                    "def read_invoice(invoice_id: int) -> int:\n"
                    "    return invoice_id\n"
                ),
            },
        ),
        Example(
            title="Two routers that include each other",
            good=False,
            config=_CONFIG,
            files={
                "shop/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "from shop.users import users\n\n"
                    "app = FastAPI()\n"
                    "app.include_router(users)\n"
                ),
                "shop/users.py": (
                    "from fastapi import APIRouter\n\n"
                    "users = APIRouter()\n"
                    "admins = APIRouter()\n\n\n"
                    '@admins.get("/admins")\n'
                    "def list_admins() -> list[str]:\n"
                    "    return []\n\n\n"
                    "users.include_router(admins)\n"
                    "admins.include_router(users)  # expect: FAPI003\n"
                ),
            },
        ),
        Example(
            title="Every router wired below its routes, through a re-export and a factory",
            good=True,
            config=_CONFIG,
            files={
                "shop/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "from shop.routers import orders_router\n\n\n"
                    "def create_app() -> FastAPI:\n"
                    "    app = FastAPI()\n"
                    '    app.include_router(orders_router, prefix="/orders")\n'
                    "    return app\n"
                ),
                "shop/routers/__init__.py": (
                    "from shop.routers.orders import router as orders_router\n\n"
                    '__all__ = ["orders_router"]\n'
                ),
                "shop/routers/orders.py": (
                    "from fastapi import APIRouter\n\n"
                    "router = APIRouter()\n\n\n"
                    '@router.get("/{order_id}")\n'
                    "def read_order(order_id: int) -> int:\n"
                    "    return order_id\n"
                ),
            },
        ),
    )
