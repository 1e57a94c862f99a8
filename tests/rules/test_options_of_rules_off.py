"""An options table for a rule that does not run: a located warning of that rule, never an
error, never a switch, and not hidden by a comment."""

from __future__ import annotations

from inwards_core import Severity, check_sources

SOURCES = {"shop/__init__.py": "", "shop/domain.py": "import requests\n"}
HEAD = """\
[tool.inwards]
layers = [{ name = "domain", modules = ["shop"] }]

[tool.inwards.rules]
"""
TABLE = """
[tool.inwards.rules.pure-domain]
modules = ["shop"]
"""


def test_a_table_for_an_ignored_rule_is_a_warning_at_the_table() -> None:
    report = check_sources(SOURCES, pyproject=HEAD + 'ignore = ["INW005"]\n' + TABLE)
    (finding,) = report.findings
    assert (finding.code, finding.severity, finding.file) == (
        "INW005",
        Severity.WARNING,
        "pyproject.toml",
    )
    assert finding.span.line == 7
    assert finding.message == (
        "[tool.inwards.rules.pure-domain] sets options for pure-domain (INW005), which is "
        "off, so they do nothing."
    )
    assert not finding.suppressible
    assert 'take "INW005" out of ignore' in finding.fix.steps[0]


def test_a_table_for_a_rule_left_out_of_select_says_to_select_it() -> None:
    report = check_sources(SOURCES, pyproject=HEAD + 'select = ["INW001"]\n' + TABLE)
    (finding,) = report.findings
    assert finding.code == "INW005"
    assert 'add "INW005" to select' in finding.fix.steps[0]


def test_a_table_for_a_running_rule_is_no_finding() -> None:
    report = check_sources(SOURCES, pyproject=HEAD + TABLE)
    assert [f for f in report.findings if f.file == "pyproject.toml"] == []


def test_an_empty_table_says_nothing() -> None:
    pyproject = HEAD + 'ignore = ["INW005"]\n[tool.inwards.rules.pure-domain]\n'
    assert check_sources(SOURCES, pyproject=pyproject).findings == ()
