"""Reporters: a Report in, text out. Pure functions; the CLI writes what they return."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from inwards_core.model.findings import Finding, Report, Severity
from inwards_core.model.value_repr import value_repr

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
