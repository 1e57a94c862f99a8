"""File -> module naming: roots, packages, namespace packages, stubs, extensions, odd names."""

from __future__ import annotations

from .helpers import index


def test_root_src_names_modules_from_below_src() -> None:
    idx = index(
        ["src/shop/__init__.py", "src/shop/x.py", "src/shop/domain/__init__.py", "README.md"],
        root="src",
    )
    assert list(idx.modules) == ["shop", "shop.domain", "shop.x"]
    assert idx.modules["shop"].file == "src/shop/__init__.py"
    assert idx.modules["shop"].is_package
    assert not idx.modules["shop.x"].is_package
    assert idx.by_file["src/shop/x.py"].name == "shop.x"


def test_root_src_ignores_files_outside_root() -> None:
    idx = index(["src/shop/x.py", "tests/test_x.py", "setup.py"], root="src")
    assert list(idx.modules) == ["shop.x"]
    assert not idx.exists("tests.test_x")
    assert not idx.is_first_party("tests")


def test_root_spellings_are_equivalent() -> None:
    files = ["src/shop/__init__.py", "src/shop/x.py"]
    for root in ("src", "src/", "./src", "./src/"):
        assert list(index(files, root=root).modules) == ["shop", "shop.x"], root


def test_root_dot_names_from_project_dir() -> None:
    idx = index(["shop/__init__.py", "shop/x.py", "conftest.py", "__init__.py"], root=".")
    # An __init__.py directly in the project dir names no module.
    assert list(idx.modules) == ["conftest", "shop", "shop.x"]


def test_modules_are_sorted_by_name_and_by_file_by_path() -> None:
    idx = index(["b.py", "a/z.py", "a/__init__.py", "a_b.py"])
    assert list(idx.modules) == sorted(idx.modules)
    assert list(idx.by_file) == sorted(idx.by_file)


def test_namespace_packages_name_their_modules() -> None:
    idx = index(["shop/domain/order.py", "shop/domain/sub/deep.py"])
    assert list(idx.modules) == ["shop.domain.order", "shop.domain.sub.deep"]
    assert idx.exists("shop")
    assert idx.exists("shop.domain.sub")
    assert idx.is_first_party("shop.anything")


def test_stub_only_when_no_source_beside_it() -> None:
    idx = index(["pkg/__init__.py", "pkg/__init__.pyi", "pkg/a.py", "pkg/a.pyi", "pkg/b.pyi"])
    assert idx.modules["pkg"].file == "pkg/__init__.py"
    assert idx.modules["pkg.a"].file == "pkg/a.py"
    assert idx.modules["pkg.b"].file == "pkg/b.pyi"
    assert set(idx.by_file) == {"pkg/__init__.py", "pkg/a.py", "pkg/b.pyi"}


def test_stub_package_is_a_package() -> None:
    idx = index(["stubs/__init__.pyi"])
    assert idx.modules["stubs"].is_package


def test_regular_package_wins_over_module_of_same_name() -> None:
    idx = index(["pkg/x.py", "pkg/x/__init__.py", "pkg/x/y.py"])
    assert idx.modules["pkg.x"].file == "pkg/x/__init__.py"
    assert idx.modules["pkg.x"].is_package
    assert "pkg/x.py" not in idx.by_file


def test_extension_modules_with_abi_tags_exist_but_are_not_sources() -> None:
    idx = index(
        [
            "pkg/__init__.py",
            "pkg/fast.cpython-311-x86_64-linux-gnu.so",
            "pkg/plain.so",
            "pkg/stable.abi3.so",
            "pkg/win.cp311-win_amd64.pyd",
            "pkg/cy.pyx",
            "pkg/old.pyc",
        ]
    )
    assert list(idx.modules) == ["pkg"]
    for name in ("fast", "plain", "stable", "win", "cy", "old"):
        assert idx.exists(f"pkg.{name}"), name
    assert not idx.exists("pkg.cpython")


def test_names_importlib_loads_are_modules_too() -> None:
    """A segment need not be an identifier: importlib loads `0001_initial` or `my-script`
    by name. One holding a dot, a space or a character that doesn't print, `__pycache__`
    and an extension module's odd stem are no module."""
    idx = index(
        [
            "my-script.py",
            "foo.bar.py",
            "v1.2/inner.py",
            "my-pkg/__init__.py",
            "my-pkg/inner.py",
            "ok/1st.py",
            "ok/migrations/0001_initial.py",
            "ok/versions/0882f9657f22_add_x.py",
            "ok/versions/with space.py",
            "ok/versions/evil\x1b[31m\n.py",
            "ok/versions/bidi\u202e.py",
            "ok/__pycache__/mod.cpython-311.pyc",
            "ok/__init__.py",
            "ok/fast-one.cpython-311-x86_64-linux-gnu.so",
            "libfoo.so.1",
        ]
    )
    assert list(idx.modules) == [
        "my-pkg",
        "my-pkg.inner",
        "my-script",
        "ok",
        "ok.1st",
        "ok.migrations.0001_initial",
        "ok.versions.0882f9657f22_add_x",
    ]
    assert idx.modules["my-pkg"].is_package
    assert idx.by_file["ok/migrations/0001_initial.py"].name == "ok.migrations.0001_initial"
    assert idx.exists("ok.migrations")
    assert not idx.exists("foo")
    assert not idx.exists("foo.bar")
    assert not idx.exists("v1")
    assert not idx.exists("my_pkg")
    assert not idx.exists("ok.mod")
    assert not idx.exists("ok.__pycache__")
    assert not idx.exists("ok.fast-one")
    assert not idx.exists("libfoo")


def test_closest_names_are_only_names_an_import_can_write() -> None:
    idx = index(["ok/__init__.py", "ok/my-script.py", "ok/0001_x.py", "ok/my_scripts.py"])
    assert idx.closest_modules("ok.my_script") == ("ok.my_scripts",)


def test_directories_without_python_still_exist_as_namespaces() -> None:
    idx = index(["shop/__init__.py"], extra_dirs=["shop/assets", "shop/bad-name", "shop/v1.2"])
    assert idx.exists("shop.assets")
    assert idx.exists("shop.bad-name")  # importlib finds it as a namespace package
    assert not idx.exists("shop.v1.2")
    assert not idx.exists("shop.v1")


def test_one_module_and_the_modules_under_a_path_without_the_whole_map() -> None:
    idx = index(["src/shop/__init__.py", "src/shop/x.py", "src/shop/xy.py", "src/shop/d/a.py"])
    assert idx.module("src.shop.x") is not None
    assert idx.module("src.shop.nothing") is None
    assert idx.module("src.shop.d") is None  # a namespace package: no file is it
    assert [info.name for info in idx.modules_under("src/shop/x.py")] == ["src.shop.x"]
    assert [info.name for info in idx.modules_under("src/shop/d")] == ["src.shop.d.a"]
    assert [info.name for info in idx.modules_under("src/shop/x")] == []  # not a prefix
    assert idx.modules_under("") == list(idx.modules.values())
    # The same objects as the whole map's, built once each.
    assert idx.module("src.shop.x") is idx.modules["src.shop.x"]
    assert idx.modules_under("src")[0] is idx.modules["src.shop"]
