"""`ImportFact.statement_line`: the line an import statement starts on when the imported
name stands on another one, as import-linter names an import (every reader agrees)."""

from __future__ import annotations

from inwards_core.model.facts_data import facts_from_data, facts_to_data
from tests.extraction.helpers import read_everywhere


def test_a_name_on_a_continuation_line_knows_where_its_statement_starts() -> None:
    facts = read_everywhere(
        "import os\n\nfrom a.b import (\n    one,\n    two as three,\n)\nfrom c import \\\n    d\n"
    )
    found = [(f.target, f.span.line, f.statement_line) for f in facts.imports]
    assert found == [
        ("os", 1, 0),
        ("a.b.one", 4, 3),
        ("a.b.two", 5, 3),
        ("c.d", 8, 7),
    ]


def test_a_name_on_the_statement_line_keeps_zero() -> None:
    facts = read_everywhere("from a import (b,\n    c)\nimport x, \\\n  y\n")
    found = [(f.target, f.span.line, f.statement_line) for f in facts.imports]
    assert found == [("a.b", 1, 0), ("a.c", 2, 1), ("x", 3, 0), ("y", 4, 3)]


def test_the_line_survives_the_cache_form() -> None:
    facts = read_everywhere("from a import (\n    b,\n)\n")
    assert facts_from_data(facts_to_data(facts)) == facts
    assert facts.imports[0].statement_line == 1
