"""FAPI002 undocumented-error-response: the error codes an operation can produce against
the responses declared on its way into the schema, checked in memory."""

from __future__ import annotations

import textwrap

import pytest

from inwards_core import ConfigError, Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

RULES = load_rules(installed_families())
CONFIG = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["FAPI002"]
"""
HEAD = (
    "from fastapi import APIRouter, Depends, FastAPI, HTTPException, status\n"
    "from fastapi.responses import JSONResponse\n\n"
    "router = APIRouter()\n\n"
)


def _findings(files: dict[str, str], options: str = "") -> list[Finding]:
    text = CONFIG + (
        f"\n[tool.inwards.rules.undocumented-error-response]\n{options}" if options else ""
    )
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == "FAPI002"]


def _messages(source: str, options: str = "", **more: str) -> list[str]:
    files = {"shop/api.py": HEAD + textwrap.dedent(source), **more}
    return [f.message for f in _findings(files, options)]


def _codes(message: str) -> str:
    return message.split(" can respond ")[1].split(", which")[0]


def test_direct_raises_and_error_responses() -> None:
    source = """\
        @router.get("/a")
        async def a(x: int):
            if x == 1:
                raise HTTPException(404)
            if x == 2:
                raise HTTPException(status_code=status.HTTP_409_CONFLICT, detail="x")
            if x == 3:
                return JSONResponse({}, status_code=410)
            if x == 4:
                raise HTTPException(status_code=x)
            if x == 5:
                raise HTTPException(status_code=500)
            return JSONResponse({}, status_code=201)
        """
    (message,) = _messages(source)
    assert message.startswith("`a` (GET /a) can respond ")
    assert _codes(message) == "404 (raised here), 409 (raised here) and 410 (returned here)"
    (message,) = _messages(source, 'codes = "4xx-5xx"')
    assert "500 (raised here)" in message
    assert _messages(source, "report-direct-raises = false") == []


def test_helpers_and_dependencies_up_to_max_depth() -> None:
    helpers = (
        "from fastapi import HTTPException\n\n"
        "def deep():\n    raise HTTPException(418)\n\n"
        "def load(x):\n    deep()\n    raise HTTPException(404)\n\n"
        "def auth():\n    raise HTTPException(status_code=401)\n"
    )
    source = """\
        from shop.helpers import auth, load

        def local():
            raise HTTPException(403)

        @router.get("/a", dependencies=[Depends(auth)])
        async def a(x: int = Depends(local)):
            return load(x)
        """
    (message,) = _messages(source, **{"shop/helpers.py": helpers})
    assert _codes(message) == (
        "401 (through `auth`), 403 (through `local`), 404 (through `load`) and 418 (through `load`)"
    )
    (message,) = _messages(source, "max-depth = 1", **{"shop/helpers.py": helpers})
    assert "418" not in message
    assert _messages(source, "max-depth = 0", **{"shop/helpers.py": helpers}) == []


def test_declared_on_the_decorator_router_inclusion_or_app() -> None:
    files = {
        "shop/orders.py": (
            HEAD.replace("APIRouter()", 'APIRouter(responses={404: {"description": "x"}})')
            + '@router.get("/a", responses={"409": {"description": "x"}})\n'
            "async def a(x: int):\n"
            "    if x:\n        raise HTTPException(404)\n"
            "    if x > 1:\n        raise HTTPException(409)\n"
            "    if x > 2:\n        raise HTTPException(403)\n"
            "    raise HTTPException(401)\n"
        ),
        "shop/main.py": (
            "from fastapi import FastAPI\nfrom shop.orders import router\n"
            'app = FastAPI(responses={401: {"description": "x"}})\n'
            'app.include_router(router, responses={"4XX": {"description": "x"}})\n'
        ),
    }
    assert _findings(files) == []
    files["shop/main.py"] = files["shop/main.py"].replace('"4XX"', "403")
    assert _findings(files) == []
    files["shop/main.py"] = files["shop/main.py"].replace("403", "400")
    (finding,) = _findings(files)
    assert _codes(finding.message) == "403 (raised here)"


def test_default_covers_all_and_unknown_responses_are_silent() -> None:
    source = """\
        @router.get("/a", responses={"default": {"description": "x"}})
        async def a():
            raise HTTPException(404)

        @router.get("/b", responses=COMMON)
        async def b():
            raise HTTPException(404)

        @router.get("/c", responses={**COMMON, 400: {}})
        async def c():
            raise HTTPException(404)

        @router.get("/d", openapi_extra={"responses": {}})
        async def d():
            raise HTTPException(404)

        @router.get("/e", include_in_schema=False)
        async def e():
            raise HTTPException(404)
        """
    assert _messages(source) == []


def test_422_only_when_asked() -> None:
    source = """\
        @router.post("/a")
        async def a():
            raise HTTPException(422)
        """
    assert _messages(source) == []
    assert len(_messages(source, 'explicit-422 = "report"')) == 1


def test_tests_are_skipped_and_methods_are_not_followed() -> None:
    source = """\
        @router.get("/a")
        async def a(manager):
            await manager.get()
            raise ValueError("x")
        """
    assert _messages(source) == []
    files = {
        "tests/test_api.py": HEAD
        + '@router.get("/a")\nasync def a():\n    raise HTTPException(404)\n'
    }
    assert _findings(files) == []
    assert len(_findings(files, "check-tests = true")) == 1


@pytest.mark.parametrize(
    ("option", "problem"),
    [('codes = "5xx"', "codes"), ("max-depth = 9", "max-depth"), ('explicit-422 = "x"', "422")],
)
def test_options_are_checked(option: str, problem: str) -> None:
    text = CONFIG + f"\n[tool.inwards.rules.undocumented-error-response]\n{option}\n"
    with pytest.raises(ConfigError, match=problem):
        check(load_config_text(text), InMemoryProjectFiles({"shop/a.py": ""}), rule_set=RULES)


def test_an_app_handler_for_http_exceptions_makes_raised_codes_unknown() -> None:
    source = """\
        app = FastAPI()

        @app.exception_handler(HTTPException)
        async def handler(request, exc):
            raise RuntimeError("x")

        @app.get("/a")
        async def a(x: int):
            if x:
                return JSONResponse({}, status_code=410)
            raise HTTPException(404)
        """
    (message,) = _messages(source)
    assert _codes(message) == "410 (returned here)"


def test_the_project_s_exceptions_mapped_by_the_app_s_handlers() -> None:
    domain = (
        "class OrderError(Exception):\n    pass\n\n\n"
        "class OrderConflict(OrderError):\n    pass\n\n\n"
        "class Unmapped(Exception):\n    pass\n"
    )
    handlers = (
        "from fastapi.responses import JSONResponse\n\n"
        "async def on_order_error(request, exc):\n"
        "    return JSONResponse({'detail': str(exc)}, status_code=409)\n"
    )
    source = """\
        from shop.domain import OrderConflict, Unmapped
        from shop.handlers import on_order_error
        from shop.domain import OrderError

        app = FastAPI()
        app.add_exception_handler(OrderError, on_order_error)

        @app.exception_handler(Unmapped)
        async def on_unmapped(request, exc):
            return JSONResponse({}, status_code=exc.code)

        def confirm(order_id):
            raise OrderConflict(order_id)

        @app.post("/orders/{order_id}/confirm")
        async def confirm_order(order_id: int):
            if order_id == 0:
                raise Unmapped()
            confirm(order_id)
        """
    more = {"shop/domain.py": domain, "shop/handlers.py": handlers}
    (message,) = _messages(source, **more)
    assert _codes(message) == (
        "409 (`OrderConflict` raised through `confirm`, mapped by an exception handler)"
    )
    assert _messages(source, "handled-counts-as-documented = true", **more) == []


def test_dependencies_of_the_router_the_inclusion_and_the_app() -> None:
    files = {
        "shop/deps.py": (
            "from fastapi import HTTPException\n\n"
            "def token():\n    raise HTTPException(401)\n\n"
            "def key():\n    raise HTTPException(403)\n\n"
            "def tenant():\n    raise HTTPException(412)\n"
        ),
        "shop/orders.py": (
            "from fastapi import APIRouter, Depends\n"
            "from shop.deps import token\n\n"
            "router = APIRouter(dependencies=[Depends(token)])\n\n"
            '@router.get("/a", summary="A")\nasync def a() -> int:\n    return 1\n'
        ),
        "shop/main.py": (
            "from fastapi import Depends, FastAPI\n"
            "from shop import deps\nfrom shop.orders import router\n"
            "app = FastAPI(dependencies=[Depends(deps.tenant)])\n"
            "app.include_router(router, dependencies=[Depends(deps.key)])\n"
        ),
    }
    (finding,) = _findings(files)
    assert _codes(finding.message) == (
        "401 (through `token`), 403 (through `deps.key`) and 412 (through `deps.tenant`)"
    )
    assert _findings(files, "max-depth = 0") == []


def test_dependencies_through_an_annotated_alias() -> None:
    deps = (
        "from typing import Annotated\n\n"
        "from fastapi import Depends, HTTPException\n\n\n"
        "def current_user():\n    raise HTTPException(401)\n\n\n"
        "CurrentUser = Annotated[\n    str,\n    Depends(current_user),\n]\n"
        "Other = Annotated[str, 'x']\n"
    )
    source = """\
        from shop.deps import CurrentUser, Other

        @router.get("/me")
        async def me(user: CurrentUser, other: Other):
            return user
        """
    (message,) = _messages(source, **{"shop/deps.py": deps})
    assert _codes(message) == "401 (through `current_user`)"


def test_an_http_exception_handler_that_keeps_the_code() -> None:
    source = """\
        from fastapi.exception_handlers import http_exception_handler
        from fastapi.responses import PlainTextResponse

        app = FastAPI()
        other = FastAPI()

        @app.exception_handler(HTTPException)
        async def logged(request, exc):
            print(exc)
            return await http_exception_handler(request, exc)

        @other.exception_handler(HTTPException)
        async def plain(request, exc):
            return PlainTextResponse(str(exc.detail), status_code=exc.status_code)

        @app.get("/a")
        async def a():
            raise HTTPException(418)

        @other.get("/b")
        async def b():
            raise HTTPException(418)
        """
    assert [_codes(m) for m in _messages(source)] == ["418 (raised here)"] * 2


def test_the_project_s_subclasses_of_http_exception() -> None:
    errors = (
        "from fastapi import HTTPException\n\n\n"
        "class ApiError(HTTPException):\n    pass\n\n\n"
        "class NotFound(ApiError):\n"
        "    def __init__(self, what: str) -> None:\n"
        "        super().__init__(status_code=404, detail=what)\n\n\n"
        "class Plain(Exception):\n    pass\n"
    )
    source = """\
        from shop.errors import ApiError, NotFound, Plain

        @router.get("/a")
        async def a(x: int):
            if x == 1:
                raise NotFound("a")
            if x == 2:
                raise ApiError(status_code=409)
            if x == 3:
                raise ApiError(x)
            raise Plain()
        """
    (message,) = _messages(source, **{"shop/errors.py": errors})
    assert _codes(message) == "404 (raised here) and 409 (raised here)"


def test_add_api_route_follows_the_endpoint_it_names() -> None:
    source = """\
        async def gone():
            raise HTTPException(410)

        router.add_api_route("/gone", gone)
        """
    (message,) = _messages(source)
    assert _codes(message) == "410 (raised here)"


def test_a_router_passed_to_a_function_keeps_its_inclusion_s_responses() -> None:
    files = {
        "shop/orders.py": HEAD
        + '@router.get("/a")\nasync def a():\n    raise HTTPException(404)\n'
        + '@router.get("/b")\nasync def b():\n    raise HTTPException(409)\n',
        "shop/main.py": (
            "from fastapi import APIRouter\nfrom shop.orders import router as orders\n\n"
            "def wire(parent: APIRouter) -> None:\n"
            '    parent.include_router(orders, responses={404: {"description": "x"}})\n'
        ),
    }
    (finding,) = _findings(files)
    assert _codes(finding.message) == "409 (raised here)"


def test_routers_higher_up_declare_for_the_routes_they_include() -> None:
    # No app of the graph serves these routes: a versioned API router gathers the resource
    # routers, and a setup function hands it to the app. What the API router and that
    # inclusion declare covers the 401 and 403 the resource routers' dependencies raise.
    guard = (
        "def signed_in():\n    raise HTTPException(401)\n\n"
        "def admin():\n    raise HTTPException(403)\n\n"
    )
    files = {
        "shop/orders.py": HEAD.replace(
            "APIRouter()", "APIRouter(dependencies=[Depends(signed_in), Depends(admin)])"
        ).replace("router = ", guard + "router = ")
        + '@router.get("/orders")\nasync def orders():\n    return []\n',
        "shop/api.py": (
            "from fastapi import APIRouter, FastAPI\nfrom shop.orders import router as orders\n"
            'api = APIRouter(responses={401: {"description": "Not signed in"}})\n'
            "api.include_router(orders)\n\n"
            "def install(app: FastAPI) -> None:\n"
            '    app.include_router(api, responses={403: {"description": "Forbidden"}})\n'
        ),
    }
    assert _findings(files) == []
    # One of them declared by a call: unknown, so nothing is judged.
    declared = '{403: {"description": "Forbidden"}}'
    by_call = files["shop/api.py"].replace(declared, f"common({declared})")
    unknown = {**files, "shop/api.py": by_call}
    assert _findings(unknown) == []
    # Nothing above declares 403: it is still reported.
    partial = {**files, "shop/api.py": files["shop/api.py"].replace(f", responses={declared}", "")}
    (finding,) = _findings(partial)
    assert _codes(finding.message) == "403 (through `admin`)"


def test_a_prefix_the_rule_cannot_read_shows_as_a_placeholder() -> None:
    files = {
        "shop/api.py": HEAD + '@router.get("/{item_id}")\nasync def read(item_id: int):\n'
        "    raise HTTPException(404)\n",
        "shop/main.py": (
            "from fastapi import FastAPI\nfrom shop.api import router\n"
            "app = FastAPI()\napp.include_router(router, prefix=PREFIX)\n"
        ),
    }
    (finding,) = _findings(files)
    assert "(GET {...}/{item_id})" in finding.message
    assert finding.message.isprintable()
