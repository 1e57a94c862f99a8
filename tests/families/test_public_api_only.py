"""INW is written as a third party would write it: every import of inwards_core in the
family's code is a name of the public API (`inwards_core.__all__`) or a module of the family
itself. TIDY, a real third-party distribution, is held to the same rule."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import inwards_core

REPO = Path(__file__).resolve().parents[2]
INW = REPO / "inwards_core" / "families" / "inw"
TIDY = REPO / "tests" / "families" / "inwards-rules-tidy" / "inwards_rules_tidy"


def private_imports(package: Path, own: str) -> list[str]:
    """`file:line: what` for each import of inwards_core outside its public API, in every
    module of `package` (nested and TYPE_CHECKING imports too), files named from the
    package's parent. `own` is the package's dotted name: its modules may import each other."""
    public = set(inwards_core.__all__)
    found: list[str] = []
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [
                    f"{where}:{node.lineno}: import {alias.name}"
                    for alias in node.names
                    if alias.name.split(".")[0] == "inwards_core"
                ]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                module = node.module
                if module == own or module.startswith(own + "."):
                    continue
                if module == "inwards_core":
                    found += [
                        f"{where}:{node.lineno}: {alias.name} is not in inwards_core.__all__"
                        for alias in node.names
                        if alias.name not in public
                    ]
                elif module.startswith("inwards_core."):
                    found.append(f"{where}:{node.lineno}: from {module} import ...")
    return found


def test_inw_uses_only_the_public_api() -> None:
    assert private_imports(INW, "inwards_core.families.inw") == []


def test_tidy_uses_only_the_public_api() -> None:
    if not TIDY.is_dir():
        pytest.skip("the TIDY family's sources are not here")
    assert private_imports(TIDY, "inwards_rules_tidy") == []


def test_the_check_finds_a_private_import(tmp_path: Path) -> None:
    package = tmp_path / "acme"
    package.mkdir()
    (package / "kinds.py").write_text(
        "from inwards_core import CheckKind, ModuleIndex\n"
        "from inwards_core.rules.runtime import RuleSet\n"
        "from acme.other import thing\n"
        "def f():\n    import inwards_core.engine\n"
        "from inwards_core import not_public\n",
        encoding="utf-8",
    )
    assert sorted(private_imports(package, "acme")) == [
        "acme/kinds.py:2: from inwards_core.rules.runtime import ...",
        "acme/kinds.py:5: import inwards_core.engine",
        "acme/kinds.py:6: not_public is not in inwards_core.__all__",
    ]
