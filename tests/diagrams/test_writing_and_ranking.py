"""The diagram writer and the ranking of a drawn diagram into layers: what one writes, the
other reads back as the same layers, in both notations."""

from __future__ import annotations

import re

import pytest

from inwards_core import find_diagram_blocks, load_config_text, parse_diagram_block
from inwards_core.diagrams.model import Diagram
from inwards_core.diagrams.ranking import RankingError, rank_layers
from inwards_core.diagrams.writing import Notation, NothingToDraw, architecture_diagram

SHOP = """
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  [
    { name = "outbound", modules = ["shop.adapters.outbound"] },
    { name = "inbound", modules = ["shop.adapters.inbound"] },
  ],
  { name = "bootstrap", modules = ["shop.bootstrap", "shop.adapters"] },
]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
depends-on = ["catalog"]

[[tool.inwards.contexts]]
name = "catalog"
modules = ["shop.catalog"]
"""

SUFFIX = {"mermaid": "d.mmd", "plantuml": "d.puml"}


def read(text: str, file: str) -> Diagram:
    (block,) = find_diagram_blocks(file, text)
    return parse_diagram_block(block, file)


def test_the_mermaid_layers_diagram() -> None:
    written = architecture_diagram(load_config_text(SHOP), "layers", "mermaid")
    assert written.splitlines()[0] == "%% inwards: layers"
    assert written.splitlines()[2:] == [
        "flowchart TB",
        '  bootstrap["bootstrap: shop.bootstrap, shop.adapters"]',
        '  outbound["outbound: shop.adapters.outbound"]',
        '  inbound["inbound: shop.adapters.inbound"]',
        '  application["application: shop.application"]',
        '  domain["domain: shop.domain"]',
        "  bootstrap --> outbound & inbound",
        "  outbound & inbound --> application",
        "  application --> domain",
    ]


def test_the_plantuml_contexts_diagram() -> None:
    written = architecture_diagram(load_config_text(SHOP), "contexts", "plantuml")
    lines = written.splitlines()
    assert lines[:2] == ["@startuml", "' inwards: contexts"]
    assert 'component "billing: shop.billing" as billing' in lines
    assert "billing --> catalog" in lines
    assert lines[-1] == "@enduml"


def test_no_contexts_is_nothing_to_draw() -> None:
    config = load_config_text(SHOP.split("[[tool.inwards.contexts]]")[0])
    with pytest.raises(NothingToDraw, match=re.escape("no [[tool.inwards.contexts]]")):
        architecture_diagram(config, "contexts", "mermaid")


@pytest.mark.parametrize("notation", ["mermaid", "plantuml"])
def test_written_layers_rank_back_to_the_same_layers(notation: Notation) -> None:
    config = load_config_text(SHOP)
    diagram = read(architecture_diagram(config, "layers", notation), SUFFIX[notation])
    assert diagram.problems == ()
    ranked = rank_layers(diagram)
    assert [[(layer.name, layer.modules) for layer in rank] for rank in ranked] == [
        [("domain", ("shop.domain",))],
        [("application", ("shop.application",))],
        [("outbound", ("shop.adapters.outbound",)), ("inbound", ("shop.adapters.inbound",))],
        [("bootstrap", ("shop.bootstrap", "shop.adapters"))],
    ]


@pytest.mark.parametrize("notation", ["mermaid", "plantuml"])
def test_a_name_that_cant_be_an_id_comes_back(notation: Notation) -> None:
    config = load_config_text(
        '[tool.inwards]\nlayers = [{ name = "core model", modules = ["a.core"] },'
        ' { name = "end", modules = ["a.web"] }]\n'
    )
    written = architecture_diagram(config, "layers", notation)
    ranked = rank_layers(read(written, SUFFIX[notation]))
    assert [(rank[0].name, rank[0].modules) for rank in ranked] == [
        ("core model", ("a.core",)),
        ("end", ("a.web",)),
    ]


def test_rank_is_the_longest_path_to_an_innermost_box() -> None:
    text = (
        "%% inwards: layers\nflowchart TB\n"
        "  web[a.web] --> app[a.app]\n  web --> dom[a.dom]\n  app --> dom\n"
        "  cli[a.cli] --> dom\n  web -.-> cli\n"
    )
    ranked = rank_layers(read(text, "d.mmd"))
    assert [[layer.name for layer in rank] for rank in ranked] == [
        ["dom"],
        ["app", "cli"],
        ["web"],
    ]


def test_a_cycle_is_refused_naming_it() -> None:
    text = "%% inwards: layers\nflowchart TB\n  a[x.a] --> b[x.b]\n  b --> c[x.c]\n  c --> a\n"
    with pytest.raises(RankingError) as raised:
        rank_layers(read(text, "d.mmd"))
    assert str(raised.value).startswith("d.mmd:5: the arrows make a cycle, so no layer")
    assert '"a" --> "b" --> "c" --> "a"' in str(raised.value)


def test_a_box_without_modules_is_refused() -> None:
    text = "%% inwards: layers\nflowchart TB\n  web[Web API] --> dom[a.dom]\n"
    with pytest.raises(
        RankingError, match=re.escape('d.mmd:3: the label of box "web" holds "Web API"')
    ):
        rank_layers(read(text, "d.mmd"))
    text = "%% inwards: layers\nflowchart TB\n  web --> dom[a.dom]\n"
    with pytest.raises(RankingError, match=re.escape('d.mmd:3: box "web" names no module')):
        rank_layers(read(text, "d.mmd"))


def test_external_boxes_and_their_arrows_are_left_out() -> None:
    text = (
        "%% inwards: layers\nflowchart TB\n  web[a.web] --> dom[a.dom]\n"
        "  web --> pg[Postgres]:::external\n"
    )
    ranked = rank_layers(read(text, "d.mmd"))
    assert [[layer.name for layer in rank] for rank in ranked] == [["dom"], ["web"]]
