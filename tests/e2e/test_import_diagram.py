"""`inwards import-diagram` through the installed `inwards`: the round trip on the example
projects (`diagram`, then `import-diagram`, gives the same layers, in both notations), a
cycle refused by name, an existing table kept unless --force, and --dry-run."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import EXAMPLES, run_inwards, write_tree

EXAMPLE_NAMES = sorted(path.parent.name for path in EXAMPLES.glob("*/pyproject.toml"))


def layers_of(pyproject: Path) -> Any:
    return tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["inwards"]["layers"]


def without_table(pyproject: Path) -> None:
    """Leave the file's other tables (the project's metadata), drop [tool.inwards]."""
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.split("[tool.inwards]", 1)[0], encoding="utf-8")


@pytest.mark.parametrize("notation", ["mermaid", "plantuml"])
@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_the_round_trip_gives_the_same_layers(
    copy_example: Any, example: str, notation: str
) -> None:
    project = copy_example(example)
    pyproject = project / "pyproject.toml"
    before = layers_of(pyproject)
    root = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["inwards"].get("root", ".")
    name = "docs/layers.md" if notation == "mermaid" else "docs/layers.puml"
    assert run_inwards("diagram", "--format", notation, "-o", name, cwd=project).code == 0
    without_table(pyproject)
    run = run_inwards("import-diagram", name, cwd=project)
    assert run.code == 0, run.stderr
    assert run.stdout.startswith("wrote pyproject.toml: layers, innermost first: ")
    assert layers_of(pyproject) == before
    table = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["inwards"]
    assert table["diagrams"] == [name]
    assert table["rules"]["extend-select"] == ["INW017", "INW018", "INW019"]
    assert table["root"] == root


CYCLE = """# Layers

```mermaid
%% inwards: layers
flowchart TB
  web["web: app.web"] --> core["core: app.core"]
  core --> data["data: app.data"]
  data --> web
```
"""


def test_a_cycle_is_refused_naming_it(tmp_path: Path) -> None:
    write_tree(tmp_path, {"docs/arch.md": CYCLE, "pyproject.toml": '[project]\nname = "app"\n'})
    run = run_inwards("import-diagram", "docs/arch.md", cwd=tmp_path)
    assert run.code == 2
    assert run.stderr == (
        "import-diagram: docs/arch.md:8: the arrows make a cycle, so no layer is inside the "
        'other: "web" --> "core" --> "data" --> "web"; take one arrow out (or draw it dotted '
        "if it is not an import)\n"
    )
    assert (tmp_path / "pyproject.toml").read_text() == '[project]\nname = "app"\n'


DIAGRAM = """@startuml
' inwards: layers
component "app.web" as web
component "app.core" as core
web --> core
@enduml
"""
EXISTING = """[project]
name = "app"

[tool.inwards]
ignore = ["scripts"]  # kept by --force
layers = [{ name = "all", modules = ["app"] }]
rules.extend-select = ["INW012"]
"""


def test_an_existing_table_needs_force_and_keeps_its_other_keys(tmp_path: Path) -> None:
    write_tree(tmp_path, {"arch.puml": DIAGRAM, "pyproject.toml": EXISTING})
    run = run_inwards("import-diagram", "arch.puml", cwd=tmp_path)
    assert run.code == 2
    assert "pyproject.toml:4: [tool.inwards] is already defined" in run.stderr
    assert (tmp_path / "pyproject.toml").read_text() == EXISTING
    dry = run_inwards("import-diagram", "arch.puml", "--dry-run", "--force", cwd=tmp_path)
    assert dry.code == 0, dry.stderr
    assert "(dry run: nothing written)" in dry.stdout
    assert '+diagrams = ["arch.puml"]' in dry.stdout
    assert (tmp_path / "pyproject.toml").read_text() == EXISTING
    run = run_inwards("import-diagram", "arch.puml", "--force", cwd=tmp_path)
    assert run.code == 0, run.stderr
    table = tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["inwards"]
    assert table["ignore"] == ["scripts"]
    assert table["layers"] == [
        {"name": "core", "modules": ["app.core"]},
        {"name": "web", "modules": ["app.web"]},
    ]
    assert table["rules"]["extend-select"] == ["INW012", "INW017", "INW018", "INW019"]
    assert table["root"] == "."


def test_no_marked_diagram_and_a_box_without_modules(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "plain.md": "```mermaid\nflowchart TB\n  a --> b\n```\n",
            "names.mmd": "%% inwards: layers\nflowchart TB\n  web[Web] --> core[app.core]\n",
        },
    )
    run = run_inwards("import-diagram", "plain.md", cwd=tmp_path)
    assert run.code == 2
    assert run.stderr.startswith("import-diagram: plain.md: no marked layers diagram")
    run = run_inwards("import-diagram", "names.mmd", cwd=tmp_path)
    assert run.code == 2
    assert 'names.mmd:3: the label of box "web" holds "Web", not a module name' in run.stderr
    assert not (tmp_path / "pyproject.toml").exists()
