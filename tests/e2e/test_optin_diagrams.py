"""INW017, INW018 and INW019 through the installed `inwards`: a Markdown file holding a
marked Mermaid block and a PlantUML file, off by default, warnings (exit 0) when on, the
same report cold and warm, skipped with PATHS, and a bad `diagrams` entry is exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
root = "src"
diagrams = ["docs/*.md", "docs/uml/**/*.puml", "docs/missing.md"]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""
ON = """
[tool.inwards.rules]
extend-select = ["INW017", "INW018", "INW019"]
"""
MARKDOWN = """\
# Architecture

The layers, outermost first. Arrows point from the importer to what it imports.

```mermaid
%% inwards: layers
flowchart TB
  infrastructure["shop.infrastructure"] --> application["shop.aplication"]
  domain --> application
```

A sequence diagram is not read:

```mermaid
sequenceDiagram
  a->>b: hi
```
"""
PLANTUML = """\
@startuml
' inwards: layers
[shop.infrastructure] as infrastructure
[shop.application] as application
[shop.domain] as domain
infrastructure --> application
application --> domain
infra --> domain
@enduml
"""
FILES = {
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "class Order:\n    pass\n",
    "src/shop/application/__init__.py": "",
    "src/shop/application/checkout.py": "from shop.domain.order import Order\n",
    "src/shop/infrastructure/__init__.py": "",
    "src/shop/infrastructure/db.py": "from shop.application import checkout\n",
    "docs/architecture.md": MARKDOWN,
    "docs/uml/layers.puml": PLANTUML,
}
EXPECTED = [
    (
        "docs/architecture.md",
        8,
        "INW017",
        'The label "shop.aplication" of node "application" names no module of the project; '
        'did you mean "shop.application"?',
    ),
    (
        "docs/architecture.md",
        8,
        "INW019",
        'Layer "application" imports layer "domain" in the code '
        "(src/shop/application/checkout.py:1: `from shop.domain.order import Order`), and the "
        'diagram draws no arrow or path of arrows from "application" to "domain".',
    ),
    (
        "docs/architecture.md",
        9,
        "INW018",
        'The arrow "domain --> application" draws an import that [tool.inwards] forbids: '
        '"application" is outer to "domain" (imports go inward: domain <- application <- '
        "infrastructure).",
    ),
    (
        "docs/uml/layers.puml",
        8,
        "INW017",
        'Node "infra" of this layers diagram names no layer of [tool.inwards]; did you mean '
        '"infrastructure"?',
    ),
    (
        "pyproject.toml",
        3,
        "INW017",
        'The diagrams entry "docs/missing.md" matches no file.',
    ),
]


def _findings(stdout: str) -> list[tuple[str, int, str, str]]:
    return [
        (d["file"], d["line"], d["code"], d["message"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] in ("INW017", "INW018", "INW019")
    ]


def test_off_by_default(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert _findings(run.stdout) == []


def test_on_cold_warm_and_with_paths(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=tmp_path)
    assert cold.code == 0, cold.stderr  # warnings only
    assert _findings(cold.stdout) == EXPECTED
    for diagnostic in json.loads(cold.stdout)["diagnostics"]:
        assert diagnostic["severity"] == "warning"
    for _ in range(2):  # filling the cache, then from it
        warm = run_inwards("check", "--format", "json", cwd=tmp_path)
        assert _findings(warm.stdout) == EXPECTED
    named = run_inwards("check", "--no-cache", "--format", "json", "src/shop/domain", cwd=tmp_path)
    assert named.code == 0, named.stderr
    assert _findings(named.stdout) == []


def test_text_output_points_at_the_diagram_line(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    run = run_inwards("check", "--no-cache", "--select", "INW018", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert "docs/architecture.md:9:10: INW018" in run.stdout


def test_a_bad_diagrams_entry_is_a_config_error(tmp_path: Path) -> None:
    bad = PYPROJECT.replace('"docs/missing.md"', '"../elsewhere/*.md"')
    write_tree(tmp_path, {"pyproject.toml": bad + ON, **FILES})
    run = run_inwards("check", cwd=tmp_path)
    assert run.code == 2
    assert run.stdout == ""
    assert (
        'pyproject.toml:3:48: tool.inwards.diagrams[2]: "../elsewhere/*.md" must stay inside '
        'the directory of the configuration (no "..").'
    ) in run.stderr
