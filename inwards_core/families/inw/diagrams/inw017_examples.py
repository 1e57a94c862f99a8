"""The examples of inw.diagram-unknown-name (INW017): small projects with a
marked diagram in `docs/` that its page shows with their real output and the tests run."""

from __future__ import annotations

from inwards_core import Example
from inwards_core.families.inw.diagrams.example_projects import (
    LAYER_CODE,
    LAYERS_CONFIG,
    configured,
    mermaid_page,
)


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="A node that is no layer, and a label with a typo",
            good=False,
            config=configured(LAYERS_CONFIG, "INW017"),
            files={
                **LAYER_CODE,
                "docs/architecture.md": mermaid_page(
                    "%% inwards: layers",
                    "flowchart TB",
                    '  infra["shop.infrastructure"] --> application["shop.application"]'
                    ' & domain["shop.domian"]  # expect: INW017',
                    "  application --> domain",
                ),
            },
        ),
        Example(
            title="A PlantUML component named after a package that is not there",
            good=False,
            config=configured(LAYERS_CONFIG, "INW017", "docs/layers.puml"),
            files={
                **LAYER_CODE,
                "docs/layers.puml": (
                    "@startuml\n"
                    "' inwards: layers\n"
                    "[shop.infrastructure] as infrastructure\n"
                    "[shop.application] as application\n"
                    "[shop.domain] as domain\n"
                    "[shop.api] as api  # expect: INW017\n"
                    "api --> application\n"
                    "infrastructure --> application\n"
                    "application --> domain\n"
                    "@enduml\n"
                ),
            },
        ),
        Example(
            title="External systems and captions are not names to check",
            good=True,
            config=configured(LAYERS_CONFIG, "INW017"),
            files={
                **LAYER_CODE,
                "docs/architecture.md": mermaid_page(
                    "%% inwards: layers",
                    "flowchart LR",
                    '  customer(("Customer")):::external --> infrastructure',
                    '  infrastructure["shop.infrastructure"] --> application["Use cases"]',
                    '  application --> domain["shop.domain"]',
                    '  infrastructure --> postgres[("PostgreSQL")]',
                    "  class postgres external",
                ),
            },
        ),
    )
