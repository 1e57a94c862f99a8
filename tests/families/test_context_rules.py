"""INW002 context-independence, INW003 public-api-only and INW004 import-cycles beyond
their examples: ownership by the longest prefix, exact public entries, which rule wins,
what makes a step of a cycle, the group hash, and a graph deep enough to break recursion."""

from __future__ import annotations

import time

from inwards_core import Config, Context, PublicEntry, check_sources
from inwards_core.families.inw.contexts.context_map import ContextMap, is_public
from inwards_core.families.inw.contexts.cycle_graph import Graph, components, shortest_cycle

LAYERS = """\
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]
"""

CONTEXTS = (
    LAYERS
    + """
[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing.api", "=shop.billing"]

[[tool.inwards.contexts]]
name = "refunds"
modules = ["shop.billing.refunds"]
public = ["shop.billing.refunds"]
"""
)


def found(files: dict[str, str], pyproject: str, paths: list[str] | None = None) -> list[str]:
    report = check_sources(files, pyproject=pyproject, paths=paths)
    return [f"{f.file}:{f.span.line} {f.code}" for f in report.findings]


def messages(files: dict[str, str], pyproject: str, code: str) -> list[str]:
    report = check_sources(files, pyproject=pyproject)
    return [f.message for f in report.findings if f.code == code]


def test_the_longest_prefix_owns_a_module() -> None:
    billing = Context("billing", ("shop.billing",), "k")
    refunds = Context("refunds", ("shop.billing.refunds",), "k")
    contexts = ContextMap((billing, refunds))
    assert contexts.owner("shop.billing.refunds.api") is refunds
    assert contexts.owner("shop.billing.refundsx") is billing
    assert contexts.owner("shop.billing") is billing
    assert contexts.owner("shop") is None
    assert contexts.owner("shop.billingx") is None


def test_an_exact_public_entry_is_the_module_alone() -> None:
    billing = Context(
        "billing",
        ("shop.billing",),
        "k",
        public=(PublicEntry("shop.billing", exact=True), PublicEntry("shop.billing.api")),
    )
    assert is_public(billing, "shop.billing")
    assert is_public(billing, "shop.billing.api.v2")
    assert not is_public(billing, "shop.billing.invoices")


def test_a_nested_context_is_its_own_and_undeclared_imports_are_inw002_alone() -> None:
    files = {
        "shop/orders/cart.py": (
            "from shop.billing.refunds import refund\n"  # refunds: undeclared
            "from shop.billing.invoices import Invoice\n"  # billing: declared, not public
            "from shop.billing.api import charge\n"  # public
        ),
        "shop/billing/__init__.py": "",
        "shop/billing/api.py": "def charge() -> None: ...\n",
        "shop/billing/invoices.py": "class Invoice: ...\n",
        "shop/billing/refunds/__init__.py": "def refund() -> None: ...\n",
    }
    assert found(files, CONTEXTS) == [
        "shop/orders/cart.py:1 INW002",
        "shop/orders/cart.py:2 INW003",
    ]


def test_code_outside_every_context_is_checked_by_inw003_only() -> None:
    files = {
        "shop/cli.py": (
            "from shop.billing.invoices import Invoice\nfrom shop.orders.cart import Cart\n"
        ),
        "shop/billing/invoices.py": "class Invoice: ...\n",
        "shop/orders/cart.py": "class Cart: ...\n",
    }
    # orders declares no public modules: everything of it is private to it.
    assert found(files, CONTEXTS) == ["shop/cli.py:1 INW003", "shop/cli.py:2 INW003"]
    assert messages(files, CONTEXTS, "INW003")[0] == (
        'Module "shop.cli" imports "shop.billing.invoices.Invoice", but '
        '"shop.billing.invoices" is not a public module of context "billing".'
    )


def test_the_fix_names_a_public_module_that_binds_the_name_under_an_alias() -> None:
    files = {
        "shop/orders/cart.py": "from shop.billing.invoices import Invoice\n",
        "shop/billing/__init__.py": "from shop.billing.invoices import Invoice as Invoice\n",
        "shop/billing/api.py": "import shop.billing.invoices as Invoice\n",
        "shop/billing/invoices.py": "class Invoice: ...\n",
    }
    report = check_sources(files, pyproject=CONTEXTS)
    (finding,) = report.findings
    assert finding.fix is not None
    assert finding.fix.summary == (
        'Import "Invoice" from "shop.billing", the public module of "billing" that offers it.'
    )


def test_with_no_public_module_offering_the_name_the_fix_lists_them() -> None:
    files = {
        "shop/orders/cart.py": "from shop.billing.invoices import issue\n",
        "shop/billing/__init__.py": "",
        "shop/billing/api.py": "def charge() -> None: ...\n",
        "shop/billing/invoices.py": "def issue() -> None: ...\n",
    }
    (finding,) = check_sources(files, pyproject=CONTEXTS).findings
    assert finding.fix is not None
    assert "(`shop.billing`, `shop.billing.api`)" in finding.fix.summary


