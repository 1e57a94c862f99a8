"""INW010's probe (exists), first-party/stdlib/third-party, import targets, near misses."""

from __future__ import annotations

import pytest

from inwards_core.index import hints
from inwards_core.model.facts import ImportFact, ImportStyle
from inwards_core.model.findings import Span

from .helpers import index

SHOP = [
    "src/shop/__init__.py",
    "src/shop/domain/__init__.py",
    "src/shop/domain/order.py",
    "src/shop/domain/pricing.py",
    "src/shop/domain/tax_rules.py",
    "src/shop/api/__init__.py",
    "src/shop/api/routes.py",
]


def shop(**options: object):  # type: ignore[no-untyped-def]
    return index(SHOP, root="src", **options)


def fact(style: ImportStyle, module: str | None, name: str | None = None) -> ImportFact:
    if style is ImportStyle.IMPORT:
        target = module
    elif style is ImportStyle.FROM and module is not None:
        target = f"{module}.{name}"
    else:
        target = module
    return ImportFact(style, module, name, target, 0, Span(1, 1, 1, 2), "import ...")


def test_exists_for_modules_packages_and_nothing_else() -> None:
    idx = shop()
    assert idx.exists("shop")
    assert idx.exists("shop.domain")
    assert idx.exists("shop.domain.order")
    assert not idx.exists("shop.domain.taxes")
    assert not idx.exists("shop.domain.order.Order")  # an attribute, not a module
    assert not idx.exists("")
    assert not idx.exists("shop..domain")


def test_generated_patterns_match_whole_segments_anywhere() -> None:
    idx = shop()  # default: *_pb2, *_pb2_grpc, _version
    assert idx.is_generated("shop.api.orders_pb2")
    assert idx.exists("shop.api.orders_pb2")
    assert idx.exists("shop.api.orders_pb2_grpc")
    assert idx.exists("shop._version")
    assert idx.exists("shop.api.orders_pb2.Message")  # below a generated module: unknown
    assert not idx.is_generated("shop.api.orders_pb2x")
    assert not idx.is_generated("shop.my_version")
    assert not idx.is_generated("shop.api")


def test_generated_question_mark_and_multi_segment_and_off() -> None:
    idx = shop(generated=["v?_api", "proto.*_gen"])
    assert idx.is_generated("shop.v1_api")
    assert not idx.is_generated("shop.v10_api")
    assert idx.is_generated("shop.proto.orders_gen")
    assert not idx.is_generated("shop.orders_gen")
    assert not idx.is_generated("shop.proto.a.orders_gen")  # `*` never crosses a dot
    off = shop(generated=[])
    assert not off.exists("shop.api.orders_pb2")
    assert not off.is_generated("shop._version")


def test_namespace_packages_accept_anything_inside() -> None:
    idx = index(["acme/billing/core.py"], namespace_packages=["acme"])
    assert idx.exists("acme")
    assert idx.exists("acme.shipping")  # a portion from an installed distribution
    assert idx.exists("acme.shipping.labels")
    assert not idx.exists("acmex.shipping")
    without = index(["acme/billing/core.py"])
    assert not without.exists("acme.shipping")


def test_namespace_package_entry_makes_its_top_level_first_party() -> None:
    idx = index(["shop/__init__.py"], namespace_packages=["corp.plugins"])
    assert idx.is_first_party("corp.plugins.x")
    assert idx.exists("corp.plugins.x.y")
    assert not idx.exists("corp.other")


def test_packages_extending_path_accept_everything_below() -> None:
    files = ["shop/__init__.py", "shop/legacy/__init__.py"]
    idx = index(files, path_extending=frozenset({"shop.legacy"}))
    assert idx.exists("shop.legacy.plugin.deep")
    assert not idx.exists("shop.other")
    assert not index(files).exists("shop.legacy.plugin")


def test_first_party_by_top_level() -> None:
    idx = shop()
    assert idx.is_first_party("shop")
    assert idx.is_first_party("shop.nothing.here")
    assert not idx.is_first_party("src")
    assert not idx.is_first_party("shopx")
    assert idx.is_first_party("foo_pb2")  # generated at the top level


def test_classify() -> None:
    idx = shop()
    assert idx.classify("os.path") == "stdlib"
    assert idx.classify("__future__") == "stdlib"
    assert idx.classify("_thread") == "stdlib"
    assert idx.classify("sqlalchemy.orm") == "third-party"
    assert idx.classify("shop.domain.order") == "first-party"


