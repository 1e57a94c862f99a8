"""A command line that places one order."""

from __future__ import annotations

import argparse

from shop.application.place_order import PlaceOrder


def run(place_order: PlaceOrder, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("customer")
    parser.add_argument("items", nargs="+", help="sku:quantity:price")
    args = parser.parse_args(argv)
    items = [tuple(item.split(":")) for item in args.items]
    return place_order(args.customer, [(s, int(q), p) for s, q, p in items])
