"""`inwards import-config`: what it writes, what it refuses, what it reports."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

CONFIG = """\
[importlinter]
root_package = shop

[importlinter:contract:layers]
name = Layers
type = layers
layers =
    shop.api
    shop.domain

[importlinter:contract:mine]
name = Custom
type = mypkg.contracts.Custom
"""
PYPROJECT = '# keep me\n[project]\nname = "shop"  # and me\n'
TREE = {
    "shop/__init__.py": "",
    "shop/api.py": "import shop.domain\n",
    "shop/domain.py": "",
    "tests/test_it.py": "",
    "pyproject.toml": PYPROJECT,
    ".importlinter": CONFIG,
}


def test_writes_the_table_and_one_definition_per_contract(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    done = run_inwards("import-config", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert "IL001 'Layers' (.importlinter:4): converted exactly" in done.stdout
    assert "- 'Custom' (.importlinter:11): not converted" in done.stdout
    assert "type mypkg.contracts.Custom is not a built-in contract type" in done.stdout
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.startswith(PYPROJECT)
    assert 'ignore = ["/tests"]' in text
    assert 'select = ["IL001"]' in text
    definition = (tmp_path / ".inwards/rules/IL001.toml").read_text()
    assert 'check = "inw.layers"' in definition
    assert not (tmp_path / ".inwards/rules/IL002.toml").exists()


def test_dry_run_prints_everything_and_writes_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    done = run_inwards("import-config", "--dry-run", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert "+[tool.inwards]" in done.stdout
    assert "# .inwards/rules/IL001.toml:" in done.stdout
    assert (tmp_path / "pyproject.toml").read_text() == PYPROJECT
    assert not (tmp_path / ".inwards").exists()


def test_refuses_an_existing_table_and_existing_definitions_without_force(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    assert run_inwards("import-config", cwd=tmp_path).code == 0
    again = run_inwards("import-config", cwd=tmp_path)
    assert again.code == 2
    assert "pyproject.toml:5: [tool.inwards] is already defined" in again.stderr
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    taken = run_inwards("import-config", cwd=tmp_path)
    assert taken.code == 2
    assert "IL001.toml already exists" in taken.stderr
    forced = run_inwards("import-config", "--force", cwd=tmp_path)
    assert forced.code == 0, forced.stderr


def test_a_named_file_and_its_directory(tmp_path: Path) -> None:
    write_tree(tmp_path / "project", TREE)
    (tmp_path / "project/.importlinter").unlink()
    (tmp_path / "project/lint.ini").write_text(CONFIG)
    done = run_inwards("import-config", "project/lint.ini", "--dry-run", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert "import-linter contracts in lint.ini:" in done.stdout


def test_no_configuration_and_a_broken_one_exit_2(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT})
    none = run_inwards("import-config", cwd=tmp_path)
    assert none.code == 2
    assert "no import-linter configuration found" in none.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.importlinter\n")
    broken = run_inwards("import-config", cwd=tmp_path)
    assert broken.code == 2
    assert "pyproject.toml:1: is not valid TOML" in broken.stderr
    write_tree(tmp_path, {".importlinter": "[importlinter]\n"})
    rootless = run_inwards("import-config", cwd=tmp_path)
    assert rootless.code == 2
    assert ".importlinter: [importlinter] sets no root_package(s)" in rootless.stderr