def test_first_party_module_shadows_stdlib_name() -> None:
    idx = index(["app/__init__.py", "logging/__init__.py", "logging/handlers.py", "json.py"])
    assert idx.classify("logging.handlers") == "first-party"
    assert idx.classify("json") == "first-party"
    assert idx.classify("os") == "stdlib"


def test_namespace_directory_does_not_shadow_stdlib() -> None:
    # A bare `email/` folder (templates, no __init__) never hides the standard library.
    idx = index(["app/__init__.py", "email/welcome.html", "email/sub/notes.txt"])
    assert idx.classify("email.mime") == "stdlib"
    # ... while a namespace folder holding code with a non-stdlib name is ours.
    idx = index(["tools/run.py"])
    assert idx.classify("tools.run") == "first-party"


def test_directory_without_python_is_not_first_party() -> None:
    idx = index(["app/__init__.py"], extra_dirs=["templates"])
    assert idx.exists("templates")
    assert not idx.is_first_party("templates")


def test_resolve_target_from_import_submodule_vs_attribute() -> None:
    idx = shop()
    # `from shop.domain import order`: order is a submodule
    assert idx.resolve_target(fact(ImportStyle.FROM, "shop.domain", "order")) == "shop.domain.order"
    # `from shop.domain import Order`: an attribute of the package
    assert idx.resolve_target(fact(ImportStyle.FROM, "shop.domain", "Order")) == "shop.domain"
    # `from shop.domain.order import Order`: the module part
    assert (
        idx.resolve_target(fact(ImportStyle.FROM, "shop.domain.order", "Order"))
        == "shop.domain.order"
    )
    # `from shop import api`: a subpackage
    assert idx.resolve_target(fact(ImportStyle.FROM, "shop", "api")) == "shop.api"
    # `from sqlalchemy import orm`: not ours, stays at the module part
    assert idx.resolve_target(fact(ImportStyle.FROM, "sqlalchemy", "orm")) == "sqlalchemy"


def test_resolve_target_import_star_and_climbing_relative() -> None:
    idx = shop()
    assert idx.resolve_target(fact(ImportStyle.IMPORT, "shop.domain.order")) == "shop.domain.order"
    assert idx.resolve_target(fact(ImportStyle.STAR, "shop.domain")) == "shop.domain"
    assert idx.resolve_target(fact(ImportStyle.FROM, None, "x")) is None


def test_missing_part() -> None:
    idx = shop()
    assert idx.missing_part("shop.domain.taxes") == ("shop.domain", "taxes")
    assert idx.missing_part("shop.domain.taxes.vat") == ("shop.domain", "taxes")
    assert idx.missing_part("shop.billing") == ("shop", "billing")
    assert idx.missing_part("nowhere.x") == ("", "nowhere")
    assert idx.missing_part("shop.domain.order") is None


def test_closest_modules_ranks_by_edit_distance() -> None:
    idx = shop()
    assert idx.closest_modules("shop.domain.oder") == (
        "shop.domain.order",
        "shop.domain.pricing",
        "shop.domain.tax_rules",
    )
    assert idx.closest_modules("shop.domain.tax_rule", limit=1) == ("shop.domain.tax_rules",)
    assert idx.closest_modules("shop.apix") == ("shop.api", "shop.domain")
    assert idx.closest_modules("shop.domain.order") == ()
    assert idx.closest_modules("shop.domain.x", limit=0) == ()


def test_closest_modules_cost_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each unknown import was compared with every module of its package, in Python: a
    thousand findings took seconds, a long name minutes. Answers are kept per name, a name
    longer than 100 characters is no typo, and past a budget of comparing no more are
    looked for. The cost is counted (characters times characters compared), not timed."""
    compared: list[int] = []
    measured = hints.edit_distance

    def counting(left: str, right: str, limit: int | None = None) -> int:
        compared.append(len(left) * len(right))
        return measured(left, right, limit)

    monkeypatch.setattr(hints, "edit_distance", counting)
    files = [f"shop/domain/module_number_{n}.py" for n in range(200)] + ["shop/__init__.py"]
    idx = index(files, ("domain", ["shop.domain"]))
    assert idx.closest_modules("shop.domain.x" + "y" * 1_000_000) == ()
    assert compared == []  # a name that long is no typo: nothing compared
    answers = [idx.closest_modules(f"shop.domain.module_numbr_{n}") for n in range(5_000)]
    assert 0 < sum(compared) <= hints._CLOSEST_BUDGET
    assert answers[0][0] == "shop.domain.module_number_0"
    assert answers[-1] == ()  # past the budget
    assert idx.closest_modules("shop.domain.module_numbr_0") == answers[0]  # kept
