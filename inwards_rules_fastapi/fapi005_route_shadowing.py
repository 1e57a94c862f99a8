"""fapi.route-shadowing: a path operation no request reaches, because an earlier one of
the same method, in the order the app holds its routes, answers every request it would."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core import (
    CheckKind,
    Example,
    KindDocs,
    ProjectModel,
    ReadScope,
    Scope,
    Violation,
    quoted,
)
from inwards_rules_fastapi.graph_options import GRAPH_SCOPE, GraphRuleOptions

if TYPE_CHECKING:
    from inwards_rules_fastapi.graph import Graph, Node, Route


class RouteShadowingOptions(GraphRuleOptions):
    """Where the rule reports, and whether it judges tests."""


def reads(options: RouteShadowingOptions) -> ReadScope:
    """Every module may hold an app or a router: the graph reads all that import FastAPI."""
    return GRAPH_SCOPE


GUIDANCE_PARAMS = {
    "route": 'the unreachable operation\'s decorator, shortened (`@router.get("/me")`)',
    "method": "the HTTP method (`GET`), or WEBSOCKET",
    "path": "its full path, every prefix applied (`/users/me`)",
    "earlier": "the decorator of the operation that answers first",
    "earlier_path": "that operation's full path",
    "earlier_at": "where that operation is declared, as `file:line`",
    "app": "the app (or the router no app includes) whose route list this is",
}


def check(model: ProjectModel, options: RouteShadowingOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.graph_reading import project_graph

    graph = project_graph(model)
    reported: set[tuple[str, int, int]] = set()
    for root in graph.roots():
        for violation in _shadowed_in(graph, root, options):
            key = (violation.file, violation.span.line, violation.span.column)
            if key not in reported:
                reported.add(key)
                yield violation


def _shadowed_in(graph: Graph, root: Node, options: RouteShadowingOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.route_paths import covers, known, normalised

    earlier: list[Route] = []
    for route in graph.routes(root.name):
        operation = route.operation
        if route.path is None or operation.methods is None or not known(route.path):
            earlier.append(route)
            continue
        first: list[Route] = []
        for method in operation.methods:
            found = next(
                (
                    before
                    for before in earlier
                    if before.path is not None
                    and before.operation is not operation
                    and not _custom(graph, before)
                    and before.operation.methods is not None
                    and method in before.operation.methods
                    and known(before.path)
                    and covers(before.path, route.path)
                ),
                None,
            )
            if found is None:
                break
            first.append(found)
        else:
            if first and options.reports_in(operation.module):
                repeat = all(normalised(f.path or "") == normalised(route.path) for f in first)
                yield _violation(root, route, first[0], repeat)
        earlier.append(route)


def _custom(graph: Graph, route: Route) -> bool:
    """The route may match requests its own way (see `Node.custom_routes`), on its own
    router or on one it was included through."""
    owners = [route.operation.owner, *(i.parent for i in route.via if i.parent is not None)]
    return any(graph.nodes[owner].custom_routes for owner in owners)


def _violation(root: Node, route: Route, first: Route, repeat: bool) -> Violation:
    operation = route.operation
    method = "/".join(operation.methods or ())
    before = first.operation
    at = f"{before.file}:{before.call.span.line}"
    where = f"{root.kind} `{quoted(root.name)}`"
    if repeat:
        message = (
            f"`{quoted(operation.spelling)}` ({method} {quoted(route.shown)}) repeats "
            f"`{quoted(before.spelling)}` at {quoted(at)}, which comes first in {where}: "
            "every request goes to that one, so this one never runs."
        )
    else:
        message = (
            f"`{quoted(operation.spelling)}` ({method} {quoted(route.shown)}) can never "
            f"be reached: `{quoted(before.spelling)}` ({method} {quoted(first.shown)}, at "
            f"{quoted(at)}) comes first in {where} and matches every request it would."
        )
    return Violation(
        file=operation.file,
        module=operation.module,
        span=operation.call.span,
        message=message,
        params={
            "route": operation.spelling,
            "method": method,
            "path": route.shown,
            "earlier": before.spelling,
            "earlier_path": first.shown,
            "earlier_at": at,
            "app": root.name,
        },
        stable_message=message.split(" at ", 1)[0],
        variant="repeat" if repeat else "",
    )


DOCS = KindDocs(
    what_it_does="""
Reports a FastAPI path operation that no request can reach, because an operation declared
before it, for the same HTTP method, matches every path it matches:

