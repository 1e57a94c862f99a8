"""Findings and configuration problems as LSP diagnostics (lsprotocol values).

Our spans are 1-based lines and columns counted in code points, the end column exclusive;
an LSP position is 0-based and counts columns in the encoding negotiated at `initialize`
(UTF-16 code units unless the client offers another), so each column is converted against
the text of its line (LSP 3.17, "Position" and "PositionEncodingKind").
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from lsprotocol import types

from inwards_core import ChainStep, ConfigProblem, Finding, Severity, Span
from inwards_core.reporting.docs_links import DOCS_URL_VARIABLE, DocsLinks, DocsUrlError, docs_base
from inwards_core.rules.selection import ActiveRule

SOURCE = "inwards"

_SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
}
# A suppression directive's codes, as inwards_core.extraction.suppression_comments reads
# them: hover finds the code under the cursor with it.
_DIRECTIVE_CODES = re.compile(r"#[ \t]*inwards:[ \t]*ignore\[([^\]]*)\]")
_CODE = re.compile(r"[A-Za-z]{2,6}[0-9]{3}")


def docs_links(environ: Mapping[str, str] = os.environ) -> tuple[DocsLinks, str]:
    """The links SARIF's helpUri uses, so an editor and a SARIF viewer open the same page,
    and a warning to log: an unusable INWARDS_DOCS_URL falls back to the default, as for
    SARIF, and says so as `inwards check` does."""
    try:
        return DocsLinks(docs_base(environ.get(DOCS_URL_VARIABLE, ""))), ""
    except DocsUrlError as error:
        return DocsLinks(), str(error)


def units(text: str, encoding: str) -> int:
    """How many columns `text` takes in the negotiated position encoding."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def code_points(text: str, column: int, encoding: str) -> int:
    """The code-point index in `text` of a client column (the inverse of `units`)."""
    counted = 0
    for index, char in enumerate(text):
        if counted >= column:
            return index
        counted += units(char, encoding)
    return len(text)


def position(lines: Sequence[str], line: int, column: int, encoding: str) -> types.Position:
    """The LSP position of our 1-based (line, column); past the text it is clamped."""
    row = min(max(line - 1, 0), max(len(lines) - 1, 0))
    text = lines[row] if lines else ""
    return types.Position(line=row, character=units(text[: max(column - 1, 0)], encoding))


def diagnostic(
    finding: Finding,
    lines: Sequence[str],
    encoding: str,
    rules: Mapping[str, ActiveRule],
    links: DocsLinks,
    related: Sequence[types.DiagnosticRelatedInformation] | None = None,
) -> types.Diagnostic:
    span = finding.span
    message = finding.message
    if finding.fix.summary:
        message = f"{message}\nFix: {finding.fix.summary}"
    active = rules.get(finding.code)
    href = links.rule_page(active.rule) if active is not None else None
    return types.Diagnostic(
        range=span_range(span, lines, encoding),
        severity=_SEVERITIES.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        message=message,
        data={
            "rule": finding.rule,
            "origin": finding.origin.value,
            "suppressible": finding.suppressible,
            "fixSteps": list(finding.fix.steps),
        },
        related_information=list(related) if related else None,
    )


def span_range(span: Span, lines: Sequence[str], encoding: str) -> types.Range:
    start = position(lines, span.line, span.column, encoding)
    end = position(lines, span.end_line, span.end_column, encoding)
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return types.Range(start=start, end=end)


def chain_step(
    step: ChainStep, uri: str, lines: Sequence[str], encoding: str
) -> types.DiagnosticRelatedInformation:
    """One import of a finding's chain, at the imported name in its file."""
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=uri, range=span_range(step.span, lines, encoding)),
        message=f"{step.importer} imports {step.imported}",
    )


def config_diagnostic(
    problem: ConfigProblem, lines: Sequence[str], encoding: str
) -> types.Diagnostic:
    """A configuration problem at its line (the whole line: TOML keys have no span here)."""
    line = problem.line or 1
    row = min(max(line - 1, 0), max(len(lines) - 1, 0))
    text = lines[row] if lines else ""
    start_column = (problem.column or 1) if problem.column else len(text) - len(text.lstrip()) + 1
    key = f" ({problem.key})" if problem.key else ""
    return types.Diagnostic(
        range=types.Range(
            start=position(lines, line, start_column, encoding),
            end=types.Position(line=row, character=units(text.rstrip(), encoding)),
        ),
        severity=types.DiagnosticSeverity.Error,
        code="config",
        source=SOURCE,
        message=f"{problem.message}{key}",
    )


def code_at(line_text: str, column: int) -> str | None:
    """The rule code under code-point `column` of a line, when it sits in a suppression
    directive's brackets."""
    for directive in _DIRECTIVE_CODES.finditer(line_text):
        offset = directive.start(1)
        for code in _CODE.finditer(directive.group(1)):
            if offset + code.start() <= column <= offset + code.end():
                return code.group(0).upper()
    return None


