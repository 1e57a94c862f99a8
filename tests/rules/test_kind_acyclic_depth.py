"""inw.acyclic's `depth` and `skip-descendants`, as import-linter's acyclic_siblings: one
definition covers a package and the packages below it."""

from __future__ import annotations

import pytest

from tests.rules.test_kinds import definition, only, run

FILES = {
    "shop/orders/model.py": "from shop.orders.rules import check\n",
    "shop/orders/rules.py": "from shop.orders.model import Order\n",
    "shop/orders/deep/inner/a.py": "from shop.orders.deep.inner import b\n",
    "shop/orders/deep/inner/b.py": "from shop.orders.deep.inner import a\n",
    "shop/billing/invoice.py": "from shop.catalog import items\n",
    "shop/catalog/items.py": "from shop.billing import invoice\n",
}


def _packages(options: str) -> list[str]:
    rule = {"ACME040.toml": definition("ACME040", "inw.acyclic", options)}
    return [f.message.split('"')[1] for f in only(run(FILES, rule), "ACME040")]


@pytest.mark.parametrize(
    ("depth", "packages"),
    [
        (0, ["shop"]),
        (1, ["shop", "shop.orders"]),
        (2, ["shop", "shop.orders"]),
        (3, ["shop", "shop.orders", "shop.orders.deep.inner"]),
        (10, ["shop", "shop.orders", "shop.orders.deep.inner"]),
    ],
)
def test_depth_goes_down_level_by_level(depth: int, packages: list[str]) -> None:
    assert sorted(_packages(f'packages = ["shop"]\ndepth = {depth}')) == packages


def test_without_depth_only_the_children_of_each_package() -> None:
    assert _packages('packages = ["shop"]') == ["shop"]


def test_skipped_descendants_and_what_is_below_them_are_not_checked() -> None:
    options = 'packages = ["shop"]\ndepth = 10\nskip-descendants = ["shop.orders.deep"]'
    assert sorted(_packages(options)) == ["shop", "shop.orders"]
    options = 'packages = ["shop"]\ndepth = 10\nskip-descendants = ["shop.orders"]'
    assert _packages(options) == ["shop"]


def test_a_skipped_package_is_still_a_child_of_its_parent() -> None:
    options = 'packages = ["shop"]\ndepth = 1\nskip-descendants = ["shop.billing", "shop.catalog"]'
    assert sorted(_packages(options)) == ["shop", "shop.orders"]


def test_a_skipped_package_that_matches_nothing_is_a_warning_in_the_definition() -> None:
    options = 'packages = ["shop"]\ndepth = 10\nskip-descendants = ["shop.gone"]'
    rule = {"ACME040.toml": definition("ACME040", "inw.acyclic", options)}
    warnings = [f for f in only(run(FILES, rule), "ACME040") if f.file.endswith(".toml")]
    (warning,) = warnings
    assert "`options.skip-descendants[0]`" in warning.message and "shop.gone" in warning.message
