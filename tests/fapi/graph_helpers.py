"""Running the graph rules (FAPI003, FAPI005, FAPI008) and the graph itself on files in
memory, for the unit tests of tests/fapi."""

from __future__ import annotations

import textwrap

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

RULES = load_rules(installed_families())
CONFIG = """\
[tool.inwards]
layers = [{{ name = "api", modules = ["shop"] }}]

[tool.inwards.rules]
extend-select = ["{code}"]
"""


def findings(code: str, files: dict[str, str], options: str = "", table: str = "") -> list[Finding]:
    """The findings of `code` on `files` (dedented), with `options` in its table."""
    text = CONFIG.format(code=code)
    if options:
        text += f"\n[tool.inwards.rules.{table}]\n{options}"
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    sources.setdefault("shop/__init__.py", "")
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == code]


def lines(found: list[Finding]) -> list[tuple[str, int]]:
    return sorted((f.file, f.span.line) for f in found)
