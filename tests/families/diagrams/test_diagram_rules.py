"""INW017, INW018 and INW019: marked diagrams compared with [tool.inwards] and the code."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from inwards_core import Finding, Report
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules
from inwards_core.families.inw.diagrams.labels import module_parts
from inwards_core.families.inw.diagrams.name_hints import closest_name
from inwards_core.ports import ProjectListing

RULES = load_rules(installed_families())
ALL = '["INW017", "INW018", "INW019"]'
LAYERS = """\
[tool.inwards]
diagrams = DIAGRAMS
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  [
    { name = "web", modules = ["shop.web"] },
    { name = "db", modules = ["shop.db"] },
  ],
  { name = "main", modules = ["shop.main"] },
]

[tool.inwards.rules]
extend-select = SELECT
"""
CONTEXTS = """\
[tool.inwards]
diagrams = DIAGRAMS
layers = [{ name = "app", modules = ["shop"] }]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
depends-on = ["billing", "catalog"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing.api"]

[[tool.inwards.contexts]]
name = "catalog"
modules = ["shop.catalog"]

[tool.inwards.rules]
extend-select = SELECT
"""
CODE = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/order.py": "",
    "shop/application/__init__.py": "",
    "shop/application/checkout.py": "from shop.domain import order\n",
    "shop/web/__init__.py": "",
    "shop/web/views.py": "from shop.application import checkout\n",
    "shop/db/__init__.py": "",
    "shop/db/tables.py": "from shop.domain.order import Order\n",
    "shop/main/__init__.py": "import shop.web.views\nimport shop.db.tables\n",
}
CONTEXT_CODE = {
    "shop/__init__.py": "",
    "shop/orders/__init__.py": "",
    "shop/orders/cart.py": "from shop.billing.api import pay\nfrom shop.catalog import items\n",
    "shop/billing/__init__.py": "",
    "shop/billing/api.py": "",
    "shop/billing/ledger.py": "",
    "shop/catalog/__init__.py": "",
    "shop/catalog/items.py": "",
}


def run(
    diagram: str,
    *,
    name: str = "docs/arch.mmd",
    select: str = ALL,
    config: str = LAYERS,
    code: Mapping[str, str] = CODE,
    extra: Mapping[str, str | bytes] | None = None,
    diagrams: str | None = None,
    paths: list[str] | None = None,
) -> Report:
    text = config.replace("DIAGRAMS", diagrams or f'["{name}"]').replace("SELECT", select)
    files = {"pyproject.toml": text, **code, name: diagram, **(extra or {})}
    return check(load_config_text(text), InMemoryProjectFiles(files), rule_set=RULES, paths=paths)


def found(report: Report, code: str | None = None) -> list[tuple[str, int, str]]:
    return [
        (f.file, f.span.line, f.message) for f in report.findings if code is None or f.code == code
    ]


def only(report: Report, code: str) -> Finding:
    findings = [f for f in report.findings if f.code == code]
    assert len(findings) == 1, [f.message for f in report.findings]
    return findings[0]


FULL = """\
%% inwards: layers
flowchart TB
  main --> web & db
  web --> application
  db --> domain
  application --> domain
"""


def test_a_diagram_that_matches_the_code_is_clean() -> None:
    assert found(run(FULL)) == []


# -- INW017 ---------------------------------------------------------------------------


def test_unknown_node_names_the_closest_layer() -> None:
    report = run(FULL + "  domian --> domain\n  Maim --> web\n  infra --> db\n")
    assert found(report, "INW017") == [
        (
            "docs/arch.mmd",
            7,
            'Node "domian" of this layers diagram names no layer of [tool.inwards]; did you '
            'mean "domain"?',
        ),
        (
            "docs/arch.mmd",
            8,
            'Node "Maim" of this layers diagram names no layer of [tool.inwards]; did you '
            'mean "main"?',
        ),
        (
            "docs/arch.mmd",
            9,
            'Node "infra" of this layers diagram names no layer of [tool.inwards]: the layers '
            'are "domain", "application", "web", "db", "main".',
        ),
    ]
    assert only(run(FULL + "  xyz --> domain\n"), "INW017").span.column == 3


def test_closest_name() -> None:
    assert closest_name("infra", ["domain", "infrastructure"]) == "infrastructure"
    assert closest_name("app", ["application", "apps"]) == "apps"
    assert closest_name("ap", ["application"]) == ""
    assert closest_name("web", ["api", "db"]) == ""


def test_external_nodes_are_skipped() -> None:
    diagram = FULL + (
        '  user(("User")):::external --> web\n  web --> stripe\n  class stripe external\n'
    )
    assert found(run(diagram)) == []


def test_labels_are_checked_where_they_name_modules() -> None:
    diagram = (
        "%% inwards: layers\n"
        "flowchart TB\n"
        '  main["shop.main"] --> web["Web UI"] & db["shop.db<br>shop.dbx"]\n'
        '  web --> application["shop.aplication"]\n'
        '  db --> domain["shop.web"]\n'
        "  application --> domain\n"
    )
    assert found(run(diagram), "INW017") == [
        (
            "docs/arch.mmd",
            3,
            'The label "shop.dbx" of node "db" names no module of the project; did you mean '
            '"shop.db"?',
        ),
        (
            "docs/arch.mmd",
            4,
            'The label "shop.aplication" of node "application" names no module of the '
            'project; did you mean "shop.application"?',
        ),
        (
            "docs/arch.mmd",
            5,
            'The label "shop.web" of node "domain" names modules of layer "web", not of layer '
            '"domain".',
        ),
    ]


def test_module_parts_of_a_label() -> None:
    assert module_parts("shop.domain") == ("shop.domain",)
    assert module_parts("shop.a<br/>shop.b, shop.*.c") == ("shop.a", "shop.b", "shop.*.c")
    assert module_parts("Domain model") == ()
    assert module_parts("Domain") == ()
    assert module_parts("shop") == ("shop",)
    assert module_parts("v1.2") == ()
    assert module_parts("`shop.x`") == ("shop.x",)


def test_a_selector_label_and_an_entry_label_pass() -> None:
    config = LAYERS.replace('modules = ["shop.db"]', 'modules = ["shop.*"]').replace(
        '{ name = "web", modules = ["shop.web"] },', '{ name = "web", modules = ["shop.web.x"] },'
    )
    diagram = FULL + '  db["shop.*"]\n  domain["shop.domain.order"]\n'
    assert found(run(diagram, config=config), "INW017") == []


def test_plantuml_labels_and_aliases() -> None:
    diagram = (
        "@startuml\n"
        "' inwards: layers\n"
        "[shop.main] as main\n"
        "[shop.web] as web\n"
        "[shop.db] as db\n"
        "[shop.application] as application\n"
        "[shop.domian] as domain\n"
        "main --> web\nmain --> db\nweb --> application\ndb --> domain\n"
        "application --> domain\n"
        "@enduml\n"
    )
    assert found(run(diagram, name="docs/arch.puml"), "INW017") == [
        (
            "docs/arch.puml",
            7,
            'The label "shop.domian" of node "domain" names no module of the project; did you '
            'mean "shop.domain"?',
        )
    ]


def test_what_could_not_be_read_is_reported() -> None:
    report = run("%% inwards: layers\nsequenceDiagram\n  a->>b: hi\n")
    assert found(report) == [
        (
            "docs/arch.mmd",
            2,
            "Part of this layers diagram could not be read: `sequenceDiagram` is not a "
            "flowchart: only flowcharts are read.",
        )
    ]
    unclosed = run(FULL + "  subgraph inner\n  domain\n")
    assert [line for _, line, _ in found(unclosed)] == [7]


def test_one_diagram_of_each_sort_per_file() -> None:
    markdown = (
        "```mermaid\n" + FULL + "```\n\n"
        "```mermaid\n%% inwards: layers\nflowchart TB\n  nothing --> here\n```\n"
    )
    assert found(run(markdown, name="docs/arch.md")) == [
        (
            "docs/arch.md",
            11,
            "This file already holds a layers diagram, so this second one is not read: inwards "
            "reads one layers and one contexts diagram per file.",
        )
    ]


def test_a_contexts_diagram_without_contexts() -> None:
    report = run("flowchart LR\n  %% inwards: contexts\n  a --> b\n")
    assert found(report) == [
        (
            "docs/arch.mmd",
            2,
            "This contexts diagram has nothing to be compared with: [tool.inwards] declares "
            "no contexts.",
        )
    ]
    assert only(report, "INW017").span.column == 3


def test_entries_that_match_no_file_or_no_marked_diagram() -> None:
    report = run(
        FULL,
        diagrams='["docs/arch.mmd", "docs/missing/*.md", "README.md"]',
        extra={"README.md": "# Shop\n\n```mermaid\nflowchart TB\n  a --> b\n```\n"},
    )
    findings = [f for f in report.findings if f.code == "INW017"]
    assert [(f.file, f.span.line, f.span.column, f.message) for f in findings] == [
        (
            "pyproject.toml",
            2,
            30,
            'The diagrams entry "docs/missing/*.md" matches no file.',
        ),
        (
            "pyproject.toml",
            2,
            51,
            'The diagrams entry "README.md" matches "README.md", and none holds a diagram marked '
            '"inwards: layers" or "inwards: contexts".',
        ),
    ]
    assert {f.fix.summary for f in findings} == {
        'Point the diagrams entry "docs/missing/*.md" at the files holding the diagrams.',
        'Point the diagrams entry "README.md" at the files holding the diagrams.',
    }


def test_an_undecodable_file_is_not_checked_and_no_crash() -> None:
    report = run(FULL, diagrams='["docs/*.mmd"]', extra={"docs/bad.mmd": b"\xff\xfe%%"})
    assert found(report) == []
    assert [n.path for n in report.not_checked] == ["docs/bad.mmd"]


def test_paths_runs_skip_the_diagram_rules() -> None:
    report = run("%% inwards: layers\nflowchart TB\n  nowhere --> domain\n", paths=["shop/web"])
    assert found(report) == []


def test_a_run_without_a_diagram_rule_lists_nothing_more() -> None:
    listed: list[str] = []

    class Counting(InMemoryProjectFiles):
        def listing(self, under: str) -> ProjectListing:
            listed.append(under)
            return super().listing(under)

    text = LAYERS.replace("DIAGRAMS", '["docs/arch.mmd"]').replace("SELECT", "[]")
    files = Counting({"pyproject.toml": text, **CODE, "docs/arch.mmd": "nowhere --> x"})
    check(load_config_text(text), files, rule_set=RULES)
    assert listed == [""]  # root "." is the one listing of the run


# -- INW018 ---------------------------------------------------------------------------


def test_outward_and_sibling_arrows() -> None:
    diagram = FULL + (
        "  domain --> application\n"
        "  web --> db\n"
        "  domain --> domain\n"
        "  db -.-> web\n"
        "  db --- main\n"
        "  db <--> web\n"
        "  stranger --> main\n"
    )
    assert [(line, message) for _, line, message in found(run(diagram), "INW018")] == [
        (
            7,
            'The arrow "domain --> application" draws an import that [tool.inwards] forbids: '
            '"application" is outer to "domain" (imports go inward: domain <- application <- '
            "web | db <- main).",
        ),
        (
            8,
            'The arrow "web --> db" draws an import that [tool.inwards] forbids: "web" and "db" '
            "are sibling layers.",
        ),
    ]


def test_plantuml_reversed_arrows_point_the_way_they_are_drawn() -> None:
    diagram = (
        "@startuml\n' inwards: layers\ndomain <-- application\napplication <- domain\n@enduml\n"
    )
    report = run(diagram, name="docs/arch.puml", select='["INW018"]')
    assert [(line, f.split(":")[0]) for _, line, f in found(report)] == [
        (4, 'The arrow "domain --> application" draws an import that [tool.inwards] forbids')
    ]


def test_contexts_arrows() -> None:
    diagram = (
        "%% inwards: contexts\n"
        "flowchart LR\n"
        '  orders --> billing["shop.billing.api"]\n'
        '  orders --> catalog["shop.catalog.items"]\n'
        "  billing --> orders\n"
    )
    report = run(diagram, config=CONTEXTS, code=CONTEXT_CODE)
    assert found(report, "INW018") == [
        (
            "docs/arch.mmd",
            5,
            'The arrow "billing --> orders" draws an import that [tool.inwards] forbids: the '
            'depends-on of context "billing" does not list "orders" (it lists none).',
        )
    ]
    private = diagram.replace("shop.billing.api", "shop.billing.ledger")
    report = run(private, config=CONTEXTS, code=CONTEXT_CODE, select='["INW018"]')
    summaries = [(f.span.line, f.fix.summary) for f in report.findings]
    assert [item for item in summaries if "arrow" in item[1]] == [
        (3, 'Point the arrow "orders --> billing" at a public module of "billing".'),
        (
            5,
            'Remove or reverse the arrow "billing --> orders": the depends-on of context '
            '"billing" does not list "orders" (it lists none).',
        ),
    ]


# -- INW019 ---------------------------------------------------------------------------


def test_a_missing_arrow_names_one_import() -> None:
    diagram = FULL.replace("  application --> domain\n", "")
    finding = only(run(diagram), "INW019")
    assert (finding.file, finding.span.line, finding.span.column) == ("docs/arch.mmd", 4, 11)
    assert finding.message == (
        'Layer "application" imports layer "domain" in the code (shop/application/checkout.py:1: '
        "`from shop.domain import order`), and the diagram draws no arrow or path of arrows from "
        '"application" to "domain".'
    )
    assert finding.fix.summary == (
        'Draw the arrow "application --> domain", or remove the import at '
        "shop/application/checkout.py:1."
    )


def test_a_path_of_arrows_covers_layers_and_dotted_links_do_not() -> None:
    code = {**CODE, "shop/main/__init__.py": "import shop.domain.order\n"}
    assert found(run(FULL, code=code), "INW019") == []
    dotted = FULL.replace("main --> web & db", "main -.-> web & db")
    [(_, line, message)] = found(run(dotted, code=code), "INW019")
    assert line == 3 and message.startswith('Layer "main" imports layer "domain"')


def test_forbidden_and_undrawn_imports_are_left_to_other_rules() -> None:
    code = {
        **CODE,
        "shop/domain/order.py": "from shop.db import tables\n",
        "shop/web/views.py": "from shop.db import tables\n",
    }
    assert found(run(FULL, code=code), "INW019") == []
    partial = "%% inwards: layers\nflowchart TB\n  web --> application\n"
    assert found(run(partial), "INW019") == []


def test_type_checking_imports_count() -> None:
    code = {
        **CODE,
        "shop/web/views.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from shop.domain import order\n"
        ),
    }
    diagram = "%% inwards: layers\nflowchart TB\n  web --> application\n  domain\n"
    assert [message[:40] for _, _, message in found(run(diagram, code=code), "INW019")] == [
        'Layer "web" imports layer "domain" in th',
        'Layer "application" imports layer "domai',
    ]


def test_contexts_need_a_direct_arrow() -> None:
    diagram = "%% inwards: contexts\nflowchart LR\n  orders --> billing\n  billing --> catalog\n"
    config = CONTEXTS.replace(
        'modules = ["shop.billing"]', 'modules = ["shop.billing"]\ndepends-on = ["catalog"]'
    )
    report = run(diagram, config=config, code=CONTEXT_CODE, select='["INW019"]')
    assert found(report, "INW019") == [
        (
            "docs/arch.mmd",
            3,
            'Context "orders" imports context "catalog" in the code (shop/orders/cart.py:2: '
            '`from shop.catalog import items`), and the diagram draws no arrow from "orders" to '
            '"catalog".',
        )
    ]


def test_a_label_finding_points_where_the_label_is_written() -> None:
    diagram = FULL + '  web["shop.wbe"]\n'
    finding = only(run(diagram), "INW017")
    assert (finding.span.line, finding.span.column) == (7, 3)


def test_boxes_drawn_around_others_are_groupings() -> None:
    mermaid = FULL + '  subgraph core["Core"]\n    domain\n    application\n  end\n'
    assert found(run(mermaid)) == []
    plantuml = (
        "@startuml\n' inwards: layers\n"
        'System_Boundary(shop, "Shop") {\n'
        '  Container(web, "Web")\n  Container(application, "Application")\n}\n'
        "package backend {\n  [shop.db] as db\n  [shop.domain] as domain\n}\n"
        "Rel(web, application)\ndb --> domain\n"
        "@enduml\n"
    )
    report = run(plantuml, name="docs/arch.puml", select='["INW017"]')
    assert found(report) == []


DFETCH = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora")) / "contracts" / "dfetch-0.14.4"


@pytest.mark.skipif(not (DFETCH / "dfetch").is_dir(), reason="the dfetch corpus is not here")
def test_dfetch_real_container_diagram() -> None:
    """dfetch's own C4 container diagram, marked, against its import-linter layering (as
    bench/precision_dfetch_diagrams.py runs it): clean; a removed relation and an
    outward one are found."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from precision_dfetch_diagrams import MARKED, PYPROJECT, UML

    code = {
        path.relative_to(DFETCH).as_posix(): path.read_text(encoding="utf-8")
        for path in (DFETCH / "dfetch").rglob("*.py")
    }
    text = (DFETCH / UML / MARKED).read_text(encoding="utf-8")
    marked = text.replace("@startuml\n", "@startuml\n' inwards: layers\n", 1)

    def findings(diagram: str) -> list[tuple[int, str]]:
        files = {"pyproject.toml": PYPROJECT, **code, f"{UML}/{MARKED}": diagram}
        report = check(load_config_text(PYPROJECT), InMemoryProjectFiles(files), rule_set=RULES)
        return [(f.span.line, f.code) for f in report.findings if f.file.endswith(".puml")]

    assert findings(marked) == []
    removed = marked.replace('    Rel(contCommands, contReporting, "Uses")\n', "")
    assert findings(removed) == [(10, "INW019")]  # where contCommands is drawn
    outward = marked.replace("@enduml", 'Rel(contVcs, contProject, "Uses")\n@enduml')
    assert findings(outward) == [(outward.splitlines().index("@enduml"), "INW018")]


