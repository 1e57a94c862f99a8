"""The project's FastAPI structure, shared by the FAPI rules: apps, routers, the path
operations declared on them and the `include_router` / `mount` calls that wire them.

Built once per run (`graph_reading.project_graph(model)`, through `ProjectModel.shared`) from the content
facts (`inwards_core.ContentFacts`) of every checked module that imports `fastapi`, across
files, without importing the project. What it holds:

- **Nodes** (`Node`): each `FastAPI(...)` ("app") and `APIRouter(...)` ("router") bound to
  a name, or an instance of a first-party subclass of either. A node is named by the
  canonical dotted name of what it is bound to: `shop.api.users.router` for a module-level
  `router = APIRouter()` in `shop/api/users.py`; `shop.main.create_app.app` for `app =
  FastAPI()` inside the factory `create_app` (`factory` then holds the function's
  qualname). `keywords` are the constructor's keyword arguments as content facts write
  their values: a dotted name, a string literal in double quotes, the repr of a number,
  bool or None, or "" for anything else (`openapi_url=None` is `"None"`; `lifespan=`,
  `responses=`, `dependencies=`, `tags=`, `route_class=` are there by name).
- **Operations** (`Operation`): each route decorator (`@router.get("/x")`, `post`, `put`,
  `delete`, `patch`, `options`, `head`, `trace`, `api_route`, `websocket`) and each
  `add_api_route("/x", endpoint)` call on a node: HTTP methods, path, keyword arguments
  (`operation_id`, `status_code`, `responses`, `dependencies`, `include_in_schema`, ...),
  the decorated `FunctionFact` and the decorator's `CallFact`. A method list or a path that
  is not a literal is None: unknown.
- **Inclusions** (`Inclusion`): each `X.include_router(Y, prefix=...)` and `X.mount("/p",
  Y)`, at module level or in a function, with the receiver and target resolved to nodes
  where they can be. A receiver the graph cannot name (the `app` parameter of a
  `register(app)` function) is None; what it includes still counts as reached. A target
  that could be a project router but cannot be named (a loop variable, a parameter, a
  first-party factory's result) marks the inclusion `unresolved`; a library's router
  (`fastapi_users.get_auth_router(...)`) is neither a node nor unresolved.
- **Exception handlers** (`Graph.handlers`): `add_exception_handler(E, f)` calls and
  `@app.exception_handler(E)` decorators, by receiving node.
- **Callback routers** (`Graph.callback_routers`): routers whose `.routes` a decorator or
  call passes as `callbacks=` (OpenAPI callbacks: documented, never included).

Registrations whose order the graph cannot know are left out of `operations`: a route
decorator inside a function on a node built outside that function (a test that adds a
route to a module-level app runs when it is called, if at all), and a decorated function
whose name the same scope defines twice unless it is a module-level `def` at the margin
(`if`/`else` branches, of which one runs, are left out; two unconditional defs of one name
both register their routes, and each is judged).

Names are resolved through each module's imports, aliases included, and re-exports are
followed up to `graph_names.REEXPORT_HOPS` hops (`from .users import router` in a package's
`__init__`). Unknown means silent: a rule never reports on a guess, so a node, path or
prefix the graph cannot read is left out of whatever it would have decided.

`Graph.routes(root)` lists what a node serves in the order FastAPI holds it: its own
operations and the routes of each router it includes, in source order, with every prefix
applied (see `Route`); FAPI005 and FAPI008 read it, FAPI003 reads the inclusion edges.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from inwards_core import (
    CallFact,
    FunctionFact,
    Span,
    is_test_module,
)

APP_CLASSES = frozenset({"fastapi.FastAPI", "fastapi.applications.FastAPI"})
ROUTER_CLASSES = frozenset({"fastapi.APIRouter", "fastapi.routing.APIRouter"})
HTTP_METHODS = ("get", "post", "put", "delete", "patch", "options", "head", "trace")
ROUTE_CALLS = frozenset({*HTTP_METHODS, "api_route", "websocket"})
ADD_ROUTE_CALLS = frozenset({"add_api_route", "add_api_websocket_route"})
WEBSOCKET = "WEBSOCKET"  # the "method" of a websocket route: matched apart from HTTP
# Marks a prefix that is not a literal in a `Route.path`: `\x00<n>\x00`, one number per
# place it is applied, so that two routes under the same unknown prefix still compare and a
# route under it is never taken to match anything else (`route_paths` compares such a
# segment only with the same segment).
UNKNOWN_PREFIX = "\x00"


def literal(value: str) -> str | None:
    """The text of a string literal as content facts write it (`'"/users"'`), or None."""
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        return value[1:-1]
    return None


@attrs.frozen
class Node:
    """An app or a router (see the module's docstring)."""

    name: str
    kind: str  # "app" or "router"
    module: str
    file: str
    span: Span
    keywords: Mapping[str, str]
    factory: str = ""  # the qualname of the function that builds it; "" at module level
    # Built by FastAPI's own class (not a first-party subclass, which may match routes its
    # own way).
    standard: bool = True

    @property
    def custom_routes(self) -> bool:
        """Routes of this node may match requests their own way: a first-party subclass,
        or `route_class=` set to something else than FastAPI's APIRoute."""
        route_class = self.keywords.get("route_class")
        return not self.standard or (
            route_class is not None and route_class.rpartition(".")[2] != "APIRoute"
        )

    @property
    def prefix(self) -> str | None:
        """`prefix=` of an APIRouter ("" without one); None when it is not a literal."""
        if self.kind == "app" or "prefix" not in self.keywords:
            return ""
        return literal(self.keywords["prefix"])

    @property
    def test(self) -> bool:
        return is_test_module(self.module)


@attrs.frozen
class Operation:
    """A path operation declared on `owner` (a node's name)."""

    owner: str
    methods: tuple[str, ...] | None  # upper case; None: unknown
    path: str | None  # as written, before any prefix; None: unknown
    call: CallFact  # the decorator, or the add_api_route call
    function: FunctionFact | None  # None for add_api_route
    module: str
    file: str
    keywords: Mapping[str, str]

    @property
    def spelling(self) -> str:
        """How the decorator reads, shortened: `@router.get("/me")`."""
        path = "..." if self.path is None else f'"{self.path}"'
        at = "@" if self.function is not None else ""
        return f"{at}{self.call.callee}({path})"


@attrs.frozen
class Inclusion:
    """`parent.include_router(child, prefix=...)` or `parent.mount("/p", child)`."""

    parent: str | None  # None: a receiver the graph cannot name
    child: str | None  # None: not a node of the graph
    how: str  # "include_router" or "mount"
    call: CallFact
    module: str
    file: str
    scope: str  # "" at module level, else the qualname of the function it is in
    prefix: str | None  # "" without one; None when it is not a literal
    unresolved: bool  # the target could be a project router the graph cannot name


@attrs.frozen
class Route:
    """An operation as one node serves it: `path` with every prefix on the way applied
    (None when the operation's own path is unknown; an unknown prefix is a placeholder,
    see UNKNOWN_PREFIX), `via` the inclusions that brought it in."""

    operation: Operation
    path: str | None
    via: tuple[Inclusion, ...]

    @property
    def shown(self) -> str:
        """The path for a message: an unknown prefix shows as `{...}`."""
        if self.path is None:
            return "..."
        return re.sub(f"{UNKNOWN_PREFIX}[0-9]+{UNKNOWN_PREFIX}", "{...}", self.path)


@attrs.frozen
class Graph:
    nodes: Mapping[str, Node]
    operations: Mapping[str, tuple[Operation, ...]]  # by owner, in source order
    inclusions: tuple[Inclusion, ...]
    handlers: Mapping[str, tuple[str, ...]]  # by node: exception names as written
    # Routers whose routes serve as OpenAPI callbacks (`callbacks=router.routes`): they
    # are documented, never included.
    callback_routers: frozenset[str] = frozenset()

    def children(self, name: str) -> list[Inclusion]:
        """The inclusions whose receiver is `name`, in source order."""
        return [i for i in self.inclusions if i.parent == name and i.child is not None]

    def roots(self) -> list[Node]:
        """The apps, and each router no node of the graph includes: what FastAPI serves
        as a whole, as far as the project shows."""
        included = {i.child for i in self.inclusions if i.parent is not None}
        return [
            node for node in self.nodes.values() if node.kind == "app" or node.name not in included
        ]

    def routes(self, root: str) -> list[Route]:
        """The routes `root` serves, in the order FastAPI tries them (see `_walk`)."""
        found: list[Route] = []
        self._walk(root, "", (), found, frozenset(), [0])
        return found

    def _walk(
        self,
        name: str,
        prefix: str,
        via: tuple[Inclusion, ...],
        found: list[Route],
        seen: frozenset[str],
        unknowns: list[int],
    ) -> None:
        # The node's own decorators and its inclusions, in source order: include_router
        # copies the routes the child holds, at the place of the call. Entries written in
        # another file than the node's come after its own file's (their order is the
        # import order, which the graph does not know). A cycle stops the walk. A prefix
        # that is not a literal becomes a placeholder of its own (see UNKNOWN_PREFIX).
        node = self.nodes[name]
        base = prefix + _known_or_placeholder(node.prefix, unknowns)
        entries: list[tuple[tuple[bool, str, int, int], Operation | Inclusion]] = []
        for operation in self.operations.get(name, ()):
            entries.append((_order(node, operation.file, operation.call.span), operation))
        for inclusion in self.children(name):
            if inclusion.how == "include_router":
                entries.append((_order(node, inclusion.file, inclusion.call.span), inclusion))
        for _, entry in sorted(entries, key=lambda item: item[0]):
            if isinstance(entry, Operation):
                path = None if entry.path is None else base + entry.path
                found.append(Route(entry, path, via))
            elif entry.child is not None and entry.child not in seen:
                added = base + _known_or_placeholder(entry.prefix, unknowns)
                self._walk(entry.child, added, (*via, entry), found, seen | {name}, unknowns)


def _known_or_placeholder(prefix: str | None, unknowns: list[int]) -> str:
    if prefix is not None:
        return prefix
    unknowns[0] += 1
    return f"{UNKNOWN_PREFIX}{unknowns[0]}{UNKNOWN_PREFIX}"


def _order(node: Node, file: str, span: Span) -> tuple[bool, str, int, int]:
    return (file != node.file, file, span.line, span.column)
