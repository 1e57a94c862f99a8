"""The PlantUML reader: elements and aliases, containers, arrows (directions, colours,
dashed, reversed), labels, C4 macros, skipped lines, hostile input, and the real C4
diagrams of the corpora."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inwards_core.diagrams.blocks import find_blocks
from inwards_core.diagrams.model import Diagram, Edge, Node
from inwards_core.diagrams.plantuml import parse_plantuml


def read(text: str, first_line: int = 1) -> Diagram:
    return parse_plantuml(text.splitlines(), first_line, "contexts", "docs/c.puml")


def edges(text: str) -> list[tuple[str, str, str, str]]:
    return [(e.source, e.target, e.style, e.text) for e in read(text).edges]


def nodes(text: str) -> list[tuple[str, str | None]]:
    return [(n.id, n.label) for n in read(text).nodes]


def test_the_shape_inwards_prints() -> None:
    diagram = read("[shop.domain] as domain\n[shop.app] as app\napp --> domain\n", 5)
    assert diagram.nodes == (
        Node("domain", "shop.domain", 5, 1),
        Node("app", "shop.app", 6, 1),
    )
    assert diagram.edges == (Edge("app", "domain", "solid", 7, 5),)
    assert diagram.problems == ()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("component [Shop API] as api", ("api", "Shop API")),
        ('component "Shop API" as api <<service>> #red', ("api", "Shop API")),
        ('component api as "Shop API"', ("api", "Shop API")),
        ("package shop.infra {", ("shop.infra", None)),
        ('package "Shop" as shop {', ("shop", "Shop")),
        ("database db", ("db", None)),
        ("node   n1", ("n1", None)),
        ("[shop.a]", ("shop.a", "shop.a")),
        ('interface "port"', ("port", "port")),
    ],
)
def test_elements(line: str, expected: tuple[str, str | None]) -> None:
    assert nodes(line + "\n}\n" if line.endswith("{") else line) == [expected]


@pytest.mark.parametrize(
    ("arrow", "style"),
    [
        ("->", "solid"),
        ("-->", "solid"),
        ("--->", "solid"),
        ("-up->", "solid"),
        ("-down->", "solid"),
        ("-left->", "solid"),
        ("-right->", "solid"),
        ("-u->", "solid"),
        ("-[#red]->", "solid"),
        ("-[#red,bold]up->", "solid"),
        ("-[dashed]->", "dotted"),
        ("-[dotted]->", "dotted"),
        ("..>", "dotted"),
        (".>", "dotted"),
        ("--", "open"),
        ("..", "open"),
        ("<-->", "two-way"),
        ("<->", "two-way"),
        ("--|>", "other"),
        ("--*", "other"),
        ("-[hidden]->", "other"),
    ],
)
def test_arrows(arrow: str, style: str) -> None:
    assert edges(f"a {arrow} b") == [("a", "b", style, "")]
    assert edges(f"a{arrow}b") == [("a", "b", style, "")]


def test_reversed_arrows_point_the_way_they_point() -> None:
    assert edges("a <-- b\na <- b\na <.. b : maybe\na <-up- b") == [
        ("b", "a", "solid", ""),
        ("b", "a", "solid", ""),
        ("b", "a", "dotted", "maybe"),
        ("b", "a", "solid", ""),
    ]


def test_labels_and_inline_elements() -> None:
    diagram = read("[shop.a] --> [shop.b] : imports\n")
    assert [(n.id, n.label) for n in diagram.nodes] == [("shop.a", "shop.a"), ("shop.b", "shop.b")]
    assert diagram.edges == (Edge("shop.a", "shop.b", "solid", 1, 10, "imports"),)


def test_containers_and_skipped_lines() -> None:
    text = (
        "@startuml\n!include <C4/C4_Container>\ntitle Shop\nleft to right direction\n"
        "skinparam componentStyle rectangle\nskinparam package<<x>> {\n  a --> b\n}\n"
        "hide empty members\n' a --> b\n/' a --> b\n c --> d '/\n/' one line '/\n"
        "legend\n x --> y\nendlegend\nnote right of a\n p --> q\nend note\n"
        "note left: r --> s\npackage shop {\n  [a] as a\n  component b\n}\na --> b\n@enduml\n"
    )
    diagram = read(text)
    assert [n.id for n in diagram.nodes] == ["shop", "a", "b"]
    assert [(e.source, e.target) for e in diagram.edges] == [("a", "b")]
    assert diagram.edges[0].line == 25
    assert diagram.problems == ()


def test_one_line_notes_headers_and_names_like_keywords() -> None:
    text = (
        'note "free" as n1\nheader page 1\nfooter\n a --> b\nendfooter\n'
        "top to bottom direction\nleft --> top\nlegend right\n c --> d\nend legend\n"
        "note as n2\n e --> f\nend note\nleft -> right\n"
    )
    assert edges(text) == [("left", "top", "solid", ""), ("left", "right", "solid", "")]


def test_c4_macros() -> None:
    text = (
        'Person(user, "Developer")\nSystem_Boundary(shop, "Shop") {\n'
        '  Container(api, "API", "python", "Serves, and more")\n'
        '  Component(domain, "Domain")\n  ContainerDb(db, "DB")\n}\n'
        'Rel(api, domain, "Uses")\nRel_U(api, db)\nRel_Back(domain, db, "feeds")\n'
        "BiRel(user, api)\nLay_R(api, db)\nAddElementTag(x, $bgColor=red)\n"
    )
    diagram = read(text)
    assert [(n.id, n.label) for n in diagram.nodes] == [
        ("user", "Developer"),
        ("shop", "Shop"),
        ("api", "API"),
        ("domain", "Domain"),
        ("db", "DB"),
    ]
    assert [(e.source, e.target, e.style, e.text) for e in diagram.edges] == [
        ("api", "domain", "solid", "Uses"),
        ("api", "db", "solid", ""),
        ("db", "domain", "solid", "feeds"),
        ("user", "api", "two-way", ""),
    ]
    assert diagram.problems == ()


def test_c4_macros_without_ids_are_not_read() -> None:
    diagram = read('Rel(, b)\nRel(a, "")\nContainer("", "x")\nSystem_Boundary()\n')
    assert diagram.nodes == () and diagram.edges == () and diagram.problems == ()


def test_activity_and_sequence_lines_give_no_problem() -> None:
    diagram = read("start\n:Get version;\nif (given?) then (yes)\n  :Do it;\nendif\nstop\n")
    assert diagram.nodes == () and diagram.problems == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[shop.a --> b", "`[` is never closed by `]`: not read"),
        ('component "api', '`"` is never closed by `"`: not read'),
        ("a -->", "an arrow without a target: not read"),
        ("}", "`}` closes no container"),
        ("/' open\na --> b", "a `/'` comment is never closed by `'/`"),
        ("Rel(a, b", "`Rel(` is never closed: not read"),
    ],
)
def test_problems(text: str, message: str) -> None:
    assert [p.message for p in read(text).problems] == [message]


def test_bounds() -> None:
    many = read("".join(f"n{i} --> m{i}\n" for i in range(3_000)))
    assert len(many.nodes) == 5_000
    assert any("5,000 nodes" in p.message for p in many.problems)
    assert len(read("a --> b\n" * 20_001).edges) == 20_000


@pytest.mark.parametrize(
    "text",
    [
        "a" + "-" * 1_000_000 + ">b",
        "a --> " * 2_000,
        "[" * 10_000,
        "a -" + "[" * 9_000 + "> b",
        "Rel(" * 2_000 + ")" * 2_000,
        '"' * 9_999,
        "a " + "-up" * 3_000 + "-> b",
        "/'" * 5_000,
    ],
)
def test_hostile_lines_end(text: str) -> None:
    assert isinstance(read(text), Diagram)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab-.<>|*o#[]{}()\":,' \nupRel_ascomponent", max_size=200))
def test_never_raises(text: str) -> None:
    diagram = read(text)
    for item in (*diagram.nodes, *diagram.edges, *diagram.problems):
        assert item.line >= 1 and item.column >= 1


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_any_text(text: str) -> None:
    read(text)


CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
DFETCH_UML = CORPORA / "contracts" / "dfetch-0.14.4" / "doc" / "static" / "uml"


@pytest.mark.skipif(not DFETCH_UML.is_dir(), reason="the dfetch corpus is not here")
@pytest.mark.parametrize(
    ("name", "counts"),
    [
        ("c1_dfetch_context.puml", (9, 6)),
        ("c2_dfetch_containers.puml", (14, 14)),
        ("c3_dfetch_components_commands.puml", (22, 47)),
        ("c3_dfetch_components_manifest.puml", (13, 12)),
        ("c3_dfetch_components_project.puml", (17, 21)),
        ("security_doc_flow.puml", (25, 18)),
        ("check.puml", (0, 0)),
        ("commands.puml", (0, 0)),
        ("update.puml", (0, 0)),
    ],
)
def test_real_diagrams_read_cleanly(name: str, counts: tuple[int, int]) -> None:
    text = (DFETCH_UML / name).read_text(encoding="utf-8")
    assert find_blocks(name, text) == ()  # not marked: the rules would not read them
    diagram = parse_plantuml(text.splitlines(), 1, "contexts", name)
    assert diagram.problems == ()
    assert (len(diagram.nodes), len(diagram.edges)) == counts
    known = {node.id for node in diagram.nodes}
    assert all(e.source in known and e.target in known for e in diagram.edges)


def test_external_elements() -> None:
    text = (
        "[shop.domain] as domain\n"
        "component stripe <<External>>\n"
        "[Payments API] as payments <<external>> #lightgrey\n"
        'Person(user, "Developer")\nSystem_Ext(git, "Git")\nContainerDb_Ext(db, "DB")\n'
        'Container(api, "API")\n'
    )
    assert [(n.id, n.external) for n in read(text).nodes] == [
        ("domain", False),
        ("stripe", True),
        ("payments", True),
        ("user", True),
        ("git", True),
        ("db", True),
        ("api", False),
    ]


def test_containers() -> None:
    text = (
        'System_Boundary(shop, "Shop") {\n  Container(api, "API")\n}\n'
        "package backend {\n  [shop.db] as db\n}\ncomponent single\n"
    )
    assert [(n.id, n.container) for n in read(text).nodes] == [
        ("shop", True),
        ("api", False),
        ("backend", True),
        ("db", False),
        ("single", False),
    ]
