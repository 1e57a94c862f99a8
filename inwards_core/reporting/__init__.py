"""Reporters: a Report in, text out. Pure functions; the CLI writes what they return.

Every format is a `Reporter`: a function of a `ReportInput`. `formats.py` lists them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from inwards_core.model.findings import Finding, Report, Severity
from inwards_core.model.value_repr import value_repr

if TYPE_CHECKING:
    from inwards_core.reporting.merge import MergedReport
    from inwards_core.rules.selection import ActiveRule

DisplayPath = Callable[[str], str]


def same_path(path: str) -> str:
    return path


@attrs.frozen
class Shown:
    """The findings a reporter prints after `--max-diagnostics`, and what it left out."""

    __repr__ = value_repr

    findings: tuple[Finding, ...]
    omitted_errors: int = 0
    omitted_warnings: int = 0

    @property
    def omitted(self) -> int:
        return self.omitted_errors + self.omitted_warnings


def limit(report: Report, max_diagnostics: int | None) -> Shown:
    """Errors before warnings when cutting; the kept ones stay in report order."""
    if max_diagnostics is None or max_diagnostics >= len(report.findings):
        return Shown(report.findings)
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    warnings = [f for f in report.findings if f.severity is Severity.WARNING]
    keep = set((errors + warnings)[:max_diagnostics])
    shown = tuple(f for f in report.findings if f in keep)
    kept_errors = sum(1 for f in shown if f.severity is Severity.ERROR)
    return Shown(shown, len(errors) - kept_errors, len(warnings) - (len(shown) - kept_errors))


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class FixDisplay(enum.Enum):
    """How much of each fix the text format shows: the summary under every finding and
    the steps under the first finding of each rule (the default: the steps of one rule read
    alike), the steps under every finding, or no fix at all. `concise` shows its one step
    unless NONE."""

    ONCE_PER_RULE = "once-per-rule"
    EVERY_FINDING = "every-finding"
    NONE = "none"


@attrs.frozen
class ReportInput:
    """A finished report and everything the caller decided about showing it; each format
    reads the fields it needs."""

    __repr__ = value_repr

    report: Report
    rules: tuple[ActiveRule, ...] = ()
    display: DisplayPath = same_path  # a project-relative path as the user sees it
    max_diagnostics: int | None = None
    pretty: bool = False  # machine formats: indented, for a person at a terminal
    colour: bool = False  # text formats: ANSI colour
    fixes: FixDisplay = FixDisplay.ONCE_PER_RULE
    quiet: bool = False  # the findings only
    statistics: bool = False  # the findings per rule after the report
    # The warnings about rule roots and definitions printed on stderr (SARIF records them).
    rule_warnings: tuple[str, ...] = ()
    annotation_paths: DisplayPath = same_path  # github: paths as GitHub reads them
    source_root_uri: str = ""  # SARIF: the `file:` URI of %SRCROOT%, ending in "/"
    path_prefix: str = ""  # SARIF: the project directory below %SRCROOT% ("" or "backend/")
    docs_url: str = ""  # SARIF: the base URL of inwards' docs (INWARDS_DOCS_URL), "" default
    merged: MergedReport | None = None  # a uv workspace's parts, `report` their merge
    # Why a rule reported what it did (`--explain`), as text and as `inwards/why@1`.
    explanation_text: str = ""
    explanation_document: Mapping[str, Any] | None = None


class Reporter(Protocol):
    def __call__(self, subject: ReportInput) -> str:
        """The report in this format."""
        ...
