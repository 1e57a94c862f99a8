"""The synthetic project generator: deterministic, inward-only, five planted violations."""

from __future__ import annotations

import ast
import configparser
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

MODULES = 40  # small, so the tests stay fast; the layout logic is the same as for 2,000


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _layer(generate: ModuleType, module_name: str) -> int:
    layer: int = generate.LAYERS.index(module_name.split(".")[1])
    return layer


def test_same_tree_on_every_run(generate: ModuleType, tmp_path: Path) -> None:
    generate.generate(tmp_path / "a", MODULES, violations=True)
    generate.generate(tmp_path / "b", MODULES, violations=True)
    assert _tree(tmp_path / "a") == _tree(tmp_path / "b")


def test_default_layout_is_four_layers_of_25_packages_of_20_modules(generate: ModuleType) -> None:
    modules = generate.layout(2000)
    assert len(modules) == 2000
    assert len({(m.layer, m.package) for m in modules}) == 100
    assert {m.index for m in modules} == set(range(20))


def test_scaled_layout_keeps_the_requested_count(generate: ModuleType) -> None:
    assert len(generate.layout(37)) == 37
    with pytest.raises(ValueError, match="at least 8"):
        generate.layout(3)


def test_clean_tree_only_imports_inward(generate: ModuleType, tmp_path: Path) -> None:
    project = generate.generate(tmp_path, MODULES)
    assert project.planted == ()
    first_party = 0
    for path in (tmp_path / "src").rglob("m*.py"):
        importer = ".".join(path.relative_to(tmp_path / "src").with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
        assert [f.name for f in functions] == [f"f{n}" for n in range(1, 41)]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                first_party += 1
                assert node.module != importer
                assert _layer(generate, node.module) <= _layer(generate, importer)
                assert (tmp_path / "src" / (node.module.replace(".", "/") + ".py")).is_file()
            elif isinstance(node, ast.Import):
                assert all(alias.name in generate.STDLIB for alias in node.names)
    assert first_party > MODULES  # most modules found their eight imports


def test_violations_change_only_the_planted_lines(generate: ModuleType, tmp_path: Path) -> None:
    generate.generate(tmp_path / "clean", MODULES)
    project = generate.generate(tmp_path / "dirty", MODULES, violations=True)
    clean, dirty = _tree(tmp_path / "clean"), _tree(tmp_path / "dirty")
    changed = {path for path in clean if clean[path] != dirty[path] and path.endswith(".py")}
    assert changed == {violation.path for violation in project.planted}
    assert clean.keys() == dirty.keys()


def test_five_planted_violations_sit_where_the_pyproject_says(
    generate: ModuleType, tmp_path: Path
) -> None:
    project = generate.generate(tmp_path, MODULES, violations=True)
    assert [v.code for v in project.planted] == ["INW001", "INW001", "INW001", "INW005", "INW010"]
    pyproject = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    lines_by_path = {}
    for violation in project.planted:
        assert f"#   {violation.path}:{violation.line} {violation.code}" in pyproject
        lines_by_path[violation.path] = (
            (tmp_path / violation.path).read_text(encoding="utf-8").splitlines()
        )

    def line(index: int) -> str:
        violation = project.planted[index]
        text: str = lines_by_path[violation.path][violation.line - 1]
        return text

    assert line(0).startswith("from shop.api.") and "/domain/" in project.planted[0].path
    assert line(1).startswith("from shop.infrastructure.")
    assert "/application/" in project.planted[1].path
    assert line(2).startswith("    from shop.api.")  # indented: inside a function
    assert "/infrastructure/" in project.planted[2].path
    assert line(3) == "import requests" and "/domain/" in project.planted[3].path
    missing = line(4).split()[1]
    assert missing.endswith(".ghost")
    assert not (tmp_path / "src" / (missing.replace(".", "/") + ".py")).exists()
    # The outward targets exist, so they are layer violations and nothing else.
    for index in (0, 1, 2):
        target = line(index).split()[1]
        assert (tmp_path / "src" / (target.replace(".", "/") + ".py")).is_file()


def test_configs_declare_the_same_four_layers(generate: ModuleType, tmp_path: Path) -> None:
    generate.generate(tmp_path, MODULES)
    table = tomllib.loads((tmp_path / "pyproject.toml").read_text(encoding="utf-8"))
    inwards = table["tool"]["inwards"]
    assert inwards["root"] == "src"
    innermost_first = [layer["modules"] for layer in inwards["layers"]]
    assert innermost_first == [[f"shop.{name}"] for name in generate.LAYERS]

    parser = configparser.ConfigParser()
    parser.read(tmp_path / ".importlinter", encoding="utf-8")
    assert parser["importlinter"]["root_package"] == "shop"
    contract = parser["importlinter:contract:layers"]
    assert contract["type"] == "layers"
    outermost_first = contract["layers"].split()
    assert outermost_first == [f"shop.{name}" for name in reversed(generate.LAYERS)]


def test_refuses_to_overwrite_a_directory_it_did_not_write(
    generate: ModuleType, tmp_path: Path
) -> None:
    (tmp_path / "precious.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"not written by bench/generate\.py"):
        generate.generate(tmp_path, MODULES)
    assert (tmp_path / "precious.txt").read_text(encoding="utf-8") == "keep me"


def test_regenerating_replaces_an_earlier_tree(generate: ModuleType, tmp_path: Path) -> None:
    generate.generate(tmp_path, MODULES, violations=True)
    (tmp_path / "src" / "shop" / "stray.py").write_text("", encoding="utf-8")
    generate.generate(tmp_path, MODULES)
    assert not (tmp_path / "src" / "shop" / "stray.py").exists()
    assert "No planted violations" in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
