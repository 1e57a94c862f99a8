"""Gaps of the layer rules found on real code, through the installed `inwards`: modules
whose file names are no identifiers (migrations, revisions, odd characters shown escaped),
dynamic imports of code no layer owns (INW006), code run from text (INW011), and packages
whose contents the files don't tell (INW010 silent)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "application", modules = ["shop.application"] },\n'
    '  { name = "infrastructure", modules = ["shop.infrastructure"] },\n'
    "]\n"
)
BASE = {
    "pyproject.toml": CONFIG,
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/application/__init__.py": "",
    "shop/infrastructure/__init__.py": "",
    "shop/infrastructure/db.py": "",
}


def findings(root: Path, *paths: str) -> list[tuple[str, int, str, str]]:
    done = run_inwards("check", "--format", "json", "--no-cache", *paths, cwd=root)
    assert done.code in (0, 1), done.stderr
    return [
        (f["file"], f["line"], f["code"], f["message"])
        for f in json.loads(done.stdout)["diagnostics"]
    ]


def test_migrations_and_revisions_are_checked(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **BASE,
            "shop/domain/migrations/__init__.py": "",
            "shop/domain/migrations/0001_initial.py": "from shop.infrastructure import db\n",
            "shop/application/versions/0882f9657f22_add_x.py": (
                "import importlib\n"
                'importlib.import_module("shop.domain.migrations.0001_initial")\n'
                "from shop.infrastructure.db import Rows\n"
            ),
        },
    )
    assert [(file, line, code) for file, line, code, _ in findings(tmp_path)] == [
        ("shop/application/versions/0882f9657f22_add_x.py", 3, "INW001"),
        ("shop/domain/migrations/0001_initial.py", 1, "INW001"),
    ]
    named = findings(tmp_path, "shop/domain/migrations/0001_initial.py")
    assert [(file, code) for file, _, code, _ in named] == [
        ("shop/domain/migrations/0001_initial.py", "INW001")
    ]


def test_odd_names_are_modules_and_names_built_to_hurt_are_not(tmp_path: Path) -> None:
    printable = "shop/domain/0002_{x}[0]%s-é.py"
    hurtful = "shop/domain/0003_\x1b[31mred\u202e.py"
    write_tree(
        tmp_path,
        {
            **BASE,
            printable: "from shop.infrastructure import db\n",
            hurtful: "from shop.infrastructure import db\n",
        },
    )
    as_json = run_inwards("check", "--format", "json", "--no-cache", cwd=tmp_path)
    [finding] = json.loads(as_json.stdout)["diagnostics"]
    assert (finding["file"], finding["module"]) == (printable, "shop.domain.0002_{x}[0]%s-é")
    # A name with control or bidi characters names no module: named, it is not checked,
    # and the note shows it escaped.
    done = run_inwards("check", "--no-cache", hurtful, cwd=tmp_path)
    assert done.code == 2
    assert "\x1b[31m" not in done.stdout + done.stderr
    assert "0003_\\x1b[31mred\\u202e.py" in done.stdout + done.stderr


def test_dynamic_imports_and_code_from_text(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **BASE,
            "shop/common/__init__.py": "",
            "shop/common/clock.py": "",
            "shop/domain/order.py": (
                "import importlib\n"
                'importlib.import_module("shop.common.clock")\n'
                '__import__("shop").common\n'
                'exec("from shop.infrastructure import db")\n'
                "def run(code):\n"
                "    eval(code)\n"
            ),
            "shop/infrastructure/shell.py": "def run(code):\n    exec(code)\n",
        },
    )
    assert [(line, code, message) for _, line, code, message in findings(tmp_path)[1:]] == [
        (
            2,
            "INW006",
            'Layer "domain" imports "shop.common.clock", which belongs to no layer, through a '
            "dynamic import (importlib.import_module). No layer rule checks what that code "
            "imports.",
        ),
        (
            3,
            "INW006",
            'Layer "domain" imports "shop", which belongs to no layer, through a dynamic '
            "import (__import__). No layer rule checks what that code imports.",
        ),
        (
            4,
            "INW011",
            'Layer "domain" imports "shop.infrastructure.db" from the outer layer '
            '"infrastructure" through a dynamic import (exec). Imports may only point inwards: '
            "domain <- application <- infrastructure.",
        ),
        (
            6,
            "INW011",
            'Layer "domain" runs code that inwards can\'t read (a variable) through eval: any '
            "import in it goes unchecked.",
        ),
    ]


def test_unknown_first_party_is_silent_where_the_files_cannot_tell(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **BASE,
            "shop/__init__.py": (
                '__path__ = __import__("pkgutil").extend_path(__path__, __name__)\n'
            ),
            "shop/infrastructure/__init__.py": (
                "import sys\nfrom shop.infrastructure import db\n"
                'sys.modules[__name__ + ".cli"] = db\n'
            ),
            "shop/domain/order.py": "from shop.sdk.money import Money\n",
            "shop/infrastructure/run.py": (
                "from shop.infrastructure.cli import main\nimport shop.infrastructure.gone\n"
            ),
        },
    )
    assert [(file, line, code) for file, line, code, _ in findings(tmp_path)] == [
        ("shop/infrastructure/run.py", 2, "INW010")
    ]
    # A one-file run reads the packages above the names it can't find, cached or not.
    for _ in range(2):
        done = run_inwards("check", "--format", "json", "shop/domain/order.py", cwd=tmp_path)
        assert done.code == 0, done.stdout
        assert json.loads(done.stdout)["diagnostics"] == []
