"""Project text in the text, concise and github formats: control characters, line and
paragraph separators and bidi controls are shown as escapes; our own colours and line
breaks are not touched."""

from __future__ import annotations

import re

import attrs
import pytest

from inwards_core.model.findings import (
    BaselineEntry,
    Finding,
    Fix,
    NotChecked,
    Report,
    RootKind,
    Severity,
    Span,
    UserDefinitionInEffect,
)
from inwards_core.reporting.escaping import printable, safe_line
from inwards_core.reporting.github import render_github
from inwards_core.reporting.text import render_concise, render_statistics, render_text

# Every character `printable` must escape, and what a reader sees instead.
ESCAPED = {
    "\x1b": "\\x1b",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\x07": "\\x07",
    "\x00": "\\x00",
    "\x7f": "\\x7f",
    "\x85": "\\x85",  # NEL, a C1 line break
    "\x9b": "\\x9b",  # CSI, the one-byte ESC [
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
    "\u202a": "\\u202a",
    "\u202e": "\\u202e",
    "\u2066": "\\u2066",
    "\u2069": "\\u2069",
    "\u200e": "\\u200e",
    "\u200f": "\\u200f",
    "\u061c": "\\u061c",
    "\udcff": "\\xff",  # a byte that is not UTF-8, as os.fsdecode keeps it
}
# What no line of our output may hold (our own colour codes aside).
UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff]"
)
HOSTILE = "a\x1b[2Jb\nc\rd\te\x07f\u202eg\u2066h\u2028i\x9bj"


@pytest.mark.parametrize(("char", "shown"), ESCAPED.items(), ids=[hex(ord(c)) for c in ESCAPED])
def test_each_unsafe_character_is_shown_as_an_escape(char: str, shown: str) -> None:
    assert printable(f"x{char}y") == f"x{shown}y"


def test_ordinary_text_is_left_alone_and_escaping_is_idempotent() -> None:
    for text in ("shop.domain", "café 中文 🙂", "a\u00a0b", "back\\slash", "% and ::error::"):
        assert printable(text) == text
    once = printable(HOSTILE)
    assert printable(once) == once
    assert once == "a\\x1b[2Jb\\nc\\rd\\te\\x07f\\u202eg\\u2066h\\u2028i\\x9bj"


def hostile_report() -> Report:
    finding = Finding(
        code="INW001",
        rule="layer-dependency",
        severity=Severity.ERROR,
        file=f"src/{HOSTILE}.py",
        module="shop.domain",
        span=Span(1, 1, 1, 5),
        message=f'Layer "{HOSTILE}" imports "shop.adapters".',
        fix=Fix(f"Fix {HOSTILE}.", (f"Step {HOSTILE}.", "Plain step.")),
        docs=f"https://example.com/{HOSTILE}",
        origin=RootKind.PROJECT,
    )
    warning = Finding(
        code="INW006",
        rule="unassigned-module",
        severity=Severity.WARNING,
        file="pyproject.toml",
        module=None,
        span=Span(3, 1, 3, 2),
        message=f"Layer {HOSTILE} owns no module.",
        fix=Fix("", ()),
        docs="",
    )
    return Report(
        findings=(finding, warning),
        files_checked=3,
        not_checked=(NotChecked(f"{HOSTILE}.py", f"{HOSTILE}.py holds no Python module."),),
        notes=(f"note {HOSTILE}",),
        user_definitions=(UserDefinitionInEffect("ACME001", f"/home/{HOSTILE}.toml", "new"),),
        baseline_file=f"{HOSTILE}.json",
        baseline_resolved=(BaselineEntry("INW001", f"shop.{HOSTILE}", f"gone {HOSTILE}", 2),),
    )


RENDERERS = {
    "text": lambda report: render_text(report),
    "text in colour": lambda report: render_text(report, colour=True),
    "concise": lambda report: render_concise(report),
    "concise in colour": lambda report: render_concise(report, colour=True),
    "github": lambda report: render_github(report),
}


