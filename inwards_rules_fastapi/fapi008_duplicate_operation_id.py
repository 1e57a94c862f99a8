"""fapi.duplicate-operation-id: one literal `operation_id` on two path operations that
the same app serves."""

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
    from inwards_rules_fastapi.graph import Graph, Node, Operation


class DuplicateOperationIdOptions(GraphRuleOptions):
    """Where the rule reports, and whether it judges tests."""


def reads(options: DuplicateOperationIdOptions) -> ReadScope:
    """Every module may hold an app or a router: the graph reads all that import FastAPI."""
    return GRAPH_SCOPE


GUIDANCE_PARAMS = {
    "operation_id": "the operation id both operations set",
    "route": 'the later operation\'s decorator, shortened (`@router.get("/a")`)',
    "earlier": "the decorator of the first operation with that id",
    "earlier_at": "where the first one is declared, as `file:line`",
    "app": "the app (or the router no app includes) that serves both",
}


def check(model: ProjectModel, options: DuplicateOperationIdOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.graph_reading import project_graph

    graph = project_graph(model)
    reported: set[tuple[str, int, int]] = set()
    for root in graph.roots():
        for violation in _duplicates_in(graph, root, options):
            key = (violation.file, violation.span.line, violation.span.column)
            if key not in reported:
                reported.add(key)
                yield violation


def _duplicates_in(
    graph: Graph, root: Node, options: DuplicateOperationIdOptions
) -> Iterator[Violation]:
    from inwards_rules_fastapi.graph import literal

    first: dict[str, Operation] = {}
    for route in graph.routes(root.name):
        operation = route.operation
        value = literal(operation.keywords.get("operation_id", ""))
        if not value:
            continue
        earlier = first.setdefault(value, operation)
        # The same decorator reached twice (a router included twice) is FastAPI's own
        # duplicate, with no second line to point at: left out.
        if earlier is operation or not options.reports_in(operation.module):
            continue
        yield _violation(root, operation, earlier, value)


def _violation(root: Node, operation: Operation, earlier: Operation, value: str) -> Violation:
    at = f"{earlier.file}:{earlier.call.span.line}"
    message = (
        f'`{quoted(operation.spelling)}` sets operation_id "{quoted(value)}", which '
        f"`{quoted(earlier.spelling)}` at {quoted(at)} already uses in {root.kind} "
        f"`{quoted(root.name)}`: its OpenAPI document gets one id for two operations."
    )
    return Violation(
        file=operation.file,
        module=operation.module,
        span=operation.call.span,
        message=message,
        params={
            "operation_id": value,
            "route": operation.spelling,
            "earlier": earlier.spelling,
            "earlier_at": at,
            "app": root.name,
        },
        stable_message=message.split(" at ", 1)[0],
    )


DOCS = KindDocs(
    what_it_does="""
Reports a FastAPI path operation whose literal `operation_id=` an earlier operation of the
same app already uses. The operations of each app (and of each router that no app or
router of the project includes) are listed in the order FastAPI holds them, across the
routers it includes, from the project graph the FAPI family shares
(`inwards_rules_fastapi/graph.py`); the first operation with an id keeps it, and each
later one is reported on its decorator, once, naming the first.

Two apps may use the same id: each app's OpenAPI document holds only its own operations.
Only explicit ids are compared: ids that `generate_unique_id_function` builds are left to
it. Test modules are skipped unless `check-tests = true`.
""",
    why_is_this_bad="""
Client generators turn each `operationId` into a method name. Two operations with one id
give two methods with one name: the generator fails, or one of them silently wins.
FastAPI itself only warns when the OpenAPI document is built, at runtime, which a test
suite that never fetches `/openapi.json` never does.
""",
    how_to_fix="""
Give one of the operations an id of its own, unique within the app, or drop the explicit
ids and let `generate_unique_id_function` build them. A published client may already call
the method the id names: renaming it renames that method.
""",
    limitations="""
Only literal ids (`operation_id="list_items"`) on operations the project graph reads:
route decorators and `add_api_route` calls on apps and routers bound to names, wired by
`include_router` calls it can resolve. An id built at runtime, an operation added by a
library or through a router the graph cannot name, and ids in `openapi_extra` are not
compared. A router included twice into one app repeats its own ids; that is not reported.
""",
)

_CONFIG = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["FAPI008"]
"""


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="Two routers of one app reuse an operation id",
            good=False,
            config=_CONFIG,
            files={
                "shop/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "from shop import items, users\n\n"
                    "app = FastAPI()\n"
                    'app.include_router(users.router, prefix="/users")\n'
                    'app.include_router(items.router, prefix="/items")\n'
                ),
                "shop/users.py": (
                    "from fastapi import APIRouter\n\n"
                    "router = APIRouter()\n\n\n"
                    '@router.get("/", operation_id="list")\n'
                    "def list_users() -> list[str]:\n"
                    "    return []\n"
                ),
                "shop/items.py": (
                    "from fastapi import APIRouter\n\n"
                    "router = APIRouter()\n\n\n"
                    '@router.get("/", operation_id="list")  # expect: FAPI008\n'
                    "def list_items() -> list[str]:\n"
                    "    return []\n"
                ),
            },
        ),
        Example(
            title="One id per operation; the same id in another app",
            good=True,
            config=_CONFIG,
            files={
                "shop/public.py": (
                    "from fastapi import FastAPI\n\n"
                    "app = FastAPI()\n\n\n"
                    '@app.get("/items", operation_id="list_items")\n'
                    "def list_items() -> list[str]:\n"
                    "    return []\n\n\n"
                    '@app.get("/users", operation_id="list_users")\n'
                    "def list_users() -> list[str]:\n"
                    "    return []\n"
                ),
                "shop/admin.py": (
                    "from fastapi import FastAPI\n\n"
                    "admin = FastAPI()\n\n\n"
                    '@admin.get("/items", operation_id="list_items")\n'
                    "def all_items() -> list[str]:\n"
                    "    return []\n"
                ),
            },
        ),
    )


KIND = CheckKind(
    id="fapi.duplicate-operation-id",
    summary="Two path operations of one FastAPI app with the same literal operation_id.",
    options_type=DuplicateOperationIdOptions,
    check=check,
    scope=Scope.PROJECT,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