CYCLES = LAYERS + 'cycles = ["modules"]\n'


def test_type_checking_imports_are_no_step_but_dynamic_and_deferred_ones_are() -> None:
    files = {
        "shop/a.py": "import shop.b\n",
        "shop/b.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import shop.a\n"
            "def later() -> None:\n    import shop.c\n"
        ),
        "shop/c.py": "import importlib\nimportlib.import_module('shop.a')\n",
    }
    assert found(files, CYCLES) == ["shop/a.py:1 INW004"]
    (message,) = messages(files, CYCLES, "INW004")
    assert message.startswith(
        "The modules shop.a -> shop.b -> shop.c -> shop.a import each other in a cycle. "
        "It belongs to a group of 3 modules and 3 links"
    )


def test_the_group_hash_changes_when_a_link_joins_the_group() -> None:
    files = {"shop/a.py": "import shop.b\n", "shop/b.py": "import shop.a\n", "shop/c.py": ""}
    before = check_sources(files, pyproject=CYCLES).findings[0].stable_message
    grown = {**files, "shop/b.py": "import shop.a\nimport shop.c\n", "shop/c.py": "import shop.b\n"}
    after = check_sources(grown, pyproject=CYCLES).findings[0].stable_message
    assert before != after
    assert "3 modules and 4 links" in after
    moved = {**files, "shop/a.py": "\n\nimport shop.b\n"}
    assert check_sources(moved, pyproject=CYCLES).findings[0].stable_message == before


def test_cycles_are_whole_project_only_and_named_in_the_paths_note_when_asked_for() -> None:
    files = {"shop/a.py": "import shop.b\n", "shop/b.py": "import shop.a\n"}
    report = check_sources(files, pyproject=CYCLES, paths=["shop/a.py"])
    assert report.findings == ()
    assert any("INW004" in note for note in report.notes)
    quiet = check_sources(files, pyproject=LAYERS, paths=["shop/a.py"])
    assert not any("INW004" in note for note in quiet.notes)
    assert check_sources(files, pyproject=LAYERS).findings == ()  # default: context cycles


def test_a_suppression_of_inw004_hides_nothing_and_is_an_error() -> None:
    files = {
        "shop/a.py": 'import shop.b  # inwards: ignore[INW004] reason="later"\n',
        "shop/b.py": "import shop.a\n",
    }
    assert found(files, CYCLES) == ["shop/a.py:1 INW004", "shop/a.py:1 INW009"]


def test_context_cycles_go_through_code_no_layer_owns() -> None:
    pyproject = """\
[tool.inwards]
layers = [{ name = "core", modules = ["shop.orders"] }]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
public = ["shop.orders"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing"]
depends-on = ["orders"]
"""
    files = {
        "shop/orders/cart.py": "from shop.billing.invoice import Invoice\n",
        "shop/billing/invoice.py": "from shop.orders.cart import Cart\n",
    }
    found_here = found(files, pyproject)
    assert [line for line in found_here if "INW004" in line] == ["shop/billing/invoice.py:1 INW004"]


def _chain(length: int) -> Graph:
    names = [f"m{number:06d}" for number in range(length)]
    following = {name: (names[(i + 1) % length],) for i, name in enumerate(names)}
    return Graph(following, {})


def test_components_of_a_long_chain_need_no_recursion_and_linear_time() -> None:
    started = time.process_time()
    (members,) = components(_chain(20_000))
    small = time.process_time() - started
    assert len(members) == 20_000
    assert len(shortest_cycle(_chain(20_000), members)) == 20_000
    started = time.process_time()
    components(_chain(80_000))
    # Four times the nodes: a quadratic search would take sixteen times as long. CPU time of
    # this process, not the clock: other processes on a loaded machine don't count.
    assert time.process_time() - started < 8 * small + 0.5


def test_components_are_the_strongly_connected_groups() -> None:
    following = {
        "a": ("b",),
        "b": ("a", "c"),
        "c": ("d",),
        "d": ("c", "e"),
        "e": (),
        "f": ("f",),
    }
    assert components(Graph(following, {})) == [("a", "b"), ("c", "d")]
    assert shortest_cycle(Graph(following, {}), ("c", "d")) == ("c", "d")


def test_config_values_built_directly_are_read_the_same() -> None:
    from inwards_core import Layer

    config = Config(
        "pyproject.toml",
        ".",
        (Layer("app", ("shop",), 0, "k"),),
        contexts=(Context("a", ("shop.a",), "k"), Context("b", ("shop.b",), "k")),
        cycles=("contexts",),
    )
    from inwards_core import check
    from inwards_core.adapters.in_memory import InMemoryProjectFiles

    files = InMemoryProjectFiles(
        {"shop/a/x.py": "import shop.b.y\n", "shop/b/y.py": "import shop.a.x\n"}
    )
    codes = sorted(f.code for f in check(config, files).findings)
    assert codes == ["INW002", "INW002", "INW004"]
