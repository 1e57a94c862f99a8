"""FAPI003 router-wiring: unmounted routers (through imports, aliases, re-exports, factory
apps, unknown receivers), unresolved inclusions, cycles, order, and its options."""

from __future__ import annotations

from inwards_core import Severity
from tests.fapi.graph_helpers import findings, lines

ROUTER = """\
from fastapi import APIRouter
router = APIRouter()
@router.get("/x")
def read(): ...
"""


def test_reached_through_an_alias_a_reexport_and_a_factory_app() -> None:
    found = findings(
        "FAPI003",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop.api import orders_router
                import shop.users as users_module
                def create_app() -> FastAPI:
                    app = FastAPI()
                    app.include_router(orders_router)
                    app.include_router(users_module.router, prefix="/u")
                    return app
            """,
            "shop/api/__init__.py": "from shop.api.orders import router as orders_router\n",
            "shop/api/orders.py": ROUTER,
            "shop/users.py": ROUTER,
            "shop/spare.py": ROUTER,
            "shop/empty.py": "from fastapi import APIRouter\nrouter = APIRouter()\n",
        },
    )
    assert lines(found) == [("shop/spare.py", 2)]
    assert found[0].severity is Severity.ERROR
    assert "`shop.spare.router`" in found[0].message


def test_an_unknown_receiver_reaches_what_it_includes() -> None:
    found = findings(
        "FAPI003",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop.wiring import register
                app = FastAPI()
                register(app)
            """,
            "shop/wiring.py": """\
                from fastapi import FastAPI
                from shop import users
                def register(app: FastAPI) -> None:
                    app.include_router(users.router)
            """,
            "shop/users.py": ROUTER,
        },
    )
    assert found == []


def test_an_unresolved_inclusion_makes_silence_or_warnings() -> None:
    files = {
        "shop/main.py": """\
            from fastapi import FastAPI
            from shop import users, spare
            app = FastAPI()
            for router in (users.router,):
                app.include_router(router)
        """,
        "shop/users.py": ROUTER,
        "shop/spare.py": ROUTER,
    }
    assert findings("FAPI003", files) == []  # unknown means silent, by default
    found = findings("FAPI003", files, 'unresolved-includes = "warn"', "router-wiring")
    assert lines(found) == [("shop/spare.py", 2), ("shop/users.py", 2)]
    assert {f.severity for f in found} == {Severity.WARNING}
    assert "`app.include_router` at shop/main.py:5" in found[0].message


def test_a_library_router_is_not_an_unresolved_inclusion() -> None:
    found = findings(
        "FAPI003",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from fastapi_users import FastAPIUsers
                users = FastAPIUsers()
                app = FastAPI()
                app.include_router(users.get_auth_router(), prefix="/auth")
            """,
            "shop/spare.py": ROUTER,
        },
    )
    assert [(f.file, f.severity) for f in found] == [("shop/spare.py", Severity.ERROR)]


def test_no_app_means_a_library_of_routers() -> None:
    assert findings("FAPI003", {"shop/users.py": ROUTER}) == []


def test_entrypoints_and_allow_unmounted() -> None:
    files = {
        "shop/main.py": "from fastapi import FastAPI\napp = FastAPI()\n",
        "shop/scripts.py": (
            "from fastapi import FastAPI\nfrom shop import users\n"
            "tool = FastAPI()\ntool.include_router(users.router)\n"
        ),
        "shop/users.py": ROUTER,
        "shop/labs/beta.py": ROUTER,
    }
    assert lines(findings("FAPI003", files)) == [("shop/labs/beta.py", 2)]
    options = 'entrypoints = ["shop.main:app"]\nallow-unmounted = ["shop.labs"]\n'
    assert lines(findings("FAPI003", files, options, "router-wiring")) == [("shop/users.py", 2)]


def test_a_cycle_is_reported_once_on_its_last_inclusion() -> None:
    found = findings(
        "FAPI003",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop.tree import a
                app = FastAPI()
                app.include_router(a)
            """,
            "shop/tree.py": """\
                from fastapi import APIRouter
                a = APIRouter()
                b = APIRouter()
                c = APIRouter()
                @c.get("/c")
                def leaf(): ...
                a.include_router(b)
                b.include_router(c)
                c.include_router(a)
                c.include_router(c)
            """,
        },
    )
    assert lines(found) == [("shop/tree.py", 10)]
    assert found[0].message.count("->") >= 1


def test_order_only_for_decorators_below_in_the_same_file() -> None:
    files = {
        "shop/main.py": """\
            from fastapi import FastAPI
            from shop import users
            app = FastAPI()
            app.include_router(users.router)
            @app.get("/late")
            def late(): ...
        """,
        "shop/users.py": """\
            from fastapi import APIRouter
            router = APIRouter()
            child = APIRouter()
            router.include_router(child)
            @child.get("/a")
            def a(): ...
            @child.get("/b")
            def b(): ...
        """,
    }
    found = findings("FAPI003", files)
    assert lines(found) == [("shop/users.py", 4)]
    assert "2 of its route decorator(s)" in found[0].message
    assert findings("FAPI003", files, "check-order = false", "router-wiring") == []


def test_a_callback_router_is_documented_not_included() -> None:
    found = findings(
        "FAPI003",
        {
            "shop/main.py": """\
                from fastapi import APIRouter, FastAPI
                callbacks = APIRouter()
                @callbacks.post("/{url}")
                def notify(): ...
                defaults = APIRouter()
                @defaults.get("/{url}")
                def on_default(): ...
                app = FastAPI(callbacks=defaults.routes)
                @app.post("/invoices", callbacks=callbacks.routes)
                def create(): ...
            """,
        },
    )
    assert found == []


def test_only_the_top_of_an_unreached_tree_is_reported() -> None:
    found = findings(
        "FAPI003",
        {
            "shop/main.py": """\
                from fastapi import FastAPI
                from shop import users
                app = FastAPI()
                app.include_router(users.router)
                admin = FastAPI()
            """,
            "shop/users.py": ROUTER,
            "shop/admin.py": """\
                from fastapi import APIRouter
                from shop.orders import router as orders
                router = APIRouter(prefix="/admin")
                router.include_router(orders)
            """,
            "shop/orders.py": ROUTER,
        },
    )
    assert lines(found) == [("shop/admin.py", 3)]
    assert "shop/main.py" in found[0].fix.steps[0], found[0].fix
