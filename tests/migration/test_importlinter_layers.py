"""The `[tool.inwards]` layers a conversion writes: those of one layers contract, so that a
converted project's diagram, module explanations and brief show its layers."""

from __future__ import annotations

from inwards_core.migration.importlinter_convert import MISSING_MODULES_NOTE
from tests.migration.test_importlinter_convert import converted

NESTED = """
[importlinter:contract:inner]
name = Inside the api
type = layers
containers = shop.api
layers =
    views
    forms : schemas
    (legacy)

[importlinter:contract:outer]
name = The shop
type = layers
containers = shop
layers =
    api
    service | jobs
    domain
exhaustive = true
exhaustive_ignores = _version

[importlinter:contract:apart]
name = Apart
type = independence
modules =
    shop.service
    shop.jobs
"""


def test_the_outermost_layers_contract_gives_the_layers_innermost_first() -> None:
    conversion = converted(NESTED)
    assert conversion.table["layers"] == [
        {"name": "domain", "modules": ["shop.domain"]},
        [
            {"name": "service", "modules": ["shop.service"]},
            {"name": "jobs", "modules": ["shop.jobs"]},
        ],
        {"name": "api", "modules": ["shop.api"]},
    ]
    assert conversion.layers_from is not None
    assert (conversion.layers_from.code, conversion.layers_from.label) == ("IL002", "The shop")
    assert "The layers are those of IL002 ('The shop'), which checks them" in conversion.comment
    # Every contract's rule is still on: the layers change nothing that is checked.
    assert conversion.table["rules"] == {"select": ["IL001", "IL002", "IL003"]}


def test_siblings_that_may_import_each_other_are_one_layer_and_optional_ones_are_layers() -> None:
    conversion = converted(NESTED.split("[importlinter:contract:outer]")[0])
    assert conversion.table["layers"] == [
        {"name": "legacy", "modules": ["shop.api.legacy"]},
        {"name": "forms+schemas", "modules": ["shop.api.forms", "shop.api.schemas"]},
        {"name": "views", "modules": ["shop.api.views"]},
    ]


def test_without_containers_each_layer_is_the_module_it_names() -> None:
    conversion = converted(
        "[importlinter:contract:x]\nname = X\ntype = layers\nlayers =\n"
        "    shop.cli\n    shop.core | extra.io\n    shop.util\n"
    )
    assert conversion.table["layers"] == [
        {"name": "shop.util", "modules": ["shop.util"]},
        [
            {"name": "shop.core", "modules": ["shop.core"]},
            {"name": "extra.io", "modules": ["extra.io"]},
        ],
        {"name": "shop.cli", "modules": ["shop.cli"]},
    ]


def test_with_several_containers_a_layer_owns_its_name_in_each() -> None:
    conversion = converted(
        "[importlinter:contract:x]\nname = X\ntype = layers\ncontainers =\n"
        "    shop.orders\n    shop.billing\nlayers =\n    api\n    domain\n"
    )
    assert conversion.table["layers"] == [
        {"name": "domain", "modules": ["shop.orders.domain", "shop.billing.domain"]},
        {"name": "api", "modules": ["shop.orders.api", "shop.billing.api"]},
    ]


def test_layers_the_configuration_refuses_are_passed_over_with_a_note() -> None:
    # An entry that starts with a wildcard is no selector of [tool.inwards] (nor of the
    # rule, which says so in its own note): one layer per root package is written.
    conversion = converted(
        "[importlinter:contract:x]\nname = X\ntype = layers\nlayers =\n    *.api\n    *.domain\n"
    )
    assert conversion.table["layers"] == [
        {"name": "shop", "modules": ["shop"]},
        {"name": "extra", "modules": ["extra"]},
    ]
    assert conversion.layers_from is None
    (passed, missing) = conversion.notes
    assert passed.startswith("the layers of IL001 ('X') can't be [tool.inwards] layers (")
    assert passed.endswith("); its rule checks them all the same")
    assert missing == MISSING_MODULES_NOTE
    assert "The layers are those of" not in conversion.comment
