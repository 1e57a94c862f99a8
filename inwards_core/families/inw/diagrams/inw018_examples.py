"""The examples of inw.diagram-forbidden-edge (INW018): small projects with a
marked diagram in `docs/` that its page shows with their real output and the tests run."""

from __future__ import annotations

from inwards_core import Example
from inwards_core.families.inw.diagrams.example_projects import (
    CONTEXT_CODE,
    CONTEXTS_CONFIG,
    LAYER_CODE,
    LAYERS_CONFIG,
    configured,
    mermaid_page,
)


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="An arrow from the domain out to the infrastructure",
            good=False,
            config=configured(LAYERS_CONFIG, "INW018"),
            files={
                **LAYER_CODE,
                "docs/architecture.md": mermaid_page(
                    "%% inwards: layers",
                    "flowchart TB",
                    '  infrastructure["shop.infrastructure"] --> application["shop.application"]'
                    ' & domain["shop.domain"]',
                    "  application --> domain",
                    "  domain --> infrastructure  # expect: INW018",
                ),
            },
        ),
        Example(
            title="Contexts: an arrow depends-on does not allow, and one to a private module",
            good=False,
            config=configured(CONTEXTS_CONFIG, "INW018", "docs/contexts.mmd"),
            files={
                **CONTEXT_CODE,
                "docs/contexts.mmd": (
                    "%% inwards: contexts\n"
                    "flowchart LR\n"
                    '  orders --> billing["shop.billing.ledger"]  # expect: INW018\n'
                    "  billing --> orders  # expect: INW018\n"
                ),
            },
        ),
        Example(
            title="Dotted links are not imports",
            good=True,
            config=configured(LAYERS_CONFIG, "INW018"),
            files={
                **LAYER_CODE,
                "docs/architecture.md": mermaid_page(
                    "%% inwards: layers",
                    "flowchart TB",
                    "  infrastructure --> application --> domain",
                    "  domain -. calls through a port .-> infrastructure",
                ),
            },
        ),
    )
