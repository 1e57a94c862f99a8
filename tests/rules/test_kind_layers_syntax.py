"""inw.layers as import-linter writes layers: `"a : b"` siblings that may import each other,
`"(a)"` optional layers, one entry of siblings alone, `missing-layers` and `exhaustive`."""

from __future__ import annotations

import pytest

from inwards_core.families.inw.generic.layer_entries import parse_entry
from inwards_core.model.findings import Severity
from tests.rules.test_kinds import definition, only, problems_of, run

FILES = {
    "shop/domain/money.py": "class Money: ...\n",
    "shop/orders/place.py": "from shop.billing.invoice import bill\n",
    "shop/billing/invoice.py": "from shop.orders.place import Order\n",
}


def _layers(options: str) -> dict[str, str]:
    return {"ACME003.toml": definition("ACME003", "inw.layers", options)}


def test_an_entry_is_split_on_its_one_separator_and_parentheses_mark_optional() -> None:
    entry = parse_entry(" a : (b) ")
    assert (entry.names, entry.optional, entry.independent) == (("a", "b"), {"b"}, False)
    entry = parse_entry("x | y")
    assert (entry.names, entry.optional, entry.independent) == (("x", "y"), set(), True)
    assert parse_entry("(solo)").names == ("solo",)


def test_siblings_of_a_colon_entry_may_import_each_other() -> None:
    report = run(FILES, _layers('layers = ["shop.domain", "shop.orders : shop.billing"]'))
    assert only(report, "ACME003") == []


def test_siblings_of_a_bar_entry_may_not() -> None:
    report = run(FILES, _layers('layers = ["shop.domain", "shop.orders | shop.billing"]'))
    found = [(f.file, f.span.line) for f in only(report, "ACME003")]
    assert found == [("shop/billing/invoice.py", 1), ("shop/orders/place.py", 1)]


def test_colon_siblings_still_may_not_import_an_outer_layer() -> None:
    files = {**FILES, "shop/api.py": "x = 1\n", "shop/orders/place.py": "from shop import api\n"}
    options = 'layers = ["shop.orders : shop.billing", "shop.api"]'
    report = run(files, _layers(options))
    assert [f.file for f in only(report, "ACME003")] == ["shop/orders/place.py"]
    assert only(report, "ACME003")[0].message.endswith(
        "Imports may only point inwards: shop.orders : shop.billing <- shop.api."
    )


@pytest.mark.parametrize("entry", ["shop.orders | shop.billing", "shop.orders : shop.billing"])
def test_one_entry_of_siblings_is_a_rule_of_its_own(entry: str) -> None:
    report = run(FILES, _layers(f'layers = ["{entry}"]'))
    expected = 0 if ":" in entry else 2
    assert len(only(report, "ACME003")) == expected
    assert problems_of(definition("ACME001", "inw.layers", f'layers = ["{entry}"]')) == ()


def test_a_missing_layer_is_a_warning_by_default_and_an_error_on_request() -> None:
    layers = 'layers = ["shop.domain", "shop.api"]'
    (warning,) = only(run(FILES, _layers(layers)), "ACME003")
    assert warning.severity is Severity.WARNING and warning.file == ".inwards/rules/ACME003.toml"
    (error,) = only(run(FILES, _layers(layers + '\nmissing-layers = "error"')), "ACME003")
    assert error.severity is Severity.ERROR and "shop.api" in error.message


def test_an_optional_layer_may_be_missing() -> None:
    options = 'layers = ["shop.domain", "(shop.api)"]\nmissing-layers = "error"'
    assert only(run(FILES, _layers(options)), "ACME003") == []


def test_exhaustive_reports_each_child_that_is_no_layer_once_at_line_1() -> None:
    files = {
        "shop/orders/domain/order.py": "class Order: ...\n",
        "shop/orders/adapters/db.py": "x = 1\n",
        "shop/orders/tools/__init__.py": "\n",
        "shop/orders/tools/clean.py": "x = 1\n",
        "shop/orders/extra/deep/m.py": "x = 1\n",
        "shop/orders/_version.py": "x = 1\n",
        "shop/orders/helpers.py": "\n\nx = 1\n",
    }
    options = (
        'layers = ["domain", "adapters"]\ncontainers = ["shop.orders"]\nexhaustive = true\n'
        'exhaustive-ignores = ["_version"]'
    )
    found = only(run(files, _layers(options)), "ACME003")
    assert [(f.file, f.span.line, f.module) for f in found] == [
        ("shop/orders/extra/deep/m.py", 1, "shop.orders.extra.deep.m"),
        ("shop/orders/helpers.py", 1, "shop.orders.helpers"),
        ("shop/orders/tools/__init__.py", 1, "shop.orders.tools"),
    ]
    assert '"shop.orders.helpers" is a child of the container "shop.orders"' in found[1].message
    assert only(run(files, _layers(options.replace("true", "false"))), "ACME003") == []


@pytest.mark.parametrize(
    ("options", "key", "words"),
    [
        ('layers = ["a", "b"]\nexhaustive = true', "options.exhaustive", "needs `containers`"),
        ('layers = ["a"]', "options.layers", "at least two layers"),
        ('layers = ["a : b | c"]', "options.layers", 'mixes "|"'),
        ('layers = ["a", "(a)"]', "options.layers", 'lists "a" twice'),
        ('layers = ["a", "b"]\nmissing-layers = "yes"', "options.missing-layers", "not"),
    ],
)
def test_bad_layers_options_name_their_key(options: str, key: str, words: str) -> None:
    (problem,) = problems_of(definition("ACME001", "inw.layers", options))
    assert problem.key == key and words in problem.message


def test_one_layer_with_exhaustive_is_accepted() -> None:
    options = 'layers = ["domain"]\ncontainers = ["shop"]\nexhaustive = true'
    assert problems_of(definition("ACME001", "inw.layers", options)) == ()


def test_one_layer_alone_that_must_exist_is_accepted_and_reported_when_missing() -> None:
    options = 'layers = ["shop.api"]\nmissing-layers = "error"'
    assert problems_of(definition("ACME001", "inw.layers", options)) == ()
    (error,) = only(run(FILES, _layers(options)), "ACME003")
    assert error.severity is Severity.ERROR
