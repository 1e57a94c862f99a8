"""Gaps of the layer rules found on real code: modules whose names are no identifiers,
dynamic imports of code no layer owns (INW006), code run from text (INW011), and packages
whose contents the files don't tell (INW010): `__path__` extended, names put in
`sys.modules`, import hooks added to `sys.meta_path`."""

from __future__ import annotations

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules
from inwards_core.index.modules import ModuleIndex
from inwards_core.model.facts import ModuleFacts
from inwards_core.ports import ProjectListing
from inwards_core.rules.project import ProjectModel

RULES = load_rules(installed_families())
LAYERS = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""
BASE = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/application/__init__.py": "",
    "shop/infrastructure/__init__.py": "",
    "shop/infrastructure/db.py": "",
    "shop/common/__init__.py": "",
    "shop/common/clock.py": "",
}


def run(files: dict[str, str], paths: list[str] | None = None) -> list[Finding]:
    report = check(
        load_config_text(LAYERS),
        InMemoryProjectFiles({**BASE, **files}),
        paths=paths,
        rule_set=RULES,
    )
    return list(report.findings)


def codes(findings: list[Finding], *only: str) -> list[tuple[str, int, str]]:
    return [(f.file, f.span.line, f.code) for f in findings if not only or f.code in only]


def test_files_with_names_that_are_no_identifiers_are_checked() -> None:
    files = {
        "shop/domain/migrations/__init__.py": "",
        "shop/domain/migrations/0001_initial.py": "from shop.infrastructure import db\n",
        "shop/domain/my-script.py": "from shop.common import clock\n",
        "shop/domain/bad-dir/x.py": "import shop.infrastructure.db\n",
        "shop/domain/foo.bar.py": "from shop.infrastructure import db\n",  # no module
    }
    assert codes(run(files)) == [
        ("shop/common/__init__.py", 1, "INW006"),
        ("shop/domain/bad-dir/x.py", 1, "INW001"),
        ("shop/domain/migrations/0001_initial.py", 1, "INW001"),
        ("shop/domain/my-script.py", 1, "INW006"),
    ]


def test_no_close_name_is_one_an_import_cannot_write() -> None:
    files = {
        "shop/domain/my-script.py": "",
        "shop/domain/order.py": "import shop.domain.my_script\n",
    }
    [finding] = [f for f in run(files) if f.code == "INW010"]
    assert "my-script" not in finding.fix.summary + " ".join(finding.fix.steps)


def test_dynamic_imports_of_code_no_layer_owns_are_inw006() -> None:
    files = {
        "shop/domain/order.py": (
            "import importlib\n"
            'importlib.import_module("shop.common.clock")\n'
            '__import__("shop").common\n'
            'exec("from shop import settings")\n'
            'exec("from shop.common import clock")\n'
            'importlib.import_module("shop.common.missing")\n'
            'importlib.import_module("shop.domain.order")\n'
            'importlib.import_module("json")\n'
        ),
    }
    found = [f for f in run(files) if f.code == "INW006" and f.file == "shop/domain/order.py"]
    assert [(f.span.line, f.message) for f in found] == [
        (
            2,
            'Layer "domain" imports "shop.common.clock", which belongs to no layer, through a '
            "dynamic import (importlib.import_module). No layer rule checks what that code "
            "imports.",
        ),
        (
            3,
            'Layer "domain" imports "shop", which belongs to no layer, through a dynamic '
            "import (__import__). No layer rule checks what that code imports.",
        ),
        (
            4,
            'Layer "domain" imports "shop", which belongs to no layer, through a dynamic '
            "import (exec). No layer rule checks what that code imports.",
        ),
        (
            5,
            'Layer "domain" imports "shop.common.clock", which belongs to no layer, through a '
            "dynamic import (exec). No layer rule checks what that code imports.",
        ),
    ]
    assert found[0].fix.summary == 'Put "shop.common.clock" in the layer it belongs to.'


def test_literal_code_is_checked_and_other_code_is_unverifiable_in_inner_layers() -> None:
    files = {
        "shop/domain/rules.py": (
            'exec("import shop.infrastructure.db")\n'
            "def run(code):\n"
            "    exec(compile(code, '<x>', 'exec'))\n"
        ),
        "shop/infrastructure/shell.py": "def run(code):\n    exec(code)\n",
    }
    found = [f for f in run(files) if f.code == "INW011"]
    assert [(f.file, f.span.line, f.message) for f in found] == [
        (
            "shop/domain/rules.py",
            1,
            'Layer "domain" imports "shop.infrastructure.db" from the outer layer '
            '"infrastructure" through a dynamic import (exec). Imports may only point inwards: '
            "domain <- application <- infrastructure.",
        ),
        (
            "shop/domain/rules.py",
            3,
            'Layer "domain" runs code that inwards can\'t read (a variable) through compile: '
            "any import in it goes unchecked.",
        ),
    ]
    assert found[1].fix.summary.startswith("Import by name instead of running code from text")


