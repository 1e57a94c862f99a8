"""The project graph the FAPI rules share: nodes, keywords, operations, inclusions,
subclasses, re-exports and exception handlers, read from files in memory."""

from __future__ import annotations

import textwrap

from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, load_config_text
from inwards_rules_fastapi import graph as graph_module
from inwards_rules_fastapi import graph_reading
from tests.fapi.graph_helpers import RULES

FILES = {
    "shop/__init__.py": "",
    "shop/main.py": """\
        from fastapi import FastAPI
        from shop import routers
        from shop.errors import Missing, on_missing
        app = FastAPI(openapi_url=None, lifespan=routers.lifespan, title="Shop")
        app.include_router(routers.users, prefix="/users", tags=["users"])
        app.mount("/admin", routers.admin)
        app.add_exception_handler(Missing, on_missing)
        @app.exception_handler(ValueError)
        async def on_value(request, error): ...
    """,
    "shop/errors.py": "class Missing(Exception): ...\ndef on_missing(r, e): ...\n",
    "shop/routers/__init__.py": (
        "from shop.routers.users import router as users\n"
        "from shop.routers.admin import admin\n"
        "async def lifespan(app): ...\n"
    ),
    "shop/routers/users.py": """\
        from fastapi import APIRouter
        from fastapi.routing import APIRoute
        class TimedRouter(APIRouter): ...
        router = TimedRouter(prefix="/v1", route_class=APIRoute)
        @router.get("/{user_id}", operation_id="read_user", status_code=200)
        async def read_user(user_id: int): ...
        @router.api_route("/bulk", methods=["PUT", "PATCH"])
        def bulk(): ...
    """,
    "shop/routers/admin.py": "from fastapi import FastAPI\nadmin = FastAPI()\n",
}
captured: list[graph_module.Graph] = []


def _graph() -> graph_module.Graph:
    original = graph_reading._build

    def spy(model):  # type: ignore[no-untyped-def]
        built = original(model)
        captured.append(built)
        return built

    graph_reading._build = spy
    try:
        config = '[tool.inwards]\nlayers = [{ name = "api", modules = ["shop"] }]\n'
        config += '[tool.inwards.rules]\nextend-select = ["FAPI005"]\n'
        sources = {path: textwrap.dedent(text) for path, text in FILES.items()}
        check(load_config_text(config), InMemoryProjectFiles(sources), rule_set=RULES)
    finally:
        graph_reading._build = original
    return captured[-1]


def test_the_graph_of_a_small_project() -> None:
    graph = _graph()
    assert sorted(graph.nodes) == [
        "shop.main.app",
        "shop.routers.admin.admin",
        "shop.routers.users.router",
    ]
    app = graph.nodes["shop.main.app"]
    assert app.kind == "app"
    assert app.keywords["openapi_url"] == "None"
    assert app.keywords["lifespan"] == "routers.lifespan"
    router = graph.nodes["shop.routers.users.router"]
    assert router.kind == "router" and router.prefix == "/v1"
    assert router.keywords["route_class"] == "APIRoute"
    operations = graph.operations["shop.routers.users.router"]
    assert [(o.methods, o.path) for o in operations] == [
        (("GET",), "/{user_id}"),
        (("PUT", "PATCH"), "/bulk"),
    ]
    assert operations[0].keywords["operation_id"] == '"read_user"'
    assert operations[0].function is not None and operations[0].function.qualname == "read_user"
    wiring = [(i.parent, i.child, i.how, i.prefix) for i in graph.inclusions]
    assert wiring == [
        ("shop.main.app", "shop.routers.users.router", "include_router", "/users"),
        ("shop.main.app", "shop.routers.admin.admin", "mount", "/admin"),
    ]
    assert graph.handlers["shop.main.app"] == ("Missing", "ValueError")
    routes = graph.routes("shop.main.app")
    assert [r.path for r in routes] == ["/users/v1/{user_id}", "/users/v1/bulk"]
