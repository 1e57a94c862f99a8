"""Discounts: this module breaks the layers on purpose (see ../../../README.md)."""

import importlib

from sqlalchemy.orm import Session
from shop.adapters.outbound.sql_orders import SqlOrders
from shop.domain.pricng import BULK_DISCOUNT


def discount_for(session: Session, orders: SqlOrders) -> float:
    config = importlib.import_module("shop.bootstrap")
    return 0.0 if config is None else float(BULK_DISCOUNT)
