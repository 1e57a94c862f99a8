"""The Mermaid flowchart reader: each construct, positions in the file, bounds, and input
built to hurt it (it must end fast, with problems, never raise)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inwards_core.diagrams.blocks import find_blocks
from inwards_core.diagrams.mermaid import parse_mermaid
from inwards_core.diagrams.model import Diagram, Edge, Node


def read(text: str, first_line: int = 1) -> Diagram:
    return parse_mermaid(text.splitlines(), first_line, "layers", "docs/arch.md")


def edges(text: str) -> list[tuple[str, str, str, str]]:
    return [(e.source, e.target, e.style, e.text) for e in read(text).edges]


def labels(text: str) -> dict[str, str | None]:
    return {node.id: node.label for node in read(text).nodes}


def test_the_shape_inwards_prints() -> None:
    diagram = read('flowchart TB\n    api["shop.api"]\n    api --> app & infra\n')
    assert diagram.nodes[0] == Node("api", "shop.api", 2, 5)
    assert [(e.source, e.target) for e in diagram.edges] == [("api", "app"), ("api", "infra")]
    assert diagram.problems == ()
    assert (diagram.kind, diagram.file) == ("layers", "docs/arch.md")


@pytest.mark.parametrize(
    ("link", "style"),
    [
        ("-->", "solid"),
        ("--->", "solid"),
        ("==>", "solid"),
        ("-.->", "dotted"),
        ("-..->", "dotted"),
        ("-.-", "dotted"),
        ("---", "open"),
        ("===", "open"),
        ("<-->", "two-way"),
        ("<==>", "two-way"),
        ("<-.->", "two-way"),
        ("o--o", "two-way"),
        ("x--x", "two-way"),
        ("--o", "other"),
        ("--x", "other"),
        ("~~~", "other"),
    ],
)
def test_link_styles(link: str, style: str) -> None:
    assert edges(f"graph LR\n  a {link} b\n") == [("a", "b", style, "")]
    if "o" not in link and "x" not in link:  # `ao--ob` is ambiguous in Mermaid too
        assert edges(f"graph LR\n  a{link}b\n") == [("a", "b", style, "")]


@pytest.mark.parametrize(
    ("statement", "text", "style"),
    [
        ("a -->|uses| b", "uses", "solid"),
        ("a -->| uses |b", "uses", "solid"),
        ("a -- uses --> b", "uses", "solid"),
        ("a -. maybe .-> b", "maybe", "dotted"),
        ("a == strong ==> b", "strong", "solid"),
        ("a -- plain --- b", "plain", "open"),
        ("a e1@--> b", "", "solid"),
        ("a--uses-->b", "uses", "solid"),
    ],
)
def test_edge_text_and_ids(statement: str, text: str, style: str) -> None:
    assert edges(f"graph TD\n{statement}\n") == [("a", "b", style, text)]


@pytest.mark.parametrize(
    ("node", "label"),
    [
        ("a[shop.a]", "shop.a"),
        ('a["shop.a"]', "shop.a"),
        ("a(shop.a)", "shop.a"),
        ("a([shop.a])", "shop.a"),
        ("a[[shop.a]]", "shop.a"),
        ("a[(shop.a)]", "shop.a"),
        ("a((shop.a))", "shop.a"),
        ("a(((shop.a)))", "shop.a"),
        ("a{shop.a}", "shop.a"),
        ("a{{shop.a}}", "shop.a"),
        ("a>shop.a]", "shop.a"),
        ("a[/shop.a/]", "shop.a"),
        ("a[\\shop.a\\]", "shop.a"),
        ("a[/shop.a\\]", "shop.a"),
        ('a["`shop.a`"]', "shop.a"),
        ('a@{ shape: rect, label: "shop.a" }', "shop.a"),
        ("a@{ shape: rect }", None),
        ("a", None),
    ],
)
def test_node_shapes_and_labels(node: str, label: str | None) -> None:
    assert labels(f"flowchart LR\n  {node} --> b\n") == {"a": label, "b": None}


def test_ids_may_hold_dots_and_dashes() -> None:
    assert edges("graph LR\nshop.api-->my-app\n") == [("shop.api", "my-app", "solid", "")]


def test_fan_out_and_chains() -> None:
    assert edges("graph LR\na & b --> c & d\n") == [
        ("a", "c", "solid", ""),
        ("a", "d", "solid", ""),
        ("b", "c", "solid", ""),
        ("b", "d", "solid", ""),
    ]
    assert edges("graph LR\na --> b -.-> c\n") == [
        ("a", "b", "solid", ""),
        ("b", "c", "dotted", ""),
    ]


def test_semicolons_comments_and_skipped_statements() -> None:
    text = (
        "---\ntitle: x --> y\n---\n%%{init: {'theme': 'dark'}}%%\n"
        "graph LR;\n  %% inwards: layers\n  a --> b; b --> c;\n"
        "  classDef hot fill:#f00\n  style a fill:#f00\n  linkStyle 0 stroke:red\n"
        "  click a callback\n  accTitle: t\n  accDescr: d\n  direction TB\n"
    )
    diagram = read(text)
    assert [(e.source, e.target) for e in diagram.edges] == [("a", "b"), ("b", "c")]
    assert diagram.problems == ()
    assert diagram.edges[1].line == 7
    assert diagram.edges[1].column == 14


def test_subgraphs_are_nodes_and_hold_nodes() -> None:
    diagram = read(
        "flowchart TB\n  subgraph shop [Shop]\n    direction LR\n    a --> b\n  end\n"
        '  subgraph "only a title"\n  c\n  end\n'
    )
    assert [(n.id, n.label) for n in diagram.nodes] == [
        ("shop", "Shop"),
        ("a", None),
        ("b", None),
        ("c", None),
    ]
    assert diagram.problems == ()
    assert read("graph LR\nend\n").problems[0].message.startswith("`end` without")


def test_descriptions_and_unclosed_subgraphs() -> None:
    diagram = read("graph LR\naccDescr {\n  a --> b\n}\nsubgraph one\nc --> d\n")
    assert [(e.source, e.target) for e in diagram.edges] == [("c", "d")]
    assert [(p.line, p.column, p.message) for p in diagram.problems] == [
        (5, 1, "`subgraph` never closed by `end`")
    ]


def test_external_nodes() -> None:
    diagram = read("graph LR\n  stripe:::external --> a\n  b --> c\n  class b,c external\n")
    assert {n.id: n.external for n in diagram.nodes} == {
        "stripe": True,
        "a": False,
        "b": True,
        "c": True,
    }


def test_first_appearance_keeps_the_position_and_a_later_label_fills_in() -> None:
    diagram = read('graph LR\na --> b\n  b["shop.b"]\n', first_line=40)
    assert diagram.nodes[1] == Node("b", "shop.b", 41, 7, label_line=42, label_column=3)
    assert diagram.nodes[1].label_position == (42, 3)
    assert diagram.nodes[0].label_position == (41, 1)
    assert diagram.edges[0] == Edge("a", "b", "solid", 41, 3)


def test_a_quoted_label_may_run_over_lines() -> None:
    diagram = read('graph LR\n  a["one\ntwo"] --> b\n  c --> d\n')
    assert labels('graph LR\n  a["one\ntwo"] --> b\n') == {"a": "one\ntwo", "b": None}
    assert diagram.edges[0].line == 3
    assert diagram.edges[1].line == 4
    long = read('graph LR\n  a["' + "\n" * 30 + '"] --> b\n')
    assert long.problems[0].message.startswith("unterminated quote")


def test_other_diagrams_are_not_read() -> None:
    diagram = read("%% inwards: layers\nsequenceDiagram\n  a->>b: hi\n")
    assert diagram.nodes == () and diagram.edges == ()
    assert diagram.problems[0].message.startswith("`sequenceDiagram` is not a flowchart")
    assert read("a --> b\n").problems[0].line == 1 or read("").problems


@pytest.mark.parametrize(
    "statement", ["a -->", "--> b", "a --> ]", "a[unclosed --> b", "a -- text b", "a -->|t b"]
)
def test_broken_statements_are_problems(statement: str) -> None:
    diagram = read(f"graph LR\n{statement}\n")
    assert diagram.problems
    assert all(p.line == 2 for p in diagram.problems)


def test_bounds() -> None:
    many = read("graph LR\n" + "".join(f"n{i} --> m{i}\n" for i in range(3_000)))
    assert len(many.nodes) == 5_000
    assert any("5,000 nodes" in p.message for p in many.problems)
    edges_ = read("graph LR\n" + "a --> b\n" * 20_001)
    assert len(edges_.edges) == 20_000
    assert [p.message for p in edges_.problems] == ["more than 20,000 edges: the rest are not read"]


@pytest.mark.parametrize(
    "text",
    [
        "graph LR\n" + "a-->" * 250_000,
        "graph LR\n" + "a-->" * 2_400 + "b",
        "graph LR\na" + "[" * 10_000,
        "graph LR\na" + "[" * 9_000,
        "graph LR\n" + "a[" * 4_000,
        'graph LR\na["' + "x" * 9_000,
        "graph LR\n" + '"' * 9_999 + "\n" * 100,
        "graph LR\n" + "a -- " * 2_000,
        "graph LR\n" + "a@{" * 3_000,
        "graph LR\n" + "a;" * 4_999,
        'graph LR\n"\n' + ('"' + ";" * 9_998 + "\n") * 18 + '"',
    ],
)
def test_hostile_lines_end_with_problems(text: str) -> None:
    diagram = read(text)
    assert isinstance(diagram, Diagram)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='ab-.=<>ox~&|;:"[](){}@/\\ \n%', max_size=200))
def test_never_raises(body: str) -> None:
    diagram = read("flowchart LR\n" + body)
    for item in (*diagram.nodes, *diagram.edges, *diagram.problems):
        assert item.line >= 1 and item.column >= 1


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_any_text(body: str) -> None:
    read(body)
    read("graph TD\n" + body)


CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
FASTAPI_SCRIPTS = CORPORA / "fastapi" / "fastapi-0.163.2" / "scripts"


def _fastapi_docs() -> list[Path]:
    data = FASTAPI_SCRIPTS / "tests" / "test_translation_fixer" / "test_code_blocks" / "data"
    return [*sorted(data.glob("*.md")), FASTAPI_SCRIPTS / "general-llm-prompt.md"]


@pytest.mark.skipif(not FASTAPI_SCRIPTS.is_dir(), reason="the fastapi corpus is not here")
def test_real_markdown_flowcharts_read_cleanly() -> None:
    read_blocks = 0
    for path in _fastapi_docs():
        text = path.read_text(encoding="utf-8")
        assert find_blocks(path.name, text) == ()  # not marked: the rules would not read them
        marked = text.replace("```mermaid\n", "```mermaid\n%% inwards: layers\n")
        for block in find_blocks(path.name, marked):
            diagram = parse_mermaid(block.lines, block.first_line, block.kind, path.name)
            assert diagram.problems == (), path
            assert diagram.nodes and diagram.edges, path
            lines = marked.splitlines()
            for node in diagram.nodes:
                assert lines[node.line - 1][node.column - 1 :].startswith(node.id)
            read_blocks += 1
    assert read_blocks == 12


def test_a_subgraph_is_a_container() -> None:
    diagram = read("graph LR\n  subgraph core[Core]\n    a --> b\n  end\n")
    assert [(n.id, n.container) for n in diagram.nodes] == [
        ("core", True),
        ("a", False),
        ("b", False),
    ]
