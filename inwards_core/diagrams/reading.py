"""One marked block read in its notation."""

from __future__ import annotations

from inwards_core.diagrams.blocks import Block
from inwards_core.diagrams.mermaid import parse_mermaid
from inwards_core.diagrams.model import Diagram
from inwards_core.diagrams.plantuml import parse_plantuml


def parse_diagram_block(block: Block, file: str) -> Diagram:
    """The diagram `block` (found in `file` by `find_blocks`) draws; never raises: what
    can't be read is a problem in the result."""
    if block.notation == "mermaid":
        return parse_mermaid(block.lines, block.first_line, block.kind, file)
    return parse_plantuml(block.lines, block.first_line, block.kind, file)
