"""The page and the examples of fapi.undocumented-error-response (FAPI002)."""

from __future__ import annotations

from inwards_core import Example, KindDocs

_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "api", modules = ["shop.api"] },\n'
    "]\n\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["FAPI002"]\n'
)
_LOOKUP = (
    "from fastapi import HTTPException, status\n\n\n"
    "def load_order(order_id: int) -> dict[str, int]:\n"
    "    if order_id < 0:\n"
    "        raise HTTPException(status.HTTP_404_NOT_FOUND, 'no such order')\n"
    "    return {'id': order_id}\n"
)


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="A 404 from a helper and a 409 raised in the endpoint, neither declared",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/lookup.py": _LOOKUP,
                "shop/api/orders.py": (
                    "from fastapi import APIRouter, HTTPException\n\n"
                    "from shop.api.lookup import load_order\n\n"
                    'router = APIRouter(prefix="/orders")\n\n\n'
                    '@router.post("/{order_id}/confirm", responses={400: {"description": "x"}})'
                    "  # expect: FAPI002\n"
                    "async def confirm_order(order_id: int) -> dict[str, int]:\n"
                    "    order = load_order(order_id)\n"
                    "    if order['id'] == 0:\n"
                    "        raise HTTPException(status_code=409, detail='already confirmed')\n"
                    "    return order\n"
                ),
            },
        ),
        Example(
            title="A domain error the app's exception handler answers with 409",
            good=False,
            config=_CONFIG,
            files={
                "shop/domain/orders.py": (
                    "class OrderError(Exception):\n    pass\n\n\n"
                    "class AlreadyShipped(OrderError):\n    pass\n\n\n"
                    "def cancel(order_id: int) -> None:\n"
                    "    raise AlreadyShipped(order_id)\n"
                ),
                "shop/api/main.py": (
                    "from fastapi import FastAPI\n"
                    "from fastapi.responses import JSONResponse\n\n"
                    "from shop.domain.orders import OrderError, cancel\n\n"
                    "app = FastAPI()\n\n\n"
                    "@app.exception_handler(OrderError)\n"
                    "async def order_error(request, exc):\n"
                    "    return JSONResponse({'detail': str(exc)}, status_code=409)\n\n\n"
                    '@app.delete("/orders/{order_id}", status_code=204)  # expect: FAPI002\n'
                    "async def cancel_order(order_id: int) -> None:\n"
                    "    cancel(order_id)\n"
                ),
            },
        ),
        Example(
            title="Codes declared on the decorator, the router or with a range",
            good=True,
            config=_CONFIG,
            files={
                "shop/api/lookup.py": _LOOKUP,
                "shop/api/orders.py": (
                    "from fastapi import APIRouter, HTTPException\n"
                    "from fastapi.responses import JSONResponse\n\n"
                    "from shop.api.lookup import load_order\n\n"
                    'router = APIRouter(responses={404: {"description": "No such order"}})\n\n\n'
                    '@router.post("/{order_id}/confirm", responses={"4XX": {"description": "x"}})\n'
                    "async def confirm_order(order_id: int) -> dict[str, int]:\n"
                    "    order = load_order(order_id)\n"
                    "    if order['id'] == 0:\n"
                    "        raise HTTPException(status_code=409, detail='already confirmed')\n"
                    "    return order\n\n\n"
                    '@router.get("/{order_id}", responses={410: {"description": "Gone"}})\n'
                    "async def read_order(order_id: int):\n"
                    "    if order_id == 0:\n"
                    "        return JSONResponse({'error': 'gone'}, status_code=410)\n"
                    "    return load_order(order_id)\n"
                ),
            },
        ),
    )


