"""INW015 construct-only-in: imports of a role's modules and builds of its classes outside
the composition root."""

from __future__ import annotations

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

RULES = load_rules(installed_families())
LAYERS = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "adapters", modules = ["shop.adapters"] },
  { name = "main", modules = ["shop.main"] },
]

[tool.inwards.rules]
extend-select = ["INW015"]
"""
OPTIONS = """
[tool.inwards.rules.construct-only-in]
role = ["shop.adapters.outbound"]
allowed-in = ["shop.main"]
"""
ADAPTERS = {
    "shop/__init__.py": "",
    "shop/adapters/__init__.py": "from shop.adapters.outbound import SqlOrders, make_orders\n",
    "shop/adapters/outbound/__init__.py": (
        "from shop.adapters.outbound.sql import (\n"
        "    SqlOrders, OrderNotFound, Colour, make_orders, PAGE_SIZE, Mailer,\n"
        ")\n"
    ),
    "shop/adapters/outbound/sql.py": (
        "import enum\n"
        "from typing import Protocol\n"
        "PAGE_SIZE = 50\n"
        "from typing import Final\n"
        "timeout: Final = 5\n"
        "class Orders(Protocol): ...\n"
        "class Store:\n    def get(self) -> int:\n        raise NotImplementedError\n"
        "class SqlStore(Store):\n    def get(self) -> int:\n        return 1\n"
        "class BaseError(Exception): ...\n"
        "class OrderNotFound(BaseError): ...\n"
        "class Colour(enum.Enum):\n    RED = 1\n"
        "class SqlOrders:\n    def count(self) -> int:\n        return 0\n"
        "class Mailer(Orders):\n    pass\n"
        "def make_orders() -> SqlOrders:\n    return SqlOrders()\n"
    ),
}


def _findings(files: dict[str, str], options: str = OPTIONS) -> list[Finding]:
    config = load_config_text(LAYERS + options)
    report = check(config, InMemoryProjectFiles({**ADAPTERS, **files}), rule_set=RULES)
    return [f for f in report.findings if f.code == "INW015"]


def _where(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.file, f.span.line) for f in findings]


def test_one_finding_per_import_statement_naming_every_name() -> None:
    found = _findings(
        {
            "shop/adapters/inbound/api.py": (
                "from shop.adapters.outbound.sql import SqlOrders, Mailer, OrderNotFound, SqlStore\n"
                "import shop.adapters.outbound.sql\n"
                "from shop.adapters.outbound import sql\n"
            )
        }
    )
    assert _where(found) == [("shop/adapters/inbound/api.py", n) for n in (1, 2, 3)]
    assert found[0].message == (
        '"shop.adapters.inbound.api" imports "SqlOrders, Mailer, SqlStore" from '
        '"shop.adapters.outbound.sql", a module of the role "shop.adapters.outbound", which '
        'only "shop.main" may import.'
    )
    for submodule in found[1:]:
        assert '"shop.adapters.outbound.sql" from "shop.adapters.outbound.sql"' in submodule.message


def test_values_of_the_role_and_type_only_imports_pass() -> None:
    files = {
        "shop/adapters/inbound/api.py": (
            "from typing import TYPE_CHECKING\n"
            "from shop.adapters.outbound.sql import OrderNotFound, Colour, PAGE_SIZE, BaseError, Orders, timeout\n"
            "from shop.adapters.outbound.sql import Store  # every method trivial: an interface\n"
            "from shop.adapters.outbound import OrderNotFound, Colour  # defined below it\n"
            "if TYPE_CHECKING:\n"
            "    from shop.adapters.outbound.sql import SqlOrders\n"
            "    import shop.adapters.outbound\n"
        )
    }
    assert _findings(files) == []


def test_the_role_the_allowed_modules_and_the_reexport_face_pass() -> None:
    files = {
        "shop/main.py": "from shop.adapters.outbound.sql import SqlOrders\nSqlOrders()\n",
        "shop/adapters/outbound/other.py": "from shop.adapters.outbound.sql import SqlOrders\n",
    }
    assert _findings(files) == []  # shop/adapters/__init__.py re-exports: no finding


def test_an_outward_import_is_layer_dependency_s_alone() -> None:
    config = load_config_text(LAYERS + OPTIONS)
    files = {
        **ADAPTERS,
        "shop/application/use.py": "from shop.adapters.outbound.sql import SqlOrders\n",
    }
    report = check(config, InMemoryProjectFiles(files), rule_set=RULES)
    assert [f.code for f in report.findings if f.file == "shop/application/use.py"] == ["INW001"]


def test_test_modules_are_skipped_unless_check_tests() -> None:
    files = {
        "shop/adapters/tests/test_api.py": "from shop.adapters.outbound.sql import SqlOrders\n"
    }
    assert _findings(files) == []
    assert len(_findings(files, OPTIONS + "check-tests = true\n")) == 1


def test_modules_outside_every_layer_are_not_judged() -> None:
    # (Turning the rule on without `role` is a config error: tests/rules/test_needed_when_on.py.)
    assert _findings({"scripts/run.py": "from shop.adapters.outbound.sql import SqlOrders\n"}) == []


BUILDS = (
    "from shop.adapters import SqlOrders, make_orders\n"
    "from shop.adapters import SqlOrders as Repo\n"
    "import shop.adapters as adapters\n"
    "\n"
    "async def handler() -> None:\n"
    "    SqlOrders()\n"
    "    Repo()\n"
    "    adapters.SqlOrders()\n"
    "    make_orders()\n"
    "    SqlOrders.count\n"
)


def test_builds_through_reexports_are_found_at_each_call_and_factories_pass() -> None:
    found = _findings({"shop/adapters/inbound/api.py": BUILDS})
    assert _where(found) == [("shop/adapters/inbound/api.py", n) for n in (6, 7, 8)]
    assert found[0].message == (
        '"shop.adapters.inbound.api" builds "SqlOrders", a class of '
        '"shop.adapters.outbound.sql" (role "shop.adapters.outbound"), imported through '
        '"shop.adapters -> shop.adapters.outbound"; only "shop.main" may build it.'
    )
    assert "re-exported through" in found[0].fix.steps[0]


def test_a_build_of_a_class_imported_from_the_role_is_the_import_s_finding() -> None:
    files = {
        "shop/adapters/inbound/api.py": (
            "from shop.adapters.outbound.sql import SqlOrders\n\n"
            "class Handler:\n    def run(self) -> None:\n        SqlOrders()\n"
        )
    }
    assert _where(_findings(files)) == [("shop/adapters/inbound/api.py", 1)]


def test_reexports_are_followed_four_hops_and_no_further() -> None:
    chain = {
        "shop/adapters/hop1.py": "from shop.adapters.hop2 import Mailer\n",
        "shop/adapters/hop2.py": "from shop.adapters.hop3 import Mailer\n",
        "shop/adapters/hop3.py": "from shop.adapters.outbound.sql import Mailer\n",
        "shop/adapters/hop0.py": "from shop.adapters.hop1 import Mailer\n",
        "shop/adapters/hop00.py": "from shop.adapters.hop0 import Mailer\n",
    }
    four = {
        **chain,
        "shop/adapters/inbound/api.py": "from shop.adapters.hop0 import Mailer\nclass A:\n    m = Mailer()\n",
    }
    five = {
        **chain,
        "shop/adapters/inbound/api.py": "from shop.adapters.hop00 import Mailer\nclass A:\n    m = Mailer()\n",
    }
    # hop3 imports from the role itself: its own finding, whatever the chain
    api = "shop/adapters/inbound/api.py"
    assert [w for w in _where(_findings(four)) if w[0] == api] == [(api, 3)]
    assert [w for w in _where(_findings(five)) if w[0] == api] == []


def test_a_capitalised_callee_that_is_no_class_of_the_role_is_no_build() -> None:
    files = {
        "shop/adapters/helpers.py": "def Build() -> None: ...\nclass Local: ...\n",
        "shop/adapters/inbound/api.py": (
            "from shop.adapters.helpers import Build, Local\n"
            "from shop.adapters import make_orders as MakeOrders\n"
            "async def f() -> None:\n    Build()\n    Local()\n    MakeOrders()\n"
        ),
    }
    assert _findings(files) == []


def test_a_template_fills_role_with_the_modules_of_its_role() -> None:
    config = load_config_text(
        "[tool.inwards]\n"
        "layers = [\n"
        '  { name = "app", modules = ["shop.orders", "shop.billing"], template = "slice" },\n'
        '  { name = "web", modules = ["shop.web"] },\n'
        '  { name = "main", modules = ["shop.main"] },\n'
        "]\n\n"
        "[tool.inwards.templates.slice]\n"
        'roles = ["domain", "adapters"]\n'
        'rules = { adapters = { construct-only-in = { allowed-in = ["shop.main"] } } }\n'
    )
    files = {
        "shop/orders/domain/model.py": "",
        "shop/orders/adapters/sql.py": "class SqlOrders: ...\n",
        "shop/billing/domain/model.py": "",
        "shop/billing/adapters/api.py": "from shop.orders.adapters.sql import SqlOrders\n",
        "shop/web/views.py": "from shop.orders.adapters.sql import SqlOrders\n",
        "shop/main.py": "from shop.orders.adapters.sql import SqlOrders\n",
    }
    report = check(config, InMemoryProjectFiles(files), rule_set=RULES)
    found = [f for f in report.findings if f.code == "INW015"]
    # role = the adapters of every slice; billing's adapters are in the role themselves
    assert [f.file for f in found] == ["shop/web/views.py"]
    assert 'a module of the role "shop.orders.adapters"' in found[0].message


def test_the_same_import_in_two_functions_is_two_statements() -> None:
    # Deferred imports: each handler imports the adapter in its own body, one finding each.
    handlers = (
        "def create():\n"
        "    from shop.adapters.outbound.sql import SqlOrders\n"
        "    return SqlOrders()\n\n"
        "def count():\n"
        "    from shop.adapters.outbound.sql import SqlOrders\n"
        "    return SqlOrders().count()\n"
    )
    found = _findings({"shop/adapters/inbound/api.py": handlers})
    assert _where(found) == [
        ("shop/adapters/inbound/api.py", 2),
        ("shop/adapters/inbound/api.py", 6),
    ]


def test_without_allowed_in_no_module_outside_the_role_may_import_or_build() -> None:
    options = '\n[tool.inwards.rules.construct-only-in]\nrole = ["shop.adapters.outbound"]\n'
    source = (
        "from shop.adapters.outbound.sql import SqlOrders\n"
        "from shop.adapters import SqlOrders as Orders\n\n"
        "async def handler() -> None:\n    Orders()\n"
    )
    found = _findings({"shop/adapters/inbound/api.py": source}, options)
    assert [f.message.rpartition('"')[2] for f in found] == [
        ", which no module outside the role may import.",
        "; no module outside the role may build it.",
    ]
