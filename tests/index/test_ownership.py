"""Layer ownership: which entry of which layer owns a name (the precedence truth table)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from .helpers import index

Spec = tuple[tuple[str, Sequence[str]], ...]

# (layers innermost first, name asked about, expected (layer, entry index) or None)
TRUTH_TABLE: list[tuple[Spec, str, tuple[str, int] | None]] = [
    # a literal owns itself and everything below, never a name that only starts the same
    ((("domain", ["shop.domain"]),), "shop.domain", ("domain", 0)),
    ((("domain", ["shop.domain"]),), "shop.domain.order.Order", ("domain", 0)),
    ((("domain", ["shop.domain"]),), "shop.domainx", None),
    ((("domain", ["shop.domain"]),), "shop", None),
    # the deeper last literal wins, whichever layer comes first
    ((("outer", ["shop"]), ("inner", ["shop.domain"])), "shop.domain.x", ("inner", 0)),
    ((("inner", ["shop.domain"]), ("outer", ["shop"])), "shop.domain.x", ("inner", 0)),
    ((("outer", ["shop"]), ("inner", ["shop.domain"])), "shop.billing", ("outer", 0)),
    # literal vs selector: a literal deeper than the selector's last literal wins ...
    ((("sel", ["shop.*"]), ("lit", ["shop.domain"])), "shop.domain.x", ("lit", 0)),
    # ... and a selector whose last literal is deeper beats a shallower literal
    ((("lit", ["shop.orders"]), ("api", ["shop.*.api"])), "shop.orders.api.v1", ("api", 0)),
    ((("lit", ["shop.orders"]), ("api", ["shop.*.api"])), "shop.orders.models", ("lit", 0)),
    # a shallow literal still beats a selector that matches deeper on wildcards only
    ((("wide", ["shop.*.*.*"]), ("lit", ["shop.domain"])), "shop.domain.a.b", ("lit", 0)),
    # `**` spans one or more segments, `*` exactly one
    ((("one", ["shop.*.models"]),), "shop.a.b.models", None),
    ((("many", ["shop.**.models"]),), "shop.a.b.models", ("many", 0)),
    ((("many", ["shop.**.models"]),), "shop.models", None),
    # `**` vs `*` matching the same way: a tie, so the layer listed first wins
    ((("star", ["shop.*.models"]), ("glob", ["shop.**.models"])), "shop.o.models", ("star", 0)),
    ((("glob", ["shop.**.models"]), ("star", ["shop.*.models"])), "shop.o.models", ("glob", 0)),
    # the deeper match wins when the last literals stand at the same place
    ((("two", ["shop.*"]), ("three", ["shop.*.*"])), "shop.x.y.z", ("three", 0)),
    ((("three", ["shop.*.*"]), ("two", ["shop.*"])), "shop.x", ("two", 0)),
    # more literals win when last literal and depth agree
    ((("loose", ["a.**.d"]), ("tight", ["a.b.*.d"])), "a.b.c.d", ("tight", 0)),
    ((("sel", ["a.*.c"]), ("lit", ["a.b.c"])), "a.b.c", ("lit", 0)),
    # a tie inside one layer goes to the earlier entry
    ((("both", ["shop.x", "shop.*.api", "shop.**.api"]),), "shop.o.api", ("both", 1)),
    ((("both", ["shop.**.api", "shop.*.api"]),), "shop.o.api", ("both", 0)),
    # a selector only owns what it reaches; names elsewhere stay unowned
    ((("api", ["shop.*.api"]),), "shop.orders", None),
    ((("api", ["shop.*.api"]),), "other.orders.api", None),
]


@pytest.mark.parametrize(("spec", "name", "expected"), TRUTH_TABLE)
def test_precedence_truth_table(spec: Spec, name: str, expected: tuple[str, int] | None) -> None:
    idx = index([], *spec)
    owner = idx.owning_pattern(name)
    got = None if owner is None else (owner[0].name, owner[1])
    assert got == expected
    layer = idx.layer_of(name)
    assert (None if layer is None else layer.name) == (None if expected is None else expected[0])


def test_modules_carry_their_owner_from_build() -> None:
    idx = index(
        ["shop/__init__.py", "shop/domain/order.py", "shop/adapters/sql.py", "shop/common.py"],
        ("domain", ["shop.domain"]),
        ("adapters", ["shop.adapters"]),
    )
    owners = {name: info.layer.name if info.layer else None for name, info in idx.modules.items()}
    assert owners == {
        "shop": None,
        "shop.domain.order": "domain",
        "shop.adapters.sql": "adapters",
        "shop.common": None,
    }


def test_lookups_are_memoised_and_stable() -> None:
    idx = index([], ("domain", ["shop.domain"]))
    first = idx.owning_pattern("shop.domain.order")
    assert first is idx.owning_pattern("shop.domain.order")
