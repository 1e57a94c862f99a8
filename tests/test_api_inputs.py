"""The public API refuses wrong input where it enters, naming the argument and the value:
a `TypeError` for a wrong type, a `ValueError` for a wrong value, never a late
`AttributeError` or a silently different run."""

from __future__ import annotations

from typing import Any

import pytest

import inwards_core
from inwards_core import check_sources
from inwards_core.adapters.in_memory import InMemoryProjectFiles, InMemoryRuleSources

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""
GOOD = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/orders.py": "import shop.adapters\n",
    "shop/adapters/__init__.py": "",
}


def test_good_input_still_works() -> None:
    report = check_sources(GOOD, pyproject=PYPROJECT)
    assert [f.code for f in report.findings] == ["INW001"]
    named = check_sources(GOOD, pyproject=PYPROJECT, paths=["shop/domain/orders.py"])
    assert [f.code for f in named.findings] == ["INW001"]
    as_bytes = {path: text.encode() for path, text in GOOD.items()}
    assert check_sources(as_bytes, pyproject=PYPROJECT).findings == report.findings


@pytest.mark.parametrize(
    ("sources", "message"),
    [
        ({1: "x"}, "sources: a path must be a str, not int: 1"),
        ({b"shop/a.py": "x"}, "sources: a path must be a str, not bytes: b'shop/a.py'"),
        ({"shop/a.py": 3}, "sources['shop/a.py'] must be str or bytes, not int"),
        ({"shop/a.py": None}, "sources['shop/a.py'] must be str or bytes, not NoneType"),
        ({"shop/a.py": ["import x"]}, "sources['shop/a.py'] must be str or bytes, not list"),
        ("shop/a.py", "sources must be a mapping of paths to contents, not str"),
        ([("shop/a.py", "")], "sources must be a mapping of paths to contents, not list"),
    ],
)
def test_sources_of_the_wrong_type(sources: Any, message: str) -> None:
    with pytest.raises(TypeError) as caught:
        check_sources(sources, pyproject=PYPROJECT)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("shop/domain/orders.py", "shop//domain/orders.py"),
        ("shop/domain/orders.py", "./shop/domain/orders.py"),
        ("shop/domain/orders.py", "shop/domain/orders.py/"),
        ("shop/domain/orders.py", "shop\\\\domain\\\\orders.py"),
    ],
)
def test_two_keys_for_one_file(first: str, second: str) -> None:
    sources = {**GOOD, first: "", second: "import shop.adapters\n"}
    with pytest.raises(ValueError, match="name the same file") as caught:
        check_sources(sources, pyproject=PYPROJECT)
    assert repr(first) in str(caught.value) and repr(second) in str(caught.value)


def test_paths_given_as_one_string() -> None:
    with pytest.raises(TypeError) as caught:
        check_sources(GOOD, pyproject=PYPROJECT, paths="shop/domain/orders.py")
    assert str(caught.value) == (
        "paths must be a sequence of paths, not one str: pass ['shop/domain/orders.py']"
    )
    with pytest.raises(TypeError, match=r"paths\[1\] must be a str, not int: 7"):
        check_sources(GOOD, pyproject=PYPROJECT, paths=["shop", 7])
    config = inwards_core.load_config_text(PYPROJECT)
    with pytest.raises(TypeError, match="not one str"):
        inwards_core.check(config, InMemoryProjectFiles(GOOD), paths="shop")


def test_pyproject_of_the_wrong_type_and_a_long_value_is_cut() -> None:
    with pytest.raises(TypeError, match=r"pyproject must be a str \(the text of pyproject"):
        check_sources(GOOD, pyproject=PYPROJECT.encode())  # type: ignore[arg-type]
    with pytest.raises(TypeError) as caught:
        check_sources(GOOD, pyproject=None)  # type: ignore[arg-type]
    assert str(caught.value).endswith("not NoneType: None")
    with pytest.raises(TypeError) as long:
        check_sources({b"x" * 1_000_000: ""}, pyproject=PYPROJECT)  # type: ignore[dict-item]
    assert len(str(long.value)) < 200 and "(1000003 characters)" in str(long.value)
    with pytest.raises(TypeError, match="text must be a str"):
        inwards_core.load_config_text(PYPROJECT.encode())  # type: ignore[arg-type]


def test_in_memory_files_name_their_argument() -> None:
    with pytest.raises(TypeError, match="files: a path must be a str"):
        InMemoryProjectFiles({3: ""})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match=r"files: 'a\.py' and '\./a\.py' name the same file"):
        InMemoryProjectFiles({"a.py": "", "./a.py": ""})
    with pytest.raises(ValueError, match=r"files: '\.\./a\.py' is not a path inside"):
        InMemoryProjectFiles({"../a.py": ""})
    with pytest.raises(ValueError, match="files: 'a' is given both as a file and as a dir"):
        InMemoryProjectFiles({"a": "", "a/b.py": ""})
    families = inwards_core.installed_families()
    with pytest.raises(TypeError, match="project: a file name must be a str"):
        InMemoryRuleSources(families, project={1: "x"})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"user\['A\.toml'\] must be str or bytes, not int"):
        InMemoryRuleSources(families, user={"A.toml": 1})  # type: ignore[dict-item]


def test_the_other_entry_points() -> None:
    with pytest.raises(TypeError, match="families must be a sequence of Family"):
        inwards_core.load_rules("inw")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"families\[0\] must be a Family, not str"):
        inwards_core.load_rules(["inw"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="user_rules must be one of on, guidance-only, off"):
        inwards_core.load_rules(user_rules="maybe")
    with pytest.raises(TypeError, match="config must be a Config"):
        inwards_core.check({"layers": []}, InMemoryProjectFiles(GOOD))  # type: ignore[arg-type]
    config = inwards_core.load_config_text(PYPROJECT)
    with pytest.raises(TypeError, match="rule_set must be a RuleSet"):
        inwards_core.prepare(config, "INW001")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="data must be the baseline's bytes, not str"):
        inwards_core.parse_baseline("{}")  # type: ignore[arg-type]