def test_unknown_first_party_is_silent_below_a_package_that_extends_its_path() -> None:
    files = {
        "shop/__init__.py": '__path__ = __import__("pkgutil").extend_path(__path__, __name__)\n',
        "shop/domain/order.py": (
            "from shop.sdk.money import Money\nfrom shop.domain.taxes import VAT\n"
        ),
    }
    found = [(f.file, f.span.line) for f in run(files) if f.code == "INW010"]
    # shop.domain is a regular package of this project: its own directory is its path.
    assert found == [("shop/domain/order.py", 2)]
    assert [(f.file, f.span.line) for f in run(files, ["shop/domain/order.py"])] == found


def test_unknown_first_party_is_silent_below_names_registered_in_sys_modules() -> None:
    files = {
        "shop/infrastructure/__init__.py": (
            "import sys\nfrom shop.infrastructure import db\n"
            'sys.modules["shop.infrastructure.sql"] = db\n'
            'sys.modules[__name__ + ".compat"] = db\n'
        ),
        "shop/infrastructure/use.py": (
            "from shop.infrastructure.sql import Rows\n"
            "import shop.infrastructure.compat.deep\n"
            "import shop.infrastructure.nothere\n"
        ),
        # Registered by a module that is no package above the name: not seen.
        "shop/application/boot.py": 'import sys\nsys.modules["shop.application.alias"] = sys\n',
        "shop/application/use.py": "import shop.application.alias\n",
    }
    found = [(f.file, f.span.line) for f in run(files) if f.code == "INW010"]
    assert found == [("shop/application/use.py", 1), ("shop/infrastructure/use.py", 3)]
    named = run(files, ["shop/infrastructure/use.py"])
    assert [(f.file, f.span.line) for f in named if f.code == "INW010"] == [
        ("shop/infrastructure/use.py", 3)
    ]


def test_unknown_first_party_is_silent_below_a_package_that_adds_an_import_hook() -> None:
    # A compatibility finder: old module names served from the modules that replaced them.
    hook = (
        "import importlib.abc\n"
        "import sys\n"
        "\n"
        'RENAMED = {"shop.domain.legacy_taxes": "shop.domain.taxes"}\n'
        "\n"
        "class RenamedFinder(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, fullname, path, target=None):\n"
        "        return None\n"
        "\n"
        "if not any(isinstance(f, RenamedFinder) for f in sys.meta_path):\n"
        "    sys.meta_path.insert(0, RenamedFinder())\n"
    )
    files = {
        "shop/domain/__init__.py": hook,
        "shop/domain/order.py": (
            "from shop.domain.legacy_taxes import VAT\n"
            "from shop.domain.legacy.deep import x\n"
            "from shop.common.gone import y\n"
        ),
        # A hook added by a module that is no package above the name: not seen.
        "shop/application/boot.py": hook,
        "shop/application/use.py": "import shop.application.renamed\n",
    }
    found = [(f.file, f.span.line) for f in run(files) if f.code == "INW010"]
    assert found == [("shop/application/use.py", 1), ("shop/domain/order.py", 3)]
    named = run(files, ["shop/domain/order.py"])
    assert [(f.file, f.span.line) for f in named if f.code == "INW010"] == [
        ("shop/domain/order.py", 3)
    ]


def test_packages_are_read_only_when_an_import_goes_missing() -> None:
    asked: list[str] = []

    def read_more(info: object) -> ModuleFacts | None:
        asked.append(info.name)  # type: ignore[attr-defined]
        return ModuleFacts(extends_path=True)

    report_files = {**BASE, "shop/domain/order.py": "from shop.common import clock\n"}
    config = load_config_text(LAYERS)
    index = ModuleIndex.build(config, ProjectListing(tuple(sorted(report_files)), ()))
    model = ProjectModel(config, index, {}, (), True, read_more=read_more)
    assert model.extended_at("shop.common.clock") is None  # it exists
    assert asked == []
    assert model.extended_at("shop.sdk.x") == "shop"
    assert model.extended_at("shop.sdk.y") == "shop"
    assert asked == ["shop"]  # read once
    assert model.extended_at("elsewhere.x") is None