def suppression_edit(line_text: str, row: int, code: str, encoding: str) -> types.TextEdit:
    """The edit that suppresses `code` on a line: the code added to the directive already
    there, else a new directive at the end of the line with a reason to fill in."""
    existing = _DIRECTIVE_CODES.search(line_text)
    if existing is not None:
        at = existing.end(1)
        inserted = f", {code}" if existing.group(1).strip() else code
    else:
        at = len(line_text.rstrip())
        inserted = f'  # inwards: ignore[{code}] reason="{REASON_PLACEHOLDER}"'
    where = types.Position(line=row, character=units(line_text[:at], encoding))
    return types.TextEdit(range=types.Range(start=where, end=where), new_text=inserted)


def reason_range(edit: types.TextEdit, encoding: str) -> types.Range | None:
    """Where the reason to fill in of a `suppression_edit` lies once the edit is applied
    (None: the edit adds the code to a directive already there, with its own reason)."""
    quoted = f'reason="{REASON_PLACEHOLDER}"'
    at = edit.new_text.find(quoted)
    if at < 0:
        return None
    row = edit.range.start.line
    start = edit.range.start.character + units(edit.new_text[: at + len('reason="')], encoding)
    return types.Range(
        start=types.Position(line=row, character=start),
        end=types.Position(line=row, character=start + units(REASON_PLACEHOLDER, encoding)),
    )


REASON_PLACEHOLDER = "say why this import is allowed"
# The snippet's placeholder: selected when the edit is applied, so typing replaces it.
REASON_SNIPPET = "${1:why this import is allowed}"


def suppression_snippet(
    line_text: str, row: int, code: str, encoding: str
) -> types.SnippetTextEdit:
    """`suppression_edit` as a snippet: a new directive's reason is a placeholder the
    editor selects; the rest is literal (snippet syntax escaped)."""
    plain = suppression_edit(line_text, row, code, encoding)
    literal = _snippet_literal(plain.new_text)
    quoted_placeholder = _snippet_literal(f'"{REASON_PLACEHOLDER}"')
    if quoted_placeholder in literal:
        literal = literal.replace(quoted_placeholder, f'"{REASON_SNIPPET}"')
    return types.SnippetTextEdit(range=plain.range, snippet=types.StringValue(value=literal))


def _snippet_literal(text: str) -> str:
    """`text` as literal snippet text: `\\`, `$` and `}` escaped (LSP snippet syntax)."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def hover_text(active: ActiveRule, links: DocsLinks) -> str:
    definition = active.rule.definition
    page = links.rule_page(active.rule)
    parts = [
        f"**{definition.code}** `{definition.name}`: {definition.summary}",
        f"Severity {active.severity.value}, defined in the {definition.origin.root.value} root"
        + ("" if active.enabled else " (turned off in this project)")
        + ".",
    ]
    summary = definition.guidance.summary
    if summary:
        # The summary is a template each finding fills in; said so, as `inwards rule` does.
        filled = " (`{...}` are filled in from each finding)" if "{" in summary else ""
        parts.append(f"Fix{filled}: {summary}")
    if page:
        parts.append(f"[Rule page]({page})")
    return "\n\n".join(parts)


# INW003's first fix step names the import to replace and its replacement, when exactly one
# public module offers the name (inwards_core/families/inw/definitions/INW003.toml).
_REPLACE_STEP = re.compile(r"^Replace `([^`\n]+)` with `(from ([\w.]+) import (\w+))`\.$")
_SINGLE_FROM_IMPORT = re.compile(r"^from[ \t]+[\w.]+[ \t]+import[ \t]+(\w+)$")


def public_import_edit(
    steps: Sequence[str], line_text: str, row: int, encoding: str
) -> tuple[str, types.TextEdit] | None:
    """The replacement INW003's fix recipe names for the import on this line, as an edit,
    with its new statement; None when the recipe names no single module, or the statement
    imports more than the one name (replacing it would drop the others)."""
    if not steps:
        return None
    matched = _REPLACE_STEP.match(steps[0])
    if matched is None:
        return None
    statement, replacement, _, name = matched.groups()
    single = _SINGLE_FROM_IMPORT.match(statement)
    if single is None or single.group(1) != name or line_text.count(statement) != 1:
        return None
    start = line_text.index(statement)
    edit = types.TextEdit(
        range=types.Range(
            start=types.Position(line=row, character=units(line_text[:start], encoding)),
            end=types.Position(
                line=row, character=units(line_text[: start + len(statement)], encoding)
            ),
        ),
        new_text=replacement,
    )
    return replacement, edit
