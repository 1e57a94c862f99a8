"""docs/rules/<CODE>.md are rendered from the rules; a stale page fails here.

`INWARDS_REGENERATE=1 pytest tests/rules/test_docs.py` rewrites them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inwards_core.api import installed_families, load_rules
from inwards_core.authoring.docgen import render_rule_page
from inwards_core.version import DISTRIBUTION

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
RULE_SET = load_rules(installed_families())
CORE = [r for r in RULE_SET.rules if r.definition.family == DISTRIBUTION]


@pytest.mark.parametrize("rule", CORE, ids=[r.code for r in CORE])
def test_rule_page_is_fresh(rule) -> None:  # type: ignore[no-untyped-def]
    page = DOCS / f"{rule.code}.md"
    text = render_rule_page(rule, RULE_SET)
    if os.environ.get("INWARDS_REGENERATE"):
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
    assert page.exists(), f"{page} is missing: run INWARDS_REGENERATE=1 pytest {__file__}"
    assert page.read_text(encoding="utf-8") == text, (
        f"{page} is stale: run INWARDS_REGENERATE=1 pytest tests/rules/test_docs.py"
    )


def test_rule_index_lists_every_core_rule() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for rule in CORE:
        assert f"[{rule.code}]({rule.code}.md)" in index, rule.code
