"""The scaffold texts of the framework styles (django, fastapi), as `str.format` templates
like those of `scaffold_texts.py`: `{p}` the package, `{models}`, `{service}`, ... the dotted
module of each role; literal braces are doubled. Nothing here is imported by inwards' own
code at run time beyond these strings: the frameworks are imported by the scaffolded
project, never by inwards."""

from __future__ import annotations

DJANGO_MODELS = '''"""The app's data: Django models, no views or HTTP here."""

from django.db import models


class Order(models.Model):
    item = models.CharField(max_length=200)
    quantity = models.PositiveIntegerField()
'''

DJANGO_SERVICES = '''"""The app's use cases, and the one module other apps may import."""

from {models} import Order


def place_order(item: str, quantity: int) -> Order:
    if quantity <= 0:
        raise ValueError("an order needs a positive quantity")
    return Order.objects.create(item=item, quantity=quantity)
'''

DJANGO_VIEWS = '''"""HTTP in and out; the work is the services'."""

from django.http import HttpRequest, JsonResponse

from {services} import place_order


def create_order(request: HttpRequest) -> JsonResponse:
    order = place_order(request.POST["item"], int(request.POST["quantity"]))
    return JsonResponse({{"id": order.pk}}, status=201)
'''

DJANGO_ADMIN = """from django.contrib import admin

from {models} import Order

admin.site.register(Order)
"""

DJANGO_APP_URLS = """from django.urls import path

from {views} import create_order

urlpatterns = [path("orders/", create_order, name="create-order")]
"""

DJANGO_APPS = """from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "{p}.orders"
"""

DJANGO_SETTINGS = '''"""Settings for development only: set SECRET_KEY and DEBUG from the environment in
production."""

SECRET_KEY = "change-me"
DEBUG = True
ALLOWED_HOSTS: list[str] = []
INSTALLED_APPS = ["django.contrib.admin", "django.contrib.auth",
                  "django.contrib.contenttypes", "{p}.orders"]
ROOT_URLCONF = "{p}.urls"
DATABASES = {{"default": {{"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}}}}
'''

DJANGO_PROJECT_URLS = """from django.urls import include, path

urlpatterns = [path("", include("{p}.orders.urls"))]
"""

DJANGO_WSGI = """import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "{p}.settings")
application = get_wsgi_application()
"""

DJANGO_ASGI = """import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "{p}.settings")
application = get_asgi_application()
"""

DJANGO_MANAGE = """#!/usr/bin/env python
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "{p}.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
"""

DJANGO_TEST = '''"""Run with `python manage.py test` (needs Django)."""

from django.test import TestCase

from {services} import place_order


class PlaceOrderTests(TestCase):
    def test_keeps_the_order(self) -> None:
        order = place_order("book", 2)
        self.assertEqual(order.quantity, 2)
'''

FASTAPI_CONSTANTS = """MAX_QUANTITY = 100
"""

FASTAPI_DOMAIN_CONFIG = '''"""This domain's settings."""

from {kernel_config} import settings

PAGE_SIZE = settings.page_size
'''

FASTAPI_EXCEPTIONS = """from {p}.exceptions import DomainError


class QuantityTooLarge(DomainError):
    status_code = 422
"""

FASTAPI_MODELS = '''"""What an order is (a database table would live here)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    id: int
    item: str
    quantity: int
'''

FASTAPI_SCHEMAS = '''"""What the API reads and writes."""

from pydantic import BaseModel


class OrderIn(BaseModel):
    item: str
    quantity: int


class OrderOut(BaseModel):
    id: int
    item: str
    quantity: int
'''

FASTAPI_UTILS = """from {constants} import MAX_QUANTITY


def within_limit(quantity: int) -> bool:
    return 0 < quantity <= MAX_QUANTITY
"""

FASTAPI_SERVICE = '''"""The use case, and the port it needs; no FastAPI here."""

from typing import Protocol

from {exceptions} import QuantityTooLarge
from {models} import Order
from {utils} import within_limit


class OrderRepository(Protocol):
    def add(self, order: Order) -> None: ...

    def count(self) -> int: ...


def place_order(orders: OrderRepository, item: str, quantity: int) -> Order:
    if not within_limit(quantity):
        raise QuantityTooLarge(f"at most 100 of one item, not {{quantity}}")
    order = Order(id=orders.count() + 1, item=item, quantity=quantity)
    orders.add(order)
    return order
'''

FASTAPI_DEPENDENCIES = '''"""What the routers are handed: the repository adapter, over the shared storage."""

from {database} import tables
from {models} import Order
from {service} import OrderRepository


class InMemoryOrders:
    def __init__(self, rows: list[Order]) -> None:
        self._rows = rows

    def add(self, order: Order) -> None:
        self._rows.append(order)

    def count(self) -> int:
        return len(self._rows)


def get_orders() -> OrderRepository:
    return InMemoryOrders(tables.setdefault("orders", []))
'''

FASTAPI_ROUTER = """from typing import Annotated

from fastapi import APIRouter, Depends

from {dependencies} import get_orders
from {schemas} import OrderIn, OrderOut
from {service} import OrderRepository, place_order

router = APIRouter(prefix="/orders", tags=["orders"])


@router.post(
    "",
    response_model=OrderOut,
    status_code=201,
    summary="Place an order",
    responses={{422: {{"description": "Too many of one item"}}}},
)
def create_order(
    body: OrderIn, orders: Annotated[OrderRepository, Depends(get_orders)]
) -> OrderOut:
    order = place_order(orders, body.item, body.quantity)
    return OrderOut(id=order.id, item=order.item, quantity=order.quantity)
"""

FASTAPI_DATABASE = '''"""The storage every domain shares: in memory here (an engine and sessions in a real
service)."""

from typing import Any

tables: dict[str, list[Any]] = {{}}
'''

FASTAPI_KERNEL_CONSTANTS = """APP_NAME = "{p}"
"""

FASTAPI_CONFIG = '''"""Settings read once, shared by every domain."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    page_size: int = 20


settings = Settings()
'''

FASTAPI_KERNEL_EXCEPTIONS = """class DomainError(Exception):
    status_code = 400
"""

FASTAPI_MAIN = '''"""The application: every domain's router included, nothing else."""

from fastapi import FastAPI

from {kernel_constants} import APP_NAME
from {router} import router as orders_router

app = FastAPI(title=APP_NAME)
app.include_router(orders_router)
'''

FASTAPI_TEST = """from {dependencies} import InMemoryOrders
from {service} import place_order


def test_place_order_keeps_the_order() -> None:
    orders = InMemoryOrders([])
    order = place_order(orders, "book", 2)
    assert (order.id, order.quantity) == (1, 2)
"""
