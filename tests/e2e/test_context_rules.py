"""INW002 context-independence, INW003 public-api-only and INW004 import-cycles through the
installed `inwards`: the whole project, a named file, code no layer owns, a baseline that
accepts a cycle until its group changes, and a suppression of INW004 that is an error."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

CONFIG = """\
[tool.inwards]
root = "src"
layers = [{ name = "app", modules = ["shop.orders", "shop.billing"] }]
cycles = ["modules", "contexts"]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
public = ["shop.orders.api"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["=shop.billing", "shop.billing.api"]

[[tool.inwards.contexts]]
name = "shipping"
modules = ["shop.shipping"]
public = ["shop.shipping"]
"""

FILES = {
    "pyproject.toml": CONFIG,
    "src/shop/__init__.py": "",
    "src/shop/orders/__init__.py": "",
    "src/shop/orders/api.py": "def place() -> None: ...\n",
    "src/shop/orders/checkout.py": (
        "from shop.billing.invoices import issue_invoice\n"
        "from shop.billing import Money\n"
        "from shop.shipping.labels import print_label\n"
    ),
    "src/shop/billing/__init__.py": "class Money: ...\n",
    "src/shop/billing/api.py": "from shop.billing.invoices import issue_invoice\n",
    "src/shop/billing/invoices.py": (
        "def issue_invoice() -> None:\n    from shop.billing import api\n"
    ),
    # No layer owns shipping: with contexts declared it is read all the same.
    "src/shop/shipping/__init__.py": "",
    "src/shop/shipping/labels.py": "from shop.orders.api import place\n",
}


OURS = ("INW002", "INW003", "INW004", "INW009")


def findings(stdout: str) -> list[tuple[str, int, int, str]]:
    """Ours only: shipping, outside the layers, has INW006 findings too."""
    document = json.loads(stdout)
    return sorted(
        (f["file"], f["line"], f["column"], f["code"])
        for f in document["diagnostics"]
        if f["code"] in OURS
    )


def by_code(stdout: str, code: str) -> list[dict[str, object]]:
    return [f for f in json.loads(stdout)["diagnostics"] if f["code"] == code]


def test_whole_project(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", FILES)
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1, run.stderr
    assert findings(run.stdout) == [
        ("src/shop/billing/api.py", 1, 35, "INW004"),
        ("src/shop/orders/checkout.py", 1, 35, "INW003"),
        ("src/shop/orders/checkout.py", 3, 34, "INW002"),
        ("src/shop/orders/checkout.py", 3, 34, "INW004"),
        ("src/shop/shipping/labels.py", 1, 29, "INW002"),
    ]
    (inw003,) = by_code(run.stdout, "INW003")
    assert inw003["fix"]["summary"] == (  # type: ignore[index]
        'Import "issue_invoice" from "shop.billing.api", the public module of "billing" '
        "that offers it."
    )
    cycles = sorted(str(f["message"]) for f in by_code(run.stdout, "INW004"))
    assert cycles[0].startswith(
        "The contexts orders -> shipping -> orders import each other in a cycle. It belongs "
        "to a group of 2 contexts and 2 links"
    )
    assert cycles[1].startswith(
        "The modules shop.billing.api -> shop.billing.invoices -> shop.billing.api import "
        "each other in a cycle."
    )
    # Each cycle's imports, as data beside the message (diagnostics[].chain).
    chains = {str(f["file"]): f["chain"] for f in by_code(run.stdout, "INW004")}
    assert chains["src/shop/billing/api.py"] == [
        {
            "module": "shop.billing.api",
            "imports": "shop.billing.invoices",
            "file": "src/shop/billing/api.py",
            "line": 1,
            "column": 35,
            "endLine": 1,
            "endColumn": 48,
        },
        {
            "module": "shop.billing.invoices",
            "imports": "shop.billing.api",
            "file": "src/shop/billing/invoices.py",
            "line": 2,
            "column": 30,
            "endLine": 2,
            "endColumn": 33,
        },
    ]
    assert "chain" not in inw003  # one import: no chain


def test_a_named_file_gets_its_own_findings_and_a_note_on_cycles(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", FILES)
    run = run_inwards("check", "--format", "json", "src/shop/orders/checkout.py", cwd=project)
    assert run.code == 1, run.stderr
    assert findings(run.stdout) == [
        ("src/shop/orders/checkout.py", 1, 35, "INW003"),
        ("src/shop/orders/checkout.py", 3, 34, "INW002"),
    ]
    notes = json.loads(run.stdout).get("notes", [])
    assert any("INW004" in note for note in notes), notes


def test_a_baseline_accepts_a_cycle_until_its_group_changes(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n'
        'cycles = ["modules"]\n',
        "shop/__init__.py": "",
        "shop/a.py": "import shop.b\n",
        "shop/b.py": "import shop.a\n",
        "shop/c.py": "",
    }
    project = write_tree(tmp_path / "p", files)
    assert run_inwards("check", cwd=project).code == 1
    assert run_inwards("baseline", cwd=project).code == 0
    assert run_inwards("check", cwd=project).code == 0
    (project / "shop" / "a.py").write_text("\n\nimport shop.b\n")  # moved: still the group
    assert run_inwards("check", cwd=project).code == 0
    (project / "shop" / "c.py").write_text("import shop.a\n")
    (project / "shop" / "b.py").write_text("import shop.a\nimport shop.c\n")
    grown = run_inwards("check", cwd=project)
    assert grown.code == 1
    assert "group of 3 modules and 4 links" in grown.stdout


def test_inw004_cannot_be_suppressed_inline(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n'
        'cycles = ["modules"]\n',
        "shop/__init__.py": "",
        "shop/a.py": 'import shop.b  # inwards: ignore[INW004] reason="known"\n',
        "shop/b.py": "import shop.a\n",
    }
    project = write_tree(tmp_path / "p", files)
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1
    assert findings(run.stdout) == [
        ("shop/a.py", 1, 8, "INW004"),
        ("shop/a.py", 1, 18, "INW009"),
    ]
