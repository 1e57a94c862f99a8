"""FAPI001 endpoint-metadata: what an operation's OpenAPI entry must carry, checked in
memory over small projects."""

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
extend-select = ["FAPI001"]
"""
HEAD = "from fastapi import APIRouter, FastAPI, status\n\nrouter = APIRouter()\n\n"


def _findings(files: dict[str, str], options: str = "") -> list[Finding]:
    text = CONFIG + (f"\n[tool.inwards.rules.endpoint-metadata]\n{options}" if options else "")
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == "FAPI001"]


def _messages(source: str, options: str = "") -> list[str]:
    return [f.message for f in _findings({"shop/api.py": HEAD + textwrap.dedent(source)}, options)]


def test_a_bare_post_lacks_summary_status_code_and_model() -> None:
    source = """\
        @router.post("/orders")
        async def create_order(body: dict):
            return body
        """
    assert _messages(source) == [
        "`create_order` (POST /orders) publishes an OpenAPI entry without summary, "
        "explicit status code and response model."
    ]


def test_prefixes_from_the_app_give_the_full_path() -> None:
    files = {
        "shop/orders.py": HEAD.replace("APIRouter()", 'APIRouter(prefix="/orders")')
        + '@router.get("/{order_id}")\nasync def read(order_id: int):\n    return {}\n',
        "shop/main.py": (
            "from fastapi import FastAPI\nfrom shop.orders import router\n"
            'app = FastAPI()\napp.include_router(router, prefix="/v1")\n'
        ),
    }
    (finding,) = _findings(files)
    assert "(GET /v1/orders/{order_id})" in finding.message
    assert finding.span.line == 5


def test_docstring_description_annotation_and_204_pass() -> None:
    source = '''\
        @router.get("/a", description="Lists a")
        async def a() -> list[int]:
            return []

        @router.delete("/b", status_code=status.HTTP_204_NO_CONTENT)
        async def b() -> None:
            """Removes b."""

        @router.post("/c", status_code=201, summary="C", response_model=None)
        async def c():
            return 1

        @router.get("/page", response_class=HTMLResponse)
        async def page():
            """A page."""
            return "<p>"
        '''
    assert _messages(source) == []


def test_summary_mode_and_return_annotations_without_a_model() -> None:
    source = '''\
        @router.get("/a")
        async def a() -> JSONResponse:
            """Doc."""
            return JSONResponse({})

        @router.get("/b", summary="B")
        async def b() -> Any:
            return 1
        '''
    assert _messages(source, 'require-summary = "summary"') == [
        "`a` (GET /a) publishes an OpenAPI entry without summary and response model.",
        "`b` (GET /b) publishes an OpenAPI entry without response model.",
    ]


def test_responses_entries_need_a_description() -> None:
    source = '''\
        @router.get(
            "/a",
            responses={404: {"model": Err}, 409: {"description": "x"}, "4XX": {}, 500: ERR},
        )
        async def a() -> int:
            """Doc."""
            return 1

        @router.get("/b", responses={**COMMON, 404: {}})
        async def b() -> int:
            """Doc."""
            return 1
        '''
    assert _messages(source) == [
        "`a` (GET /a) publishes an OpenAPI entry without `description` in responses 404, 4XX."
    ]


def test_hidden_operations_are_skipped() -> None:
    files = {
        "shop/a.py": HEAD
        + '@router.get("/x", include_in_schema=False)\nasync def x():\n    return 1\n'
        + '@router.get("/y", **extra)\nasync def y():\n    return 1\n',
        "shop/b.py": HEAD.replace("APIRouter()", "APIRouter(include_in_schema=False)")
        + '@router.get("/z")\nasync def z():\n    return 1\n',
        "shop/c.py": HEAD
        + '@router.get("/w")\nasync def w():\n    return 1\n'
        + "app = FastAPI(openapi_url=None)\napp.include_router(router)\n",
        "shop/d.py": HEAD
        + '@router.get("/v")\nasync def v():\n    return 1\n'
        + "app = FastAPI()\napp.include_router(router, include_in_schema=False)\n",
        "shop/e.py": (
            "from fastapi import FastAPI\n\napp = FastAPI(openapi_url=None)\n\n"
            '@app.get("/u")\nasync def u():\n    return 1\n'
        ),
        "shop/f.py": HEAD + '@router.websocket("/ws")\nasync def ws(socket):\n    pass\n',
    }
    assert _findings(files) == []


def test_served_by_one_visible_app_is_judged() -> None:
    files = {
        "shop/r.py": HEAD + '@router.get("/w")\nasync def w():\n    return 1\n',
        "shop/main.py": (
            "from fastapi import FastAPI\nfrom shop.r import router\n"
            "hidden = FastAPI(openapi_url=None)\nhidden.include_router(router)\n"
            "public = FastAPI()\npublic.include_router(router)\n"
        ),
    }
    assert len(_findings(files)) == 1


def test_tags_and_operation_id_when_asked() -> None:
    files = {
        "shop/r.py": HEAD.replace("APIRouter()", 'APIRouter(tags=["r"])')
        + '@router.get("/a", summary="A")\nasync def a() -> int:\n    return 1\n',
        "shop/s.py": HEAD
        + '@router.get("/b", summary="B", operation_id="b")\nasync def b() -> int:\n    return 1\n',
        "shop/main.py": (
            "from fastapi import FastAPI\nfrom shop import s\n"
            'app = FastAPI()\napp.include_router(s.router, tags=["s"])\n'
        ),
    }
    options = "require-tags = true\nrequire-operation-id = true\n"
    assert [(f.file, f.message) for f in _findings(files, options)] == [
        ("shop/r.py", "`a` (GET /a) publishes an OpenAPI entry without operation id.")
    ]
    files = {
        "shop/t.py": HEAD
        + '@router.get("/c", summary="C", operation_id="c", tags=[])\n'
        + "async def c() -> int:\n    return 1\n"
    }
    assert [f.message for f in _findings(files, options)] == [
        "`c` (GET /c) publishes an OpenAPI entry without tags."
    ]


def test_tests_are_skipped_unless_asked() -> None:
    files = {"tests/test_api.py": HEAD + '@router.get("/a")\nasync def a():\n    return 1\n'}
    assert _findings(files) == []
    assert len(_findings(files, "check-tests = true")) == 1


@pytest.mark.parametrize(
    ("option", "problem"),
    [
        ('require-summary = "always"', "require-summary"),
        ('require-status-code = ["fetch"]', "require-status-code"),
    ],
)
def test_options_are_checked(option: str, problem: str) -> None:
    text = CONFIG + f"\n[tool.inwards.rules.endpoint-metadata]\n{option}\n"
    with pytest.raises(ConfigError, match=problem):
        check(load_config_text(text), InMemoryProjectFiles({"shop/a.py": ""}), rule_set=RULES)


def test_a_success_response_in_responses_is_a_model() -> None:
    source = """\
        @router.get("/a", summary="A", responses={200: {"content": {"image/png": {}}}})
        async def a():
            return 1

        @router.get("/b", summary="B", responses=LOGIN_RESPONSES)
        async def b():
            return 1

        @router.get("/c", summary="C", responses={404: {"description": "x", "model": M}})
        async def c():
            return 1
        """
    assert _messages(source) == ["`c` (GET /c) publishes an OpenAPI entry without response model."]


def test_an_endpoint_returning_built_responses_needs_no_model() -> None:
    source = """\
        @router.get("/a", summary="A")
        async def a(x: int):
            if x:
                return RedirectResponse("/b")
            return HTMLResponse("<p>")

        @router.get("/b", summary="B")
        async def b():
            return JSONResponse({})
        """
    assert _messages(source) == ["`b` (GET /b) publishes an OpenAPI entry without response model."]


def test_add_api_route_judges_the_endpoint_it_names() -> None:
    files = {
        "shop/views.py": 'async def listed():\n    """Lists."""\n    return []\n',
        "shop/api.py": HEAD
        + "from shop.views import listed\n\n"
        + "async def created():\n    return 1\n\n"
        + 'router.add_api_route("/a", listed, methods=["GET"], response_model=list)\n'
        + 'router.add_api_route("/b", endpoint=created)\n'
        + 'router.add_api_route("/c", make_endpoint(), methods=["POST"])\n',
    }
    assert [f.message for f in _findings(files)] == [
        "`created` (GET /b) publishes an OpenAPI entry without summary and response model."
    ]


def test_two_endpoints_of_one_name_are_both_judged() -> None:
    # FastAPI registers both module-level defs; of an if/else pair only one runs, unknown.
    source = """\
        @router.get("/first")
        async def listing():
            return []

        @router.get("/second")
        async def listing():
            return []

        if LEGACY:
            @router.get("/old")
            async def switched():
                return 1
        else:
            @router.get("/new")
            async def switched():
                return 2
        """
    assert _messages(source) == [
        "`listing` (GET /first) publishes an OpenAPI entry without summary and response model.",
        "`listing` (GET /second) publishes an OpenAPI entry without summary and response model.",
    ]


def test_api_route_with_a_literal_method_list_is_judged() -> None:
    source = """\
        @router.api_route("/sync", methods=["post", "PUT"])
        async def sync():
            return 1

        @router.api_route("/any", methods=ALL_METHODS)
        async def anything():
            return 1
        """
    assert _messages(source) == [
        "`sync` (POST/PUT /sync) publishes an OpenAPI entry without summary, explicit "
        "status code and response model."
    ]


def test_a_router_every_inclusion_hides_is_skipped_without_a_known_app() -> None:
    # The app is a parameter of a setup function: no app of the graph serves the routes,
    # but the only way in, through the parent router, says include_in_schema=False.
    files = {
        "shop/items.py": HEAD + '@router.get("/items")\nasync def items():\n    return []\n',
        "shop/api.py": (
            "from fastapi import APIRouter\nfrom shop.items import router as items\n"
            "api = APIRouter()\napi.include_router(items)\n"
        ),
        "shop/setup.py": (
            "from fastapi import FastAPI\nfrom shop.api import api\n\n"
            "def install(app: FastAPI):\n    app.include_router(api, include_in_schema=False)\n"
        ),
        "shop/pages.py": HEAD + '@router.get("/page")\nasync def page():\n    return 1\n',
        "shop/site.py": (
            "from fastapi import APIRouter\nfrom shop.pages import router as pages\n"
            "hidden = APIRouter(include_in_schema=False)\nhidden.include_router(pages)\n"
            "shown = APIRouter()\nshown.include_router(pages)\n"
        ),
    }
    # `page` is also reached through `shown`, which hides nothing.
    assert [f.message.split(" (")[0] for f in _findings(files)] == ["`page`"]


def test_responses_built_by_a_call_leave_the_model_to_the_rest() -> None:
    # A shared helper builds the error entries: unknown, so their descriptions are not
    # judged, but the entry still needs a model for its success response. A name may hold
    # a success response (a module's login responses): unknown, so silent.
    source = '''\
        @router.get("/a", responses=error_responses(404, 409))
        async def a():
            """Doc."""
            return {}

        @router.get("/b", responses=error_responses(404))
        async def b() -> Item:
            """Doc."""
            return Item()

        @router.get("/c", responses=LOGIN_RESPONSES)
        async def c():
            """Doc."""
            return {}
        '''
    assert _messages(source) == ["`a` (GET /a) publishes an OpenAPI entry without response model."]


def test_an_endpoint_returning_nothing_is_told_to_answer_204() -> None:
    # Deleting returns nothing: the fix is a 204 (no body to describe), not a model. The
    # guidance says so; a 204 written as a project constant may be one, so it is silent.
    source = '''\
        @router.delete("/a/{a_id}", status_code=200)
        async def remove_a(a_id: int) -> None:
            """Doc."""

        @router.post("/b/purge", status_code=200)
        async def purge_b():
            """Doc."""
            if not queue:
                return
            queue.clear()

        @router.get("/c")
        async def read_c() -> dict:
            return {}

        @router.delete("/d/{d_id}", status_code=NO_CONTENT)
        async def remove_d(d_id: int) -> None:
            """Doc."""
        '''
    found = _findings({"shop/api.py": HEAD + textwrap.dedent(source)})
    told_204 = [(f.message.split(" (")[0], "HTTP_204_NO_CONTENT" in f.fix.steps[0]) for f in found]
    assert told_204 == [("`remove_a`", True), ("`purge_b`", True), ("`read_c`", False)]


def test_a_prefix_the_rule_cannot_read_shows_as_a_placeholder() -> None:
    # The app mounts the router under a prefix built from a setting: the path in the
    # message shows it as `{...}`, never as the graph's internal marker.
    files = {
        "shop/deployments.py": HEAD
        + '@router.delete("/{deployment_id}", status_code=204)\n'
        + "async def remove(deployment_id: int) -> None:\n    pass\n",
        "shop/main.py": (
            "from fastapi import FastAPI\nfrom shop.deployments import router\n"
            "from shop.settings import API_PREFIX\n"
            'app = FastAPI()\napp.include_router(router, prefix=API_PREFIX + "/deployments")\n'
        ),
    }
    (finding,) = _findings(files)
    assert "(DELETE {...}/{deployment_id})" in finding.message
    assert finding.message.isprintable()