- **shadowed**: `GET /users/{user_id}` comes before `GET /users/me`, so a request for
  `/users/me` runs the first with `user_id = "me"`;
- **repeated**: the same method and path twice (parameter names don't count: `/u/{a}` and
  `/u/{b}` are one path).

The order is the one FastAPI holds: for each app (and each router no app or router of the
project includes), its own route decorators and its `include_router` calls in source
order, each included router's routes in place, with the prefixes of `APIRouter(prefix=...)`
and `include_router(..., prefix=...)` applied. The project graph the FAPI family shares
(`inwards_rules_fastapi/graph.py`) supplies it, across files.

Paths are compared segment by segment as Starlette matches them: `{id}` (or `{id:str}`)
matches any non-empty segment, `{id:int}` digits only, `{id:float}` digits with an optional
fraction, `{id:uuid}` a UUID, and `{rest:path}` at the end the rest of the path. A segment
mixing text and a parameter (`{name}.json`) is matched only by the same segment. An
operation serving several methods (`api_route(..., methods=[...])` with a literal list is
read as unknown) is reported only when each of its methods is answered earlier.

The finding sits on the unreachable operation's decorator and names the earlier one.
Test modules are skipped unless `check-tests = true`.
""",
    why_is_this_bad="""
Starlette tries an app's routes in order and the first match wins, silently. A handler
declared below a route that matches all its requests is dead code that looks alive: a test
that calls the function directly passes, the OpenAPI document lists the operation, and no
client can ever reach it.
""",
    how_to_fix="""
Declare the specific route before the general one (`/users/me` above `/users/{user_id}`),
or, across routers, include the router with the specific routes first. For a repeat,
decide which of the two is meant and give the other its own path or method; clients reach
the first one today.
""",
    limitations="""
Only what the project graph reads: route decorators and `add_api_route` calls on apps and
routers bound to names, and `include_router` calls whose router and prefix it can name. A
path or method list that is not a literal is unknown, and an unknown route neither
shadows nor is reported; a prefix that is not a literal is compared only with itself (two
routes under it still compare with each other). Mounted sub-applications (`mount`) are not compared, nor routes
added by libraries. A route of a router with a custom `route_class` (or of a first-party
subclass of APIRouter or FastAPI) may match requests its own way, so it never counts as
the earlier route. A route decorator inside a function on an app or router built outside
that function (a test adding a route to a module-level app) runs when the function is
called, if ever, and a function defined twice in one scope (`if`/`else` branches) has one
registration that never runs: neither is compared. Inclusions written in another file than
the app's own come after its own file's entries (their real order is the import order).
A route's `HEAD` answered by an earlier `GET` is not compared.
""",
)

_CONFIG = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["FAPI005"]
"""


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="A parameter route declared above a fixed one, across routers",
            good=False,
            config=_CONFIG,
            files={
                "shop/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "from shop import users\n\n"
                    "app = FastAPI()\n"
                    'app.include_router(users.router, prefix="/users")\n'
                ),
                "shop/users.py": (
                    "from fastapi import APIRouter\n\n"
                    "router = APIRouter()\n\n\n"
                    '@router.get("/{user_id}")\n'
                    "def read_user(user_id: str) -> str:\n"
                    "    return user_id\n\n\n"
                    '@router.get("/me")  # expect: FAPI005\n'
                    "def read_me() -> str:\n"
                    '    return "me"\n\n\n'
                    '@router.get("/{name}")  # expect: FAPI005\n'
                    "def read_by_name(name: str) -> str:\n"
                    "    return name\n"
                ),
            },
        ),
        Example(
            title="The fixed route first, and converters that don't overlap",
            good=True,
            config=_CONFIG,
            files={
                "shop/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "app = FastAPI()\n\n\n"
                    '@app.get("/items/me")\n'
                    "def my_items() -> list[int]:\n"
                    "    return []\n\n\n"
                    '@app.get("/items/{item_id:int}")\n'
                    "def read_item(item_id: int) -> int:\n"
                    "    return item_id\n\n\n"
                    '@app.get("/items/{slug}")\n'
                    "def read_by_slug(slug: str) -> str:\n"
                    "    return slug\n\n\n"
                    '@app.post("/items/{slug}")\n'
                    "def write_item(slug: str) -> str:\n"
                    "    return slug\n"
                ),
            },
        ),
    )


KIND = CheckKind(
    id="fapi.route-shadowing",
    summary="A FastAPI path operation that an earlier one of the same method always answers first.",
    options_type=RouteShadowingOptions,
    check=check,
    scope=Scope.PROJECT,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
