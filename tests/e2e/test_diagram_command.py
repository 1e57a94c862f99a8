"""`inwards diagram` through the installed `inwards`: the shop's layers in both notations, a
Markdown file, contexts, the picture formats, and the diagram checked by INW017-INW019."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import EXAMPLES, REPO, run_inwards, write_tree

SHOP = EXAMPLES / "shop"
HAS_RENDERER = importlib.util.find_spec("mermaidx") is not None


def test_the_shop_as_mermaid() -> None:
    run = run_inwards("diagram", cwd=SHOP)
    assert run.code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "%% inwards: layers"
    assert lines[2] == "flowchart TB"
    assert "  bootstrap --> outbound & inbound" in lines
    assert lines[-1] == "  application --> domain"
    assert run_inwards("diagram", cwd=SHOP).stdout == run.stdout  # same tree, same bytes
    # docs/diagrams-and-brief.md shows it (an illustrative block the doc tests don't run).
    docs = (REPO / "docs" / "diagrams-and-brief.md").read_text(encoding="utf-8")
    assert f"```mermaid\n{run.stdout}```\n" in docs


def test_the_shop_as_plantuml() -> None:
    run = run_inwards("diagram", "--format", "plantuml", cwd=SHOP)
    assert run.code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["@startuml", "' inwards: layers"]
    assert 'component "domain: shop.domain" as domain' in lines
    assert "application --> domain" in lines


def test_a_markdown_output_holds_a_fenced_block(copy_example: Any) -> None:
    project = copy_example("shop")
    run = run_inwards("diagram", "--output-file", "docs/layers.md", cwd=project)
    assert run.code == 0, run.stderr
    assert run.stdout == ""
    written = (project / "docs" / "layers.md").read_text(encoding="utf-8")
    assert written.startswith("```mermaid\n%% inwards: layers\n")
    assert written.endswith("```\n")


def test_the_written_diagram_passes_the_diagram_rules(copy_example: Any) -> None:
    """What `diagram` writes is what INW017-INW019 read: on the project it came from, no
    unknown name, no forbidden arrow, no missing dependency."""
    project = copy_example("shop")
    for notation, name in (("mermaid", "docs/layers.md"), ("plantuml", "docs/layers.puml")):
        assert run_inwards("diagram", "--format", notation, "-o", name, cwd=project).code == 0
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8").replace(
        'root = "src"\n',
        'root = "src"\ndiagrams = ["docs/layers.md", "docs/layers.puml"]\n'
        'rules.extend-select = ["INW017", "INW018", "INW019"]\n',
    )
    pyproject.write_text(text, encoding="utf-8")
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert "INW01" not in run.stdout


CONTEXTS = """
[tool.inwards]
layers = [
  { name = "core", modules = ["app.core"] },
  { name = "web", modules = ["app.web"] },
]

[[tool.inwards.contexts]]
name = "billing"
modules = ["app.core.billing"]
depends-on = ["catalog"]

[[tool.inwards.contexts]]
name = "catalog"
modules = ["app.core.catalog"]
"""


def test_contexts_and_none_to_draw(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": CONTEXTS, "app/__init__.py": ""})
    run = run_inwards("diagram", "--contexts", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines()[0] == "%% inwards: contexts"
    assert "  billing --> catalog" in run.stdout.splitlines()
    run = run_inwards("diagram", "--contexts", cwd=SHOP)
    assert run.code == 2
    assert "pyproject.toml declares no [[tool.inwards.contexts]] to draw" in run.stderr


def test_no_configuration_is_exit_2(tmp_path: Path) -> None:
    run = run_inwards("diagram", cwd=tmp_path)
    assert run.code == 2
    assert run.stdout == ""


@pytest.mark.skipif(HAS_RENDERER, reason="the optional renderer is installed")
def test_a_picture_without_the_renderer_says_how_to_get_one() -> None:
    run = run_inwards("diagram", "--format", "svg", cwd=SHOP)
    assert run.code == 2
    assert run.stdout == ""
    assert "pip install 'inwards-lint[render]'" in run.stderr
    assert "```mermaid block" in run.stderr


def test_png_needs_an_output_file() -> None:
    run = run_inwards("diagram", "--format", "png", cwd=SHOP)
    assert run.code == 2
    assert "`--format png` needs `--output-file FILE`" in run.stderr


@pytest.mark.skipif(not HAS_RENDERER, reason="the optional renderer (mermaidx) is not installed")
def test_pictures_with_the_renderer(copy_example: Any) -> None:
    project = copy_example("shop")
    svg = run_inwards("diagram", "--format", "svg", cwd=project)
    assert svg.code == 0, svg.stderr
    assert svg.stdout.lstrip().startswith("<svg")
    png = run_inwards("diagram", "--format", "png", "-o", "layers.png", cwd=project)
    assert png.code == 0, png.stderr
    assert (project / "layers.png").read_bytes().startswith(b"\x89PNG")