@pytest.mark.parametrize("name", RENDERERS)
def test_no_project_text_reaches_the_output_raw(name: str) -> None:
    output = RENDERERS[name](hostile_report())
    own_colours = re.sub(r"\x1b\[[0-9;]*m", "", output)  # ours: SGR codes only
    assert not UNSAFE.search(own_colours), output
    assert "\\x1b[2J" in output and "\\u202e" in output
    if "colour" in name:
        assert "\x1b[1m" in output and "\x1b[0m" in output  # our colours survive
    # Every escaped piece stayed on its line: the line count is what the same report with
    # harmless text gives.
    tame = RENDERERS[name](_tamed(hostile_report()))
    assert output.count("\n") == tame.count("\n")


def _tamed(report: Report) -> Report:
    """The same report with the hostile text replaced by a plain word."""

    def tame(value: str) -> str:
        return value.replace(HOSTILE, "plain")

    findings = tuple(
        attrs.evolve(
            f,
            file=tame(f.file),
            message=tame(f.message),
            fix=Fix(tame(f.fix.summary), tuple(tame(s) for s in f.fix.steps)),
            docs=tame(f.docs),
        )
        for f in report.findings
    )
    return attrs.evolve(
        report,
        findings=findings,
        not_checked=tuple(NotChecked(tame(n.path), tame(n.message)) for n in report.not_checked),
        notes=tuple(tame(n) for n in report.notes),
        user_definitions=tuple(attrs.evolve(u, path=tame(u.path)) for u in report.user_definitions),
        baseline_file=tame(report.baseline_file or ""),
        baseline_resolved=tuple(
            attrs.evolve(e, module=tame(e.module), message=tame(e.message))
            for e in report.baseline_resolved
        ),
    )


def test_github_commands_can_be_neither_ended_nor_injected() -> None:
    sneaky = "x\n::error::injected%0A\r::warning file=a::b"
    finding = Finding(
        code="INW001",
        rule="layer-dependency",
        severity=Severity.ERROR,
        file=f"src/{sneaky}.py",
        module="shop.domain",
        span=Span(1, 1, 1, 5),
        message=f'Layer "{sneaky}" imports "shop.adapters".',
        fix=Fix(f"Let {sneaky} own a port.", (f"Delete {sneaky}.",)),
        docs="",
    )
    report = Report(
        findings=(finding,),
        files_checked=1,
        not_checked=(NotChecked(sneaky, f"{sneaky} was not checked."),),
        notes=(sneaky,),
    )
    lines = render_github(report).splitlines()
    commands = [line for line in lines if line.startswith("::")]
    # One annotation and one warning for the path not checked; nothing else is a command.
    assert [line.split(" ", 1)[0] for line in commands] == ["::error", "::warning"]
    # Every line starts with our own words: the runner reads commands only at a line's start.
    assert all(line.startswith(("::error ", "::warning ", "Found ", "note: ")) for line in lines)
    annotation = commands[0]
    assert "file=src/x\\n%3A%3Aerror%3A%3Ainjected%250A\\r%3A%3Awarning file=a%3A%3Ab.py," in (
        annotation
    )
    assert "%0A" in annotation  # the message's own line breaks, as the toolkit writes them
    assert 'Layer "x\\n::error::injected%250A\\r::warning file=a::b"' in annotation


def test_statistics_escape_rule_names() -> None:
    finding = hostile_report().findings[0]
    odd = attrs.evolve(finding, rule="odd\x1b[2Jname")
    text = render_statistics(Report(findings=(odd,), files_checked=1))
    assert "\x1b" not in text and "odd\\x1b[2Jname" in text


def test_a_line_that_would_read_as_a_runner_command_is_defused() -> None:
    assert safe_line("::error::x") == "\\x3a:error::x"
    assert safe_line("  ::warning file=a::b") == "  \\x3a:warning file=a::b"
    assert safe_line("##vso[task.setvariable]x") == "\\x23#vso[task.setvariable]x"
    assert safe_line("src/a.py: fine :: here") == "src/a.py: fine :: here"
    # A finding's path starts its line in text output.
    report = Report(
        findings=(attrs.evolve(hostile_report().findings[1], file="::stop-commands::t/x.toml"),),
        files_checked=1,
    )
    for render in (render_text, render_concise):
        first = render(report).splitlines()[0]
        assert first.startswith("\\x3a:stop-commands::t/x.toml:3:1: INW006"), first
