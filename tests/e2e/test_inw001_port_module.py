"""INW001's fix names a module where the importing layer can declare its port: a module
that layer owns, so following the recipe never makes a new finding (issue 23: it suggested
`shop.ports`, which an outer layer owned)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards, write_tree

# "domain" owns a module at the top of the package and a package beside it; the adapters
# own `shop.ports`, the module the old recipe named for `shop.model`.
CONFIG = """
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = [DOMAIN] },
  { name = "adapters", modules = ["shop.ports", "shop.db"] },
]
"""

TREE = {
    "src/shop/__init__.py": "",
    "src/shop/model.py": "from shop.db import SqlOrders\n\n\ndef total(o: SqlOrders) -> int:\n"
    "    return o.count()\n",
    "src/shop/kernel/__init__.py": "",
    "src/shop/kernel/money.py": "AMOUNT = 1\n",
    "src/shop/ports.py": "from typing import Protocol\n\n\nclass Clock(Protocol): ...\n",
    "src/shop/db.py": "class SqlOrders:\n    def count(self) -> int:\n        return 0\n",
}


def project(tmp_path: Path, domain: str, **extra: str) -> Path:
    files = {"pyproject.toml": CONFIG.replace("DOMAIN", domain), **TREE, **extra}
    return write_tree(tmp_path / "shop", files)


def suggested(root: Path) -> str:
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=root)
    assert run.code == 1, run.stderr
    (finding,) = [d for d in json.loads(run.stdout)["diagnostics"] if d["code"] == "INW001"]
    assert finding["file"] == "src/shop/model.py"
    step = finding["fix"]["steps"][1]
    assert step.startswith(
        'Declare a typing.Protocol for what the code needs in the layer "domain"'
    )
    return step.split("(for example in `")[1].split("`")[0]


def layer_of(root: Path, module: str) -> str:
    """The layer `inwards explain-module` gives `module` (made an empty file when the
    recipe names a new one)."""
    file = root / "src" / (module.replace(".", "/") + ".py")
    if not file.exists() and not file.with_suffix("").is_dir():
        file.write_text("", encoding="utf-8")
    run = run_inwards("explain-module", module, "--json", cwd=root)
    assert run.code == 0, run.stderr
    layer = json.loads(run.stdout)["layer"]
    return layer["name"] if layer else ""


def test_a_new_ports_module_in_a_package_the_layer_owns(tmp_path: Path) -> None:
    root = project(tmp_path, '"shop.model", "shop.kernel"')
    assert layer_of(root, "shop.ports") == "adapters"  # what the old recipe named
    module = suggested(root)
    assert module == "shop.kernel.ports"
    assert layer_of(root, module) == "domain"
    # Following the recipe: the port where it says, the model typed against it, the
    # adapter implementing it. Nothing is left to report.
    write_tree(
        root,
        {
            "src/shop/kernel/ports.py": "from typing import Protocol\n\n\n"
            "class Orders(Protocol):\n    def count(self) -> int: ...\n",
            "src/shop/model.py": "from shop.kernel.ports import Orders\n\n\n"
            "def total(o: Orders) -> int:\n    return o.count()\n",
            "src/shop/db.py": "from shop.kernel.ports import Orders\n\n\nclass SqlOrders:\n"
            "    def count(self) -> int:\n        return 0\n\n\nORDERS: Orders = SqlOrders()\n",
        },
    )
    done = run_inwards("check", "--no-cache", cwd=root)
    assert done.code == 0, done.stdout + done.stderr


def test_an_existing_ports_module_of_the_layer(tmp_path: Path) -> None:
    port = "from typing import Protocol\n\n\nclass Orders(Protocol): ...\n"
    root = project(
        tmp_path,
        '"shop.model", "shop.kernel", "shop.rules"',
        **{
            "src/shop/rules/__init__.py": "",
            "src/shop/rules/ports.py": port,
            "src/shop/kernel/money.py": "AMOUNT = 1\n",
        },
    )
    # the layer's existing ports module, not a new one in another of its packages
    assert suggested(root) == "shop.rules.ports"


@pytest.mark.parametrize(
    ("domain", "expected"),
    [
        ('"shop.model"', "shop.model"),  # no package of its own: the module itself
        # the whole package, less the adapters' shop.ports and shop.db
        ('"shop"', "shop.kernel.ports"),
    ],
)
def test_the_suggestion_is_always_the_layers(domain: str, expected: str, tmp_path: Path) -> None:
    root = project(tmp_path, domain)
    module = suggested(root)
    assert module == expected
    assert layer_of(root, module) == "domain"
