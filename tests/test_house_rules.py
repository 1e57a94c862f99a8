"""The repository's own [tool.inwards] and project rules catch what they are there for: a
room importing an outer room, and a third-party library outside its one home. Run on a copy
of the repository's configuration over a small tree with one planted import of each kind,
so that a rule which matched nothing (and so could never fail) would fail here."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

REPO = Path(__file__).resolve().parents[1]


def rooms() -> list[str]:
    """The module prefixes of every layer of the repository's [tool.inwards]."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    prefixes: list[str] = []
    for entry in config["tool"]["inwards"]["layers"]:
        for layer in entry if isinstance(entry, list) else [entry]:
            prefixes.extend(layer["modules"])
    return prefixes


def test_the_house_rules_catch_what_they_are_for(tmp_path: Path) -> None:
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(REPO / ".inwards" / "rules", tmp_path / ".inwards" / "rules")
    tree: dict[str, str | bytes] = {}
    for prefix in rooms():  # every room holds a module, so no layer owns nothing
        tree[prefix.replace(".", "/") + "/__init__.py"] = ""
    tree.update(
        {
            "inwards_core/model/__init__.py": "import inwards_core.engine\n",  # outward
            "inwards_core/engine/__init__.py": "import libcst\nimport typer\n",
            "inwards_core/extraction/__init__.py": "import libcst\n",  # its home
            "inwards_core/plugins/__init__.py": "import pluggy\n",  # its home
            "inwards_cli/__init__.py": "import pluggy\nimport typer\n",
        }
    )
    write_tree(tmp_path, tree)
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=tmp_path)
    assert run.code == 1, run.stdout + run.stderr
    found = sorted(
        (line.split(":")[0], line.split(": ")[1].split()[0])
        for line in run.stdout.splitlines()
        if ": INW" in line or ": HOUSE" in line
    )
    assert found == [
        ("inwards_cli/__init__.py", "HOUSE002"),
        ("inwards_core/engine/__init__.py", "HOUSE001"),
        ("inwards_core/engine/__init__.py", "HOUSE002"),
        ("inwards_core/model/__init__.py", "INW001"),
    ], run.stdout
