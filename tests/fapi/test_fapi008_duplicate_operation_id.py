"""FAPI008 duplicate-operation-id: literal ids per app across its routers, reported on the
later operation once; other apps, unknown ids and a router included twice stay silent."""

from __future__ import annotations

from tests.fapi.graph_helpers import findings, lines


def test_a_repeated_id_across_routers_is_reported_once_on_the_later() -> None:
    found = findings(
        "FAPI008",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop import a, b
                app = FastAPI()
                @app.get("/", operation_id="root")
                def root(): ...
                app.include_router(a.router)
                app.include_router(b.router)
                other = FastAPI()
                other.include_router(b.router)
            """,
            "shop/a.py": """\
                from fastapi import APIRouter
                router = APIRouter()
                @router.get("/a", operation_id="list")
                def one(): ...
            """,
            "shop/b.py": """\
                from fastapi import APIRouter
                router = APIRouter()
                @router.get("/b", operation_id="list")
                def two(): ...
                @router.post("/b", operation_id="root")
                def three(): ...
                router.add_api_route("/c", three, operation_id="list")
            """,
        },
    )
    assert lines(found) == [("shop/b.py", 3), ("shop/b.py", 5), ("shop/b.py", 7)]
    assert '"list"' in found[0].message and "shop/a.py:3" in found[0].message
    assert "app `shop.main.app`" in found[0].message


def test_other_apps_unknown_ids_and_a_router_included_twice() -> None:
    found = findings(
        "FAPI008",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop import a
                from shop.ids import LIST
                app = FastAPI()
                app.include_router(a.router, prefix="/v1")
                app.include_router(a.router, prefix="/v2")
                admin = FastAPI()
                @admin.get("/a", operation_id="list")
                def same_id_other_app(): ...
                @app.get("/x", operation_id=LIST)
                def computed(): ...
                @app.get("/y", operation_id=LIST)
                def computed_again(): ...
            """,
            "shop/ids.py": "LIST = 'list'\n",
            "shop/a.py": """\
                from fastapi import APIRouter
                router = APIRouter()
                @router.get("/a", operation_id="list")
                def one(): ...
            """,
        },
    )
    assert found == []
