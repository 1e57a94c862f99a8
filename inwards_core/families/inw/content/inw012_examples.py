"""The examples of inw.thin-endpoint (INW012): good and bad projects that
its page shows with their real output and the tests run."""

from __future__ import annotations

from inwards_core import Example

_CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "api", modules = ["shop.api"] },
]

[tool.inwards.rules]
extend-select = ["INW012"]
"""

_FAT_FASTAPI = """\
from fastapi import APIRouter, Depends, HTTPException
import httpx
from sqlalchemy.orm import Session

from shop.api.deps import get_session

router = APIRouter()


@router.post("/orders")
async def create_order(payload: dict, db: Session = Depends(get_session)):  # expect: INW012
    total = 0
    for line in payload["lines"]:
        total += line["price"] * line["quantity"]
    order = {"total": total, "lines": payload["lines"]}
    db.add(order)
    db.commit()
    await httpx.AsyncClient().post("https://mail.example/send", json=order)
    return order
"""

_THIN_FASTAPI = '''\
from fastapi import APIRouter, Depends, HTTPException

from shop.application.orders import OrderService, OutOfStock

router = APIRouter()


@router.post("/orders")
async def create_order(payload: dict, service: OrderService = Depends()):
    """Guards that only raise are free: this endpoint is thin."""
    if not payload.get("lines"):
        raise HTTPException(status_code=422, detail="no lines")
    try:
        order = await service.place(payload["lines"])
    except OutOfStock as error:
        raise HTTPException(status_code=409, detail=str(error)) from error
    return {"id": order.id}
'''

_SERVICE = """\
class OutOfStock(Exception):
    pass


class OrderService:
    async def place(self, lines):
        return lines
"""

_FACTORY = """\
from fastapi import APIRouter


def get_reports_router(store) -> APIRouter:
    router = APIRouter()

    def _totals(rows):
        result = {}
        for row in rows:
            if row["refunded"]:
                amount = -row["amount"]
            elif row["voided"]:
                amount = 0
            else:
                amount = row["amount"]
            if row["day"] not in result:
                result[row["day"]] = 0
            result[row["day"]] += amount
        return result

    @router.get("/reports/daily")
    async def daily(month: int):  # expect: INW012
        rows = await store.rows(month)
        if not rows:
            return []
        return _totals(rows)

    return router
"""

_FLASK = """\
from flask import request
from flask.views import MethodView


class InvoiceView(MethodView):
    def get(self, number):
        return {"number": number}

    def post(self):  # expect: INW012
        data = request.get_json()
        if data.get("draft"):
            status = "draft"
        elif data.get("paid"):
            status = "paid"
        else:
            status = "open"
        if status == "paid" and not data.get("receipt"):
            status = "open"
        return {"status": status}
"""

_DELEGATE_CONFIG = (
    _CONFIG
    + """
[tool.inwards.rules.thin-endpoint]
delegate-to = ["application"]
max-nesting = false
"""
)

_NO_DELEGATION = """\
from fastapi import FastAPI

from shop.application.orders import OrderService

app = FastAPI()


@app.get("/orders/{number}")
async def read_order(number: int, service: OrderService):
    return await service.find(number)


@app.get("/health")
async def health():
    return {"ok": True}


@app.get("/orders/{number}/total")
async def order_total(number: int, prices: dict):  # expect: INW012
    lines = prices.get(str(number), [])
    total = sum(line["price"] for line in lines)
    tax = round(total * 0.2, 2)
    return {"total": total + tax}
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="An endpoint that loops, writes to the database and sends mail itself",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/orders.py": _FAT_FASTAPI,
                "shop/api/deps.py": "def get_session():\n    return None\n",
            },
        ),
        Example(
            title="A thin endpoint: guards and error mapping around one call",
            good=True,
            config=_CONFIG,
            files={"shop/api/orders.py": _THIN_FASTAPI, "shop/application/orders.py": _SERVICE},
        ),
        Example(
            title="A router built in a factory, with a helper folded in",
            good=False,
            config=_CONFIG,
            files={"shop/api/reports.py": _FACTORY},
        ),
        Example(
            title="A Flask MethodView whose post decides itself",
            good=False,
            config=_CONFIG,
            files={"shop/api/invoices.py": _FLASK},
        ),
        Example(
            title="delegate-to: every endpoint must call the application layer",
            good=False,
            config=_DELEGATE_CONFIG,
            files={"shop/api/main.py": _NO_DELEGATION, "shop/application/orders.py": _SERVICE},
        ),
    )
