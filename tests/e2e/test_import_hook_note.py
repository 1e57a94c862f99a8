"""INW010 leaves imports below a package whose `__init__` adds an import hook to
`sys.meta_path` unjudged (the finder may serve them), and the run says so in one note per
hooked package, naming the hook's file and line (issue 23), through the installed CLI."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

HOOK = (
    "import importlib.abc\n"
    "import sys\n"
    "\n"
    "\n"
    "class RenamedFinder(importlib.abc.MetaPathFinder):\n"
    "    def find_spec(self, fullname, path, target=None):\n"
    "        return None\n"
    "\n"
    "\n"
    "sys.meta_path.insert(0, RenamedFinder())\n"
)
HOOK_LINE = 10

PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        'root = "src"\n'
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "cli", modules = ["shop.cli"] },\n'
        "]\n"
    ),
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "from shop.domain.gone import x\n",  # still INW010
    "src/shop/cli/__init__.py": HOOK,
    "src/shop/cli/main.py": (
        "from shop.cli.errors import Failed\nimport shop.cli.old.names\nimport shop.cli.main\n"
    ),
    "src/shop/cli/run.py": "from shop.cli.commands.legacy import run\n",
}

NOTE = (
    'src/shop/cli/__init__.py:{line}: the package "shop.cli" adds an import hook to '
    "sys.meta_path, which may serve any module below it, so 3 imports of modules below it "
    "that no file stands for were not reported as unknown first-party modules."
)


def test_one_note_per_hooked_package_in_text_and_json(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "shop", PROJECT)
    note = NOTE.format(line=HOOK_LINE)
    text = run_inwards("check", "--no-cache", cwd=root)
    assert text.code == 1, text.stderr
    assert '"shop.domain.gone" is not a module of this project' in text.stdout
    assert "shop.cli.errors" not in text.stdout
    assert text.stdout.count(f"note: {note}") == 1
    document = json.loads(run_inwards("check", "--format", "json", cwd=root).stdout)
    assert document["notes"] == [note]
    assert [d["code"] for d in document["diagnostics"]] == ["INW010"]
    sarif = json.loads(run_inwards("check", "--format", "sarif", cwd=root).stdout)
    notifications = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["message"]["text"] for n in notifications] == [note]
    # a named file below the package: the note counts what that run left unjudged
    one = json.loads(
        run_inwards("check", "--format", "json", "src/shop/cli/run.py", cwd=root).stdout
    )
    assert [n for n in one.get("notes", []) if "import hook" in n] == [
        note.replace("so 3 imports", "so an import")
    ]


def test_no_note_without_a_hook_or_with_the_rule_off(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "shop", PROJECT)
    off = json.loads(
        run_inwards("check", "--format", "json", "--ignore", "INW010", cwd=root).stdout
    )
    assert "notes" not in off
    (root / "src/shop/cli/__init__.py").write_text("", encoding="utf-8")
    plain = json.loads(run_inwards("check", "--no-cache", "--format", "json", cwd=root).stdout)
    assert "notes" not in plain
    assert sum(d["code"] == "INW010" for d in plain["diagnostics"]) == 4
