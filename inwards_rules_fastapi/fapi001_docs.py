"""The page and the examples of fapi.endpoint-metadata (FAPI001)."""

from __future__ import annotations

from inwards_core import Example, KindDocs

_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "api", modules = ["shop.api"] },\n'
    "]\n\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["FAPI001"]\n'
)


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="An order endpoint that tells its clients nothing",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/orders.py": (
                    "from fastapi import APIRouter\n\n"
                    "from shop.api.schemas import OrderIn\n\n"
                    'router = APIRouter(prefix="/orders")\n\n\n'
                    '@router.post("/")  # expect: FAPI001\n'
                    "async def create_order(body: OrderIn):\n"
                    "    return {'id': 1}\n\n\n"
                    '@router.get("/{order_id}", responses={404: {"model": dict}})'
                    "  # expect: FAPI001\n"
                    "async def read_order(order_id: int) -> dict[str, int]:\n"
                    '    """One order."""\n'
                    "    return {'id': order_id}\n"
                ),
                "shop/api/schemas.py": "class OrderIn:\n    pass\n",
                "shop/api/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "from shop.api.orders import router\n\n"
                    "app = FastAPI()\n"
                    "app.include_router(router)\n"
                ),
            },
        ),
        Example(
            title="Entries that say what they do and return; hidden ones are not judged",
            good=True,
            config=_CONFIG,
            files={
                "shop/api/orders.py": (
                    "from fastapi import APIRouter, status\n\n"
                    "from shop.api.schemas import Order, OrderIn\n\n"
                    'router = APIRouter(prefix="/orders")\n\n\n'
                    "@router.post(\n"
                    '    "/",\n'
                    "    status_code=status.HTTP_201_CREATED,\n"
                    '    summary="Place an order",\n'
                    '    responses={409: {"description": "Out of stock"}},\n'
                    ")\n"
                    "async def create_order(body: OrderIn) -> Order:\n"
                    "    return Order()\n\n\n"
                    '@router.delete("/{order_id}", status_code=204)\n'
                    "async def cancel_order(order_id: int) -> None:\n"
                    '    """Cancel an order that has not shipped."""\n\n\n'
                    '@router.get("/debug", include_in_schema=False)\n'
                    "async def debug():\n"
                    "    return {}\n"
                ),
                "shop/api/schemas.py": "class Order:\n    pass\n\n\nclass OrderIn:\n    pass\n",
            },
        ),
        Example(
            title="An endpoint that returns nothing: its fix is a 204, not a model",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/orders.py": (
                    "from fastapi import APIRouter, status\n\n"
                    'router = APIRouter(prefix="/orders")\n\n\n'
                    "# FastAPI answers 200 with a `null` body: the finding's fix asks for\n"
                    "# status_code=status.HTTP_204_NO_CONTENT (or a response_class=).\n"
                    '@router.post("/{order_id}/archive", status_code=200)  # expect: FAPI001\n'
                    "async def archive_order(order_id: int) -> None:\n"
                    '    """Move a delivered order to the archive."""\n'
                ),
            },
        ),
    )


DOCS = KindDocs(
    what_it_does="""
Reports a path operation (`@app.get(...)`, `@router.post(...)`, `api_route`,
`add_api_route`) whose
OpenAPI entry lacks what the rule's options ask of every entry. By default:

- a **summary**: `summary=` or `description=` on the decorator, or a docstring on the
  function (`require-summary = "summary"` accepts only `summary=`);
- a **response model**: `response_model=` or `response_class=` on the decorator, a 2xx
  entry of `responses=` with a `"model"` or `"content"`, or a return annotation FastAPI
  turns into one (not `None`, `Any` or a JSON response class); an operation whose
  `status_code` is 204 or 304 (or a name the rule cannot read, which may be) sends no
  body, and one whose every `return` builds a non-JSON response (`HTMLResponse(...)`,
  `RedirectResponse(...)`) chose its body: both are exempt, as is one whose `responses=` is a name or a dict the rule cannot read whole
  (it may describe the body); a `responses=` built by a call is unknown for its own part
  only, the model is then judged on the rest;
- an **explicit status code** (`status_code=`) on POST and DELETE operations, whose
  success codes (201, 204) FastAPI does not guess;
- a `description` in every entry of the decorator's `responses=` dict whose value is a
  dict literal, except the operation's own success code, which FastAPI describes itself.

With `require-tags = true` an operation needs tags on its decorator, its router or an
`include_router` call that includes it; with `require-operation-id = true` an
`operation_id=` (or a `generate_unique_id_function=` on it, its router or its app).

Operations that appear in no schema are skipped: `include_in_schema=False` on the
decorator, its router or every `include_router` that brings it in, and operations served
only by apps built with `openapi_url=None`. A decorator that passes `**kwargs` is skipped
(what it sets is unknown), as are websockets. Apps, routers and inclusions are read
across files (see the family's project graph). Test modules are skipped unless
`check-tests = true`. One finding per operation, on its decorator, lists all it lacks.

```toml
[tool.inwards]
layers = [{ name = "api", modules = ["shop.api"] }]

[tool.inwards.rules]
extend-select = ["FAPI001"]

[tool.inwards.rules.endpoint-metadata]
require-status-code = ["post", "put", "delete"]
require-tags = true
```
""",
    why_is_this_bad="""
The OpenAPI schema is the contract clients, generated SDKs and API consoles read. Without a
summary an operation is listed by its function name; without a response model clients see
an untyped body; without an explicit status code a creating POST documents 200 while it
means 201; a declared response without a description is an entry nobody can act on.
""",
    how_to_fix="""
Add what the finding lists to the decorator: `summary="..."` (or a docstring),
`response_model=Order` or a `-> Order` return annotation (either one is enough, so ruff's
FAST001, which reports a `response_model=` that repeats the annotation, never asks the
opposite), `status_code=201` (use
`fastapi.status` names), and a `"description"` in each `responses=` entry. An endpoint
that returns nothing (`-> None`, or no `return` with a value) has no body for a model to
describe: give it `status_code=204` (or a `response_class=`), as its finding's fix says.
An operation meant to stay private takes `include_in_schema=False`. If the project does not want one of
these requirements, turn it off in `[tool.inwards.rules.endpoint-metadata]`.
""",
    limitations="""
An `add_api_route(path, endpoint)` call is judged when `endpoint` names a top-level
function of the project and its methods are known (no `methods=` means GET); a nested
function, a factory's result or a `methods=` that is not a literal list of strings leaves
it out. So does a decorator that
registers on a module-level app or router from inside a function (the project graph leaves
those out: when it runs is unknown). A `responses=` whose value is a name, a call,
a spread (`**common`) or a dict cut by the content facts' bound is not judged for
descriptions, and FastAPI fills a missing description with the status phrase, so that part
of the rule is about intent rather than a broken schema. Return annotations are read by
name: any annotation other than `None`, `Any`, `object` and the JSON response classes
counts as a model (`-> dict` too), and a `Response` subclass counts as a deliberate
non-JSON body. A custom `route_class` that adds metadata is not understood. Whether an app
serves an operation comes from the project graph: an operation reached through a router
the graph cannot name is judged as if it were in a schema.
""",
)
