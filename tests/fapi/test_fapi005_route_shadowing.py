"""FAPI005 route-shadowing: the order FastAPI holds routes in (prefixes, routers included
in place), Starlette's segment matching, methods, repeats, and what stays silent."""

from __future__ import annotations

from inwards_rules_fastapi.route_paths import covers
from tests.fapi.graph_helpers import findings, lines

MAIN = """\
from fastapi import FastAPI
from shop import users
app = FastAPI()
app.include_router(users.router, prefix="/users")
"""


def test_segment_matching_follows_starlette() -> None:
    assert covers("/users/{id}", "/users/me")
    assert not covers("/users/me", "/users/{id}")
    assert covers("/items/{i:int}", "/items/42")
    assert not covers("/items/{i:int}", "/items/new")
    assert covers("/items/{i:float}", "/items/{n:int}")
    assert not covers("/items/{i:int}", "/items/{s}")
    assert covers("/files/{p:path}", "/files/a/b")
    assert covers("/files/{p:path}", "/files/")
    assert not covers("/files/{p:path}", "/files")
    assert not covers("/u/{a}", "/u/{a}/x")
    assert not covers("/u/{a}", "/u/{rest:path}")
    assert not covers("/{a}.json", "/x.json")
    assert covers("/{a}.json", "/{b}.json")


def test_a_parameter_route_above_a_fixed_one_across_files() -> None:
    found = findings(
        "FAPI005",
        {
            "shop/main.py": MAIN,
            "shop/users.py": """\
                from fastapi import APIRouter
                router = APIRouter(prefix="/v1")
                @router.get("/{user_id}")
                def read(user_id: str): ...
                @router.get("/me")
                def me(): ...
                @router.post("/me")
                def write_me(): ...
            """,
        },
    )
    assert lines(found) == [("shop/users.py", 5)]
    assert "GET /users/v1/me" in found[0].message
    assert "shop/users.py:3" in found[0].message
    assert "app `shop.main.app`" in found[0].message


def test_routers_included_in_order_and_a_repeat() -> None:
    found = findings(
        "FAPI005",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop.a import router as first
                from shop.b import router as second
                app = FastAPI()
                app.include_router(first, prefix="/x")
                app.include_router(second, prefix="/x")
            """,
            "shop/a.py": """\
                from fastapi import APIRouter
                router = APIRouter()
                @router.get("/{name}")
                def any_name(name: str): ...
            """,
            "shop/b.py": """\
                from fastapi import APIRouter
                router = APIRouter()
                @router.get("/{other}")
                def repeated(other: str): ...
                @router.get("/fixed")
                def fixed(): ...
            """,
        },
    )
    assert lines(found) == [("shop/b.py", 3), ("shop/b.py", 5)]
    assert "repeats" in found[0].message


def test_methods_convertors_and_unknowns_stay_silent() -> None:
    found = findings(
        "FAPI005",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop.settings import PREFIX
                app = FastAPI()
                @app.get("/items/{item_id:int}")
                def by_id(item_id: int): ...
                @app.get("/items/new")
                def new(): ...
                @app.post("/items/{item_id}")
                def write(item_id: str): ...
                @app.get(PREFIX + "/x")
                def unknown_path(): ...
                @app.api_route("/items/{x}", methods=["GET", "PUT"])
                def unknown_methods(x: str): ...
                @app.websocket("/items/{x}")
                async def socket(x: str): ...
            """,
            "shop/settings.py": "PREFIX = '/p'\n",
        },
    )
    assert found == []


def test_an_unknown_prefix_and_a_factory_app() -> None:
    found = findings(
        "FAPI005",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop import users
                from shop.settings import PREFIX
                def create_app() -> FastAPI:
                    app = FastAPI()
                    app.include_router(users.router, prefix=PREFIX)
                    @app.get("/{anything}")
                    def catch_all(anything: str): ...
                    @app.get("/health")
                    def health(): ...
                    return app
            """,
            "shop/users.py": """\
                from fastapi import APIRouter
                router = APIRouter()
                @router.get("/{a}")
                def first(a: str): ...
                @router.get("/b")
                def second(): ...
            """,
            "shop/settings.py": "PREFIX = '/p'\n",
        },
    )
    # Inside the router the order is known (its own list); under the app the prefix is
    # not, so the app's list has only the factory's own routes.
    assert lines(found) == [("shop/main.py", 9), ("shop/users.py", 5)]


def test_test_modules_are_skipped_unless_asked() -> None:
    files = {
        "shop/tests/test_api.py": """\
            from fastapi import FastAPI
            app = FastAPI()
            @app.get("/a")
            def one(): ...
            @app.get("/a")
            def two(): ...
        """,
        "shop/tests/__init__.py": "",
    }
    assert findings("FAPI005", files) == []
    found = findings("FAPI005", files, "check-tests = true", "route-shadowing")
    assert lines(found) == [("shop/tests/test_api.py", 5)]


def test_custom_route_classes_branches_and_routes_added_by_a_test_stay_silent() -> None:
    files = {
        "shop/main.py": """\
            from fastapi import APIRouter, FastAPI
            from fastapi.routing import APIRoute
            class Picky(APIRoute): ...
            class MyRouter(APIRouter): ...
            picky = APIRouter(route_class=Picky)
            mine = MyRouter()
            plain = APIRouter(route_class=APIRoute)
            @picky.get("/items")
            def first(): ...
            @mine.get("/users")
            def second(): ...
            @plain.get("/x/{a}")
            def third(a: str): ...
            app = FastAPI()
            app.include_router(picky)
            app.include_router(mine)
            app.include_router(plain)
            @app.get("/items")
            def items(): ...
            @app.get("/users")
            def users(): ...
            @app.get("/x/y")
            def shadowed(): ...
            def test_route_added_late():
                @app.get("/items")
                def late(): ...
            def build(flag: bool) -> FastAPI:
                api = FastAPI()
                if flag:
                    @api.get("/one")
                    def endpoint(): ...
                else:
                    @api.get("/one")
                    def endpoint(): ...
                return api
        """,
    }
    assert lines(findings("FAPI005", files)) == [("shop/main.py", 22)]