def test_a_node_stands_for_the_layer_its_caption_modules_or_box_name() -> None:
    diagram = (
        "%% inwards: layers\n"
        "flowchart TB\n"
        "  M[Main] --> W(Web) & DB\n"
        '  DB["shop.db"] --> D\n'
        "  subgraph application\n"
        "    cart[Cart service] --> payments[Payments]\n"
        "  end\n"
        "  W --> cart\n"
        "  payments --> D[Domain]\n"
        "  D --> W\n"
    )
    report = run(diagram)
    assert found(report, "INW017") == []
    assert found(report, "INW019") == []
    assert [message[:40] for _, _, message in found(report, "INW018")] == [
        'The arrow "D --> W" draws an import that'
    ]
    assert '"web" is outer to "domain"' in found(report, "INW018")[0][2]


def test_plantuml_components_inside_a_layer_package() -> None:
    diagram = (
        "@startuml\n' inwards: layers\n"
        "package main {\n  [Bootstrap] as boot\n}\n"
        "package web {\n  [Views] as views\n}\n"
        "package db {\n  [Tables] as tables\n}\n"
        "package application {\n  [Checkout] as checkout\n  [shop.db] as wrong\n}\n"
        "package domain {\n  [Order] as order\n}\n"
        "boot --> views\nboot --> tables\nviews --> checkout\ntables --> order\n"
        "checkout --> order\n"
        "@enduml\n"
    )
    report = run(diagram, name="docs/arch.puml")
    assert found(report) == [
        (
            "docs/arch.puml",
            14,
            'The label "shop.db" of node "wrong" names modules of layer "db", not of layer '
            '"application".',
        )
    ]


def test_problems_are_counted_past_twenty() -> None:
    report = run("%% inwards: layers\nflowchart TB\n" + "  subgraph x\n" * 30 + "  domain\n")
    messages = [message for _, _, message in found(report)]
    assert len(messages) == 21
    assert messages[0] == (
        "10 more parts of this layers diagram could not be read (the first 20 are reported)."
    )
