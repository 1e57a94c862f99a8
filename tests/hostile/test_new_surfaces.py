"""`import-config` and `init`, as hard as `check`: project text with a line break can't
forge an output line; huge or deep configurations end within their budget with exit 2 and
one line; nothing is read outside the project nor half-written."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.helpers import write_tree
from tests.hostile.harness import Budget, run_limited

QUICK = Budget(seconds=15, memory_mb=2048)
FORGED = "FORGED: a line of its own"

CONTRACT = """
[[tool.importlinter.contracts]]
name = "one"
type = "forbidden"
source_modules = ["shop.a"]
forbidden_modules = ["shop.b"]
"""


def _shop(root: Path, pyproject: str, **files: str) -> Path:
    tree = {
        "pyproject.toml": pyproject,
        "shop/__init__.py": "",
        "shop/a/__init__.py": "",
        "shop/b/__init__.py": "",
        **files,
    }
    return write_tree(root, tree)


def _no_forged_line(output: str) -> None:
    assert not any(line.startswith(FORGED) for line in output.splitlines()), output


def test_a_line_break_in_an_import_config_note_is_escaped(tmp_path: Path) -> None:
    _shop(tmp_path, f'[tool.importlinter]\nroot_package = "shop"\n"x\\n{FORGED}" = 1\n{CONTRACT}')
    run = run_limited("import-config", "--dry-run", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output
    assert f"session option x\\n{FORGED} has no inwards counterpart" in run.stdout
    _no_forged_line(run.output)


def test_a_line_break_in_the_file_name_is_escaped(tmp_path: Path) -> None:
    name = f"x\n{FORGED}.importlinter"
    _shop(tmp_path, "", **{name: "[importlinter]\nroot_package = shop\n"})
    run = run_limited("import-config", "--dry-run", name, cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output
    assert f"import-linter contracts in x\\n{FORGED}.importlinter:" in run.stdout
    _no_forged_line(run.output)


def test_a_line_break_in_a_package_directory_is_escaped_by_init_auto(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "shop"\n',
            "src/shop/__init__.py": "",
            "src/shop/domain/__init__.py": "",
            "src/shop/api/__init__.py": "",
            f"src/shop/x\n{FORGED}/m.py": "",
        },
    )
    run = run_limited("init", "--style", "auto", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output
    assert f"shop.x\\n{FORGED}" in run.stdout
    _no_forged_line(run.output)