DOCS = KindDocs(
    what_it_does="""
Reports a path operation that can respond with an HTTP error code (4xx by default) that its
OpenAPI entry does not declare. The codes it can produce are found in rings, each as far
as the code shows it:

1. the endpoint itself: `raise HTTPException(404)` or `HTTPException(status_code=...)`
   (FastAPI's or Starlette's, or the project's subclass of either, whose `__init__` may fix
   the code with `super().__init__(404, ...)`), and error responses it builds
   (`JSONResponse(..., status_code=409)`, any response class of `fastapi.responses` or
   `starlette.responses`);
2. the functions of the project it calls, in its file or imported (re-exports followed),
   and its `Depends`/`Security` targets: in its parameters, in the decorator's
   `dependencies=`, and in the `dependencies=` of its router, of the routers and
   `include_router` calls that bring it into an app, and of the app;
3. what those call and depend on in turn, up to `max-depth` calls away (2 by default);
4. the project's exceptions raised along the way that an exception handler of the app
   turns into an error response: `app.add_exception_handler(OrderError, handler)` or
   `@app.exception_handler(OrderError)` where the app is made, the handler building
   `JSONResponse(..., status_code=409)`; a subclass maps through its nearest handled base.
   With `handled-counts-as-documented = true` such codes count as declared.

A code is written as a number or a `status.HTTP_404_NOT_FOUND`/`HTTPStatus.NOT_FOUND`
name; a code in a variable is unknown and never reported. It is declared when a
`responses=` on the way from the app to the operation names it: the decorator's, its
router's, an `include_router` call's, an included router's, the app's; a `"4XX"` key
covers every 4xx code and `"default"` every code. 422, which FastAPI documents for request
validation, is left alone unless `explicit-422 = "report"`.

Unknown means silent: an operation whose `responses=` on that way is a name, a call or a
dict with a spread (`**common`), or that sets `openapi_extra=`, is not judged; when an app
serving it registers its own handler for `HTTPException` that may answer with another code
(one that neither calls FastAPI's `http_exception_handler` nor responds with
`status_code=exc.status_code`), the codes it raises are that handler's to decide and are
not reported (error responses it builds still are). Operations in
no schema (`include_in_schema=False`, apps with `openapi_url=None`) and websockets are
skipped, as are test modules unless `check-tests = true`. One finding per operation, on its
decorator, lists each undeclared code with where it comes from.

```toml
[tool.inwards]
layers = [{ name = "api", modules = ["shop.api"] }]

[tool.inwards.rules]
extend-select = ["FAPI002"]

[tool.inwards.rules.undocumented-error-response]
codes = "4xx-5xx"
max-depth = 3
```
""",
    why_is_this_bad="""
Clients, generated SDKs and API consoles learn the errors an operation can return from its
OpenAPI entry only. An undeclared 404 or 409 is an error clients were never told about:
generated clients treat it as unexpected, and nobody writes the handling the contract
never asked for.
""",
    how_to_fix="""
Declare each code the finding lists in `responses=`, on the decorator
(`responses={404: {"description": "No such order", "model": Message}}`) or, for codes
every operation of a router shares, on `APIRouter(responses=...)` or the
`include_router` call. If the code cannot happen, change the code that raises it. For a
project that documents errors elsewhere, raise `max-depth`'s floor with
`report-direct-raises = false` or turn the rule off.
""",
    limitations="""
Not followed: methods (`await manager.get(...)`, `self.check()`), functions passed around
as values, and a `dependencies=` that is not a list literal. A parameter annotated with a module-level alias
(`CurrentUser = Annotated[User, Depends(get_current_user)]`) is followed to the `Depends`
written in the alias's statement. Exception handlers are read only where the app is made (a
`register_handlers(app)` elsewhere is not seen), a handler's code only when it is written
in the response it builds, and a class's first base only. A raise caught again inside the
endpoint is still counted. Functions are read through the content facts, which
parse only a file whose text holds one of a few fixed words (`async `, `@`, `class `,
...): a helper module with none of them is not seen. An operation no app is known to serve (its
router included by a function that receives the parent, say) is judged with the
`responses=` and `dependencies=` of its decorator, its router and the `include_router`
calls that include that router, whatever their receiver; the `responses=` of the routers
above (a router that includes it, and the calls and routers that include that one) count
as declared too, their `dependencies=` are not followed.
""",
)
