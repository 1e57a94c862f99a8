"""Whole-project questions: dead layer entries, empty layers, unassigned packages, ignore."""

from __future__ import annotations

from .helpers import index

SHOP = [
    "shop/__init__.py",
    "shop/domain/__init__.py",
    "shop/domain/order.py",
    "shop/application/__init__.py",
    "shop/application/place.py",
    "shop/common/__init__.py",
    "shop/common/money.py",
    "shop/common/text/__init__.py",
    "shop/common/text/slug.py",
    "shop/orders/migrations/__init__.py",
    "shop/orders/migrations/0001_initial.py",
    "shop/orders/__init__.py",
    "shop/orders/api/__init__.py",
    "shop/orders/api/routes.py",
    "shop/orders/models.py",
    "tests/test_order.py",
    "scripts/seed.py",
    "setup.py",
]


def names(infos: tuple[object, ...]) -> list[str]:
    return [info.name for info in infos]  # type: ignore[attr-defined]


def test_dead_prefixes_and_selectors() -> None:
    idx = index(
        SHOP,
        ("domain", ["shop.domain", "shop.nothere"]),
        ("api", ["shop.*.api", "shop.*.graphql"]),
        ("app", ["shop.application.place", "shop.application.place.sub"]),
    )
    dead = [(layer.name, i, layer.modules[i]) for layer, i in idx.unmatched_patterns()]
    assert dead == [
        ("domain", 1, "shop.nothere"),
        ("api", 1, "shop.*.graphql"),
        ("app", 1, "shop.application.place.sub"),
    ]
    assert idx.empty_layers() == ()


def test_literal_prefix_of_a_deeper_module_is_alive() -> None:
    idx = index(["shop/a/b/c.py"], ("a", ["shop.a"]), ("ab", ["shop.a.b"]))
    assert idx.unmatched_patterns() == ()


def test_prefix_naming_only_an_empty_directory_is_dead() -> None:
    idx = index(["shop/__init__.py"], ("d", ["shop.domain"]), extra_dirs=["shop/domain"])
    assert [(layer.name, i) for layer, i in idx.unmatched_patterns()] == [("d", 0)]


def test_empty_layers() -> None:
    idx = index(
        SHOP,
        ("domain", ["shop.domain"]),
        ("ghost", ["shop.ghost", "shop.*.phantom"]),
        ("bare", []),
        ("half", ["shop.application", "shop.nothere"]),
    )
    assert [layer.name for layer in idx.empty_layers()] == ["ghost", "bare"]


def test_unassigned_packages_report_the_highest_unowned() -> None:
    idx = index(
        SHOP,
        ("domain", ["shop.domain"]),
        ("application", ["shop.application"]),
        ("api", ["shop.*.api"]),
    )
    # `shop` holds layers (not reported); `shop.orders` holds `shop.orders.api`, so only its
    # unowned children are; `shop.common` once, not its children; top-level leftovers too.
    assert names(idx.unassigned_packages()) == [
        "scripts",
        "setup",
        "shop.common",
        "shop.orders.migrations",
        "shop.orders.models",
        "tests",
    ]
    common = next(i for i in idx.unassigned_packages() if i.name == "shop.common")
    assert common.file == "shop/common/__init__.py"
    assert common.is_package


def test_unassigned_packages_respect_ignore() -> None:
    idx = index(
        SHOP,
        ("domain", ["shop.domain"]),
        ("application", ["shop.application"]),
        ("api", ["shop.*.api"]),
        ignore=["/tests", "migrations", "scripts", "setup"],
    )
    assert names(idx.unassigned_packages()) == ["shop.common", "shop.orders.models"]


def test_namespace_package_reported_at_its_first_file() -> None:
    idx = index(
        ["shop/__init__.py", "shop/domain/order.py", "shop/tools/b.py", "shop/tools/a.py"],
        ("domain", ["shop.domain"]),
    )
    (tools,) = idx.unassigned_packages()
    assert (tools.name, tools.file, tools.is_package, tools.layer) == (
        "shop.tools",
        "shop/tools/a.py",
        True,
        None,
    )


def test_selector_holds_a_package_only_when_a_module_below_matches() -> None:
    files = [
        "shop/__init__.py",
        "shop/orders/__init__.py",
        "shop/orders/domain/__init__.py",
        "shop/orders/domain/order.py",
        "shop/billing/__init__.py",
        "shop/billing/invoice.py",
    ]
    idx = index(files, ("domain", ["shop.*.domain"]))
    # `shop.billing` has no `domain` below it, so the selector does not hold it.
    assert names(idx.unassigned_packages()) == ["shop.billing"]
    # `shop.orders` itself is not owned, but it holds `shop.orders.domain`.
    assert idx.layer_of("shop.orders") is None


def test_everything_owned_reports_nothing() -> None:
    idx = index(["shop/__init__.py", "shop/x.py"], ("all", ["shop"]))
    assert idx.unassigned_packages() == ()


def test_ignore_matches_whole_segments_anywhere() -> None:
    idx = index([], ignore=["migrations", "conftest"])
    assert idx.is_ignored("migrations")
    assert idx.is_ignored("shop.orders.migrations")
    assert idx.is_ignored("shop.orders.migrations.0001_initial")
    assert idx.is_ignored("shop.conftest")
    assert not idx.is_ignored("shop.orders.migrationsx")
    assert not idx.is_ignored("shop.old_migrations")


def test_ignore_with_leading_slash_is_anchored_at_top_level() -> None:
    idx = index([], ignore=["/tests", "shop.legacy"])
    assert idx.is_ignored("tests")
    assert idx.is_ignored("tests.unit.test_x")
    assert not idx.is_ignored("shop.tests")
    # a dotted entry without `/` is a run of segments anywhere
    assert idx.is_ignored("shop.legacy.old")
    assert idx.is_ignored("vendor.shop.legacy")
    assert not idx.is_ignored("shop.legacyx")


def test_nothing_ignored_by_default() -> None:
    idx = index([])
    assert not idx.is_ignored("tests")
