"""The examples of inw.diagram-missing-dependency (INW019): small projects with a
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
            title="The code imports the domain from the application; no arrow says so",
            good=False,
            config=configured(LAYERS_CONFIG, "INW019"),
            files={
                **LAYER_CODE,
                "docs/architecture.md": mermaid_page(
                    "%% inwards: layers",
                    "flowchart TB",
                    '  infrastructure["shop.infrastructure"] --> application["shop.application"]'
                    ' & domain["shop.domain"]  # expect: INW019',
                ),
            },
        ),
        Example(
            title="A path of arrows covers an import that skips a layer",
            good=True,
            config=configured(LAYERS_CONFIG, "INW019"),
            files={
                **LAYER_CODE,
                "docs/architecture.md": mermaid_page(
                    "%% inwards: layers",
                    "flowchart TB",
                    "  infrastructure --> application --> domain",
                ),
            },
        ),
        Example(
            title="PlantUML: a dotted arrow does not stand for an import",
            good=False,
            config=configured(LAYERS_CONFIG, "INW019", "docs/layers.puml"),
            files={
                **LAYER_CODE,
                "docs/layers.puml": (
                    "@startuml\n"
                    "' inwards: layers\n"
                    "[shop.infrastructure] as infrastructure  # expect: INW019\n"
                    "[shop.application] as application\n"
                    "[shop.domain] as domain\n"
                    "infrastructure ..> application\n"
                    "infrastructure --> domain\n"
                    "application --> domain\n"
                    "@enduml\n"
                ),
            },
        ),
    )
