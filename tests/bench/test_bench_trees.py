"""The 24 real trees: which packages are chosen, the layering both tools read, the counts.

The selection runs over a made-up corpora directory; the real one is checked only when it is
there (INWARDS_CORPORA, default /work/corpora).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))


def _package(directory: Path, subpackages: list[str], modules: int = 0) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "__init__.py").write_text("", encoding="utf-8")
    for number in range(modules):
        (directory / f"m{number}.py").write_text("import os\n", encoding="utf-8")
    for name in subpackages:
        _package(directory / name, [])


def _corpora(root: Path) -> Path:
    """Two projects: 'big' with a qualifying package and subpackage, 'small' with one tree."""
    big = root / "group" / "big-1.0"
    _package(big / "big", ["a", "b", "c", "d", "tests"], modules=20)
    _package(big / "big" / "d", ["w", "x", "y", "z"], modules=20)  # qualifies one level down
    _package(big / "big" / "tests", ["w", "x", "y", "z"], modules=20)  # a test suite: left out
    _package(big / "big" / "c", ["w", "x", "y"], modules=20)  # too few subpackages
    _package(big / "big" / "d" / "w", ["p", "q", "r", "s"], modules=20)  # depth 2: qualifies
    _package(big / "big" / "d" / "w" / "p", ["1", "2", "3", "4"], modules=20)  # depth 3: too deep
    small = root / "group" / "small-2.0" / "src"
    _package(small / "small", ["e", "f", "g", "h"], modules=3)  # too few files
    _package(small / "other", ["e", "f", "g", "h"], modules=20)
    (root / "MANIFEST.tsv").write_text(
        "group\tname\tversion\tkind\tpythonpath\tpy_files\tpath\n"
        "group\tbig\t1.0\twheel\t.\t0\tgroup/big-1.0\n"
        "group\tsmall\t2.0\tsdist\tsrc\t0\tgroup/small-2.0\n",
        encoding="utf-8",
    )
    return root


def test_selection_takes_qualifying_packages_in_manifest_then_name_order(
    bench_trees: ModuleType, tmp_path: Path
) -> None:
    chosen = bench_trees.select_trees(_corpora(tmp_path))
    assert [tree.name for tree in chosen] == ["big", "big.d", "big.d.w", "other"]
    assert [tree.project for tree in chosen] == ["big", "big", "big", "small"]
    assert chosen[0].subpackages == ("a", "b", "c", "d", "tests")
    assert chosen[-1].package_dir == tmp_path / "group" / "small-2.0" / "src" / "other"
    assert [tree.name for tree in bench_trees.select_trees(tmp_path, count=2)] == ["big", "big.d"]


def test_no_manifest_no_trees(bench_trees: ModuleType, tmp_path: Path) -> None:
    assert bench_trees.select_trees(tmp_path) == []


def test_the_layering_is_the_subpackages_in_name_order(
    bench_trees: ModuleType, tmp_path: Path
) -> None:
    tree = bench_trees.select_trees(_corpora(tmp_path))[1]
    config = tomllib.loads(bench_trees.tree_pyproject(tree))["tool"]["inwards"]
    assert config["root"] == "."
    assert [(layer["name"], layer["modules"]) for layer in config["layers"]] == [
        ("w", ["big.d.w"]),
        ("x", ["big.d.x"]),
        ("y", ["big.d.y"]),
        ("z", ["big.d.z"]),
    ]


def test_a_trees_project_holds_its_whole_top_level_package(
    bench_trees: ModuleType, tmp_path: Path
) -> None:
    tree = bench_trees.select_trees(_corpora(tmp_path / "corpora"))[1]
    project = bench_trees.prepare_tree(tree, tmp_path / "out")
    assert project == tmp_path / "out" / "big.d"
    assert (project / "big" / "a" / "__init__.py").is_file()  # outside the layers, still there
    assert (project / "big" / "d" / "w" / "m0.py").read_text(encoding="utf-8") == "import os\n"
    assert "big.d.z" in (project / "pyproject.toml").read_text(encoding="utf-8")
    again = bench_trees.prepare_tree(tree, tmp_path / "out")  # made afresh
    assert again == project


@pytest.mark.parametrize(
    ("summary", "count"),
    [
        ("Found 1677 errors and 2 warnings in 906 files (370.4 ms).", 1679),
        ("Found 1677 violations, 2 warnings in 909 files (2680.3 ms).", 1679),
        ("Found 1 violation in 6 files (47.2 ms).", 1),
        ("No errors, 19 warnings in 170 files (23.9 ms).", 19),
        ("All clear: 909 files, 0 violations, 19 warnings (229.5 ms).", 19),
        ("All clear: 15 files, 0 violations (82.6 ms).", 0),
        ("All clear: no problems in 1 file (44.5 ms).", 0),
        ("(no output)", None),
    ],
)
def test_findings_count_reads_both_tools_summaries(
    bench_trees: ModuleType, summary: str, count: int | None
) -> None:
    assert bench_trees.findings_count(summary) == count


def test_a_missing_count_leaves_the_total_unknown(bench_trees: ModuleType) -> None:
    assert bench_trees.total_findings([3, 4]) == 7
    assert bench_trees.total_findings([3, None]) is None


@pytest.mark.skipif(not (CORPORA / "MANIFEST.tsv").is_file(), reason="no corpora")
def test_the_corpora_give_the_documented_24_trees(bench_trees: ModuleType) -> None:
    names = [tree.name for tree in bench_trees.select_trees(CORPORA)]
    assert len(names) == 24
    assert names[:3] == ["django", "django.conf.locale", "django.contrib"]
    assert {"sympy", "sympy.physics", "transformers", "transformers.models"} <= set(names)
    assert names[-1] == "fastapi"
