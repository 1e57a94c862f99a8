"""The direct members of each package, from the listing: modules, stubs, subpackages regular
and namespace, and the file that stands for each."""

from __future__ import annotations

import subprocess
import sys

from .helpers import index

FILES = [
    "shop/__init__.py",
    "shop/orders/__init__.py",
    "shop/orders/service.py",
    "shop/orders/ports/__init__.py",
    "shop/orders/ports/repo.py",
    "shop/orders/types.pyi",
    "shop/orders/both.py",
    "shop/orders/both.pyi",
    "shop/orders/_speedups.cpython-311-x86_64-linux-gnu.so",
    "shop/orders/extras/z_last.py",
    "shop/orders/extras/deep/a_first.py",
    "shop/orders/static/logo.png",
    "shop/orders/my-script.py",
    "src_tools/run.py",
]


def shown(members: tuple[object, ...]) -> list[tuple[str, str | None]]:
    return [(m.shown, m.file) for m in members]  # type: ignore[attr-defined]


def test_members_of_a_package_in_name_order() -> None:
    idx = index(FILES)
    assert shown(idx.members("shop.orders")) == [
        ("_speedups.py", None),
        ("both.py", "shop/orders/both.py"),
        ("extras/", "shop/orders/extras/deep/a_first.py"),
        # importlib loads it by name: a member like any other module.
        ("my-script.py", "shop/orders/my-script.py"),
        ("ports/", "shop/orders/ports/__init__.py"),
        ("service.py", "shop/orders/service.py"),
        ("types.pyi", "shop/orders/types.pyi"),
    ]
    assert shown(idx.members("shop")) == [("orders/", "shop/orders/__init__.py")]


def test_packages_regular_and_namespace() -> None:
    idx = index(FILES)
    assert idx.packages() == (
        "shop",
        "shop.orders",
        "shop.orders.extras",
        "shop.orders.extras.deep",
        "shop.orders.ports",
        "src_tools",
    )
    assert idx.members("shop.orders.service") == ()
    assert idx.members("nothing") == ()


def test_package_file_is_init_or_first_file_below() -> None:
    idx = index(FILES)
    assert idx.package_file("shop.orders") == "shop/orders/__init__.py"
    assert idx.package_file("shop.orders.extras") == "shop/orders/extras/deep/a_first.py"
    assert idx.package_file("src_tools") == "src_tools/run.py"


def test_members_at_a_file() -> None:
    idx = index(FILES)

    def at(file: str) -> list[str]:
        return [m.dotted for m in idx.members_at(idx.by_file[file])]

    assert at("shop/orders/service.py") == ["shop.orders.service"]
    assert at("shop/orders/ports/__init__.py") == ["shop.orders.ports"]
    assert at("shop/orders/ports/repo.py") == ["shop.orders.ports.repo"]
    # The first file below a namespace package stands for it (and its own namespace parent).
    assert at("shop/orders/extras/deep/a_first.py") == [
        "shop.orders.extras",
        "shop.orders.extras.deep",
        "shop.orders.extras.deep.a_first",
    ]
    assert at("shop/orders/extras/z_last.py") == ["shop.orders.extras.z_last"]
    # Top-level names are members of no package.
    assert at("shop/__init__.py") == []
    assert at("src_tools/run.py") == ["src_tools.run"]


def test_members_under_a_root() -> None:
    idx = index(["src/shop/__init__.py", "src/shop/a.py", "src/shop/b/__init__.py"], root="src")
    assert shown(idx.members("shop")) == [
        ("a.py", "src/shop/a.py"),
        ("b/", "src/shop/b/__init__.py"),
    ]


def test_members_and_the_shape_kinds_helpers_load_on_first_need() -> None:
    """`inwards check` imports every family and builds an index on every run: a project
    without shapes never loads the members part, the edit distance or the synonym table."""
    script = (
        "import sys\n"
        "import inwards_core.families.inw\n"
        "from inwards_core.index.modules import ModuleIndex\n"
        "from inwards_core.config.values import Config\n"
        "from inwards_core.ports import ProjectListing\n"
        "config = Config(file='pyproject.toml', root='.', layers=())\n"
        "idx = ModuleIndex.build(config, ProjectListing(('shop/a.py',), ()))\n"
        "late = ('inwards_core.index.members', 'inwards_core.index.hints',\n"
        "        'inwards_core.families.inw.shapes.shape_targets')\n"
        "print(*(name in sys.modules for name in late))\n"
        "idx.members('shop')\n"
        "print(*(name in sys.modules for name in late[:1]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False False False", "True"]
