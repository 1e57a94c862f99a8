"""Import statements in their plain spellings (ASCII, no comment, no backslash), read
with regular expressions: most statements of most files, and no parser needed. Anything
else goes to CPython's parser in the skeleton's batch.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable

from inwards_core.extraction.skeleton_scan import ONE_LINE_IMPORT, Statement, context_of
from inwards_core.extraction.static import resolve_relative
from inwards_core.extraction.text import ForwardPositions, statement_text
from inwards_core.model.facts import ImportFact, ImportStyle
from inwards_core.model.findings import Span

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = _NAME + r"(?:[ \t]*\.[ \t]*" + _NAME + r")*"
_PLAIN_IMPORT = re.compile(
    r"import[ \t]+("
    + _DOTTED
    + r"(?:[ \t]+as[ \t]+"
    + _NAME
    + r")?(?:[ \t]*,[ \t]*"
    + _DOTTED
    + r"(?:[ \t]+as[ \t]+"
    + _NAME
    + r")?)*)"
)
_IMPORT_ITEM = re.compile(r"(" + _DOTTED + r")(?:[ \t]+as[ \t]+(" + _NAME + r"))?")
_FROM_ITEMS = r"{n}(?:{w}+as{w}+{n})?(?:{w}*,{w}*{n}(?:{w}+as{w}+{n})?)*"
_PLAIN_FROM = re.compile(
    r"from[ \t]*(?P<dots>(?:\.[ \t]*)*)(?P<module>"
    + _DOTTED
    + r")?[ \t]+import(?:[ \t]*(?P<star>\*)|[ \t]+(?P<names>"
    + _FROM_ITEMS.format(n=_NAME, w=r"[ \t]")
    + r")|[ \t]*\([ \t\n]*(?P<parenthesized>"
    + _FROM_ITEMS.format(n=_NAME, w=r"[ \t\n]")
    + r")[ \t\n]*,?[ \t\n]*\))"
)
_FROM_ITEM = re.compile(r"(" + _NAME + r")(?:[ \t\n]+as[ \t\n]+(" + _NAME + r"))?")
_BLANKS = re.compile(r"[ \t\n]+")

# Per name: (style, module, name, target, level, span, raw module, the name it binds).
Plain = tuple[ImportStyle, str | None, str | None, str | None, int, Span, str, str | None]
_SpanOf = Callable[[int, int], Span]


_KEYWORDS = frozenset(keyword.kwlist)  # what `keyword.iskeyword` asks


def _without_blanks(dotted: str) -> str:
    """A dotted name as written (`a . b`) without its blanks (`a.b`)."""
    return _BLANKS.sub("", dotted) if " " in dotted or "\t" in dotted else dotted


def _span_reader(snippet: str, statement: Statement) -> _SpanOf:
    """The span in the file of the snippet's characters `start` to `end` (one name)."""
    line, first_column = statement.line, statement.column + 1
    if "\n" in snippet:
        # Names come in order: each is placed from the previous one on, never from the
        # start of the statement again (that was quadratic in the number of names).
        positions = ForwardPositions(snippet, line, first_column)

        def span_of(start: int, end: int) -> Span:
            at, column = positions.position(start)
            return Span(at, column, at, column + end - start)

    else:

        def span_of(start: int, end: int) -> Span:
            column = first_column + start
            return Span(line, column, line, column + end - start)

    return span_of


def read_plain(
    text: str, statement: Statement, module: str, is_package: bool
) -> list[Plain] | None:
    """The names of an import statement in a plain spelling; None for anything else
    (CPython's parser reads those)."""
    quick = statement.quick
    if quick is not None:
        if quick.re is ONE_LINE_IMPORT:
            return _read_quick_import(quick, statement)
        return _read_quick(quick, statement, module, is_package)
    snippet = text[statement.keyword : statement.end]
    if not snippet.isascii() or "#" in snippet or "\\" in snippet:
        return None
    span_of = _span_reader(snippet, statement)
    if snippet.startswith("import"):
        return _read_import(snippet, span_of)
    return _read_from(snippet, span_of, module, is_package)


def _read_quick(
    quick: re.Match[str], statement: Statement, module: str, is_package: bool
) -> list[Plain] | None:
    """What `_read_from` reads from a statement the scan matched as `from [.]a.b import c
    [as d], ...` on one line (no blanks in the module), from the match's groups."""
    dots, written, _, _, first, alias = quick.groups()
    level = len(dots)
    if written is None:
        if not level:
            return None
    elif not _KEYWORDS.isdisjoint(written.split(".")):
        return None
    resolved = resolve_relative(module, is_package, level, written) if level else written
    raw_module = "." * level + (written or "")
    line = statement.line
    base = 1 - statement.start  # the statement starts its line: columns count from there
    if quick.end(6 if alias else 5) == quick.end(4):  # one name: read from the groups
        if first in _KEYWORDS or alias in _KEYWORDS:
            return None
        start, end = quick.span(5)
        target = f"{resolved}.{first}" if resolved is not None else None
        span = Span(line, base + start, line, base + end)
        return [
            (ImportStyle.FROM, resolved, first, target, level, span, raw_module, alias or first)
        ]
    read: list[Plain] = []
    for item in _FROM_ITEM.finditer(quick.string, quick.start(4), quick.end(4)):
        imported, alias = item.groups()
        if imported in _KEYWORDS or alias in _KEYWORDS:
            return None
        start, end = item.span(1)
        target = f"{resolved}.{imported}" if resolved is not None else None
        span = Span(line, base + start, line, base + end)
        read.append(
            (
                ImportStyle.FROM,
                resolved,
                imported,
                target,
                level,
                span,
                raw_module,
                alias or imported,
            )
        )
    return read


def _read_quick_import(quick: re.Match[str], statement: Statement) -> list[Plain] | None:
    """What `_read_import` reads from a statement the scan matched as `import a.b [as c],
    ...` on one line at column 0 (no blanks in the names), from the match's groups."""
    _, first, alias = quick.groups()
    line = statement.line
    base = 1 - statement.start  # the statement starts its line: columns count from there
    if quick.end(3 if alias else 2) == quick.end(1):  # one name: read from the groups
        items = [(first, alias, quick.start(2), quick.end(2))]
    else:
        items = [
            (item.group(1), item.group(2), item.start(1), item.end(1))
            for item in _IMPORT_ITEM.finditer(quick.string, quick.start(1), quick.end(1))
        ]
    read: list[Plain] = []
    for dotted, bound_as, start, end in items:
        if not _KEYWORDS.isdisjoint(dotted.split(".")) or bound_as in _KEYWORDS:
            return None
        span = Span(line, base + start, line, base + end)
        bound = bound_as or dotted.split(".", 1)[0]
        read.append((ImportStyle.IMPORT, dotted, None, dotted, 0, span, dotted, bound))
    return read


def _read_import(snippet: str, span_of: _SpanOf) -> list[Plain] | None:
    plain = _PLAIN_IMPORT.fullmatch(snippet)
    if plain is None:
        return None
    read: list[Plain] = []
    for item in _IMPORT_ITEM.finditer(snippet, plain.start(1)):
        written, alias = item.groups()
        dotted = _without_blanks(written)
        if not _KEYWORDS.isdisjoint(dotted.split(".")) or alias in _KEYWORDS:
            return None
        start, end = item.span(1)
        bound = alias or dotted.split(".", 1)[0]
        read.append(
            (ImportStyle.IMPORT, dotted, None, dotted, 0, span_of(start, end), dotted, bound)
        )
    return read


def _read_from(snippet: str, span_of: _SpanOf, module: str, is_package: bool) -> list[Plain] | None:
    plain = _PLAIN_FROM.fullmatch(snippet)
    if plain is None:
        return None
    dots, written, star, names = plain.group("dots", "module", "star", "names")
    level = dots.count(".") if dots else 0
    name = _without_blanks(written) if written else None
    if name is None:
        if not level:
            return None
    elif not _KEYWORDS.isdisjoint(name.split(".")):
        return None
    resolved = resolve_relative(module, is_package, level, name)
    raw_module = "." * level + (name or "") if level else name or ""
    if star:
        start = plain.start("star")
        star_span = span_of(start, start + 1)
        return [(ImportStyle.STAR, resolved, None, resolved, level, star_span, raw_module, None)]
    read: list[Plain] = []
    group = "names" if names is not None else "parenthesized"
    for item in _FROM_ITEM.finditer(snippet, plain.start(group), plain.end(group)):
        imported, alias = item.groups()
        if imported in _KEYWORDS or alias in _KEYWORDS:
            return None
        start, end = item.span(1)
        target = f"{resolved}.{imported}" if resolved is not None else None
        span = span_of(start, end)
        bound = alias or imported
        read.append((ImportStyle.FROM, resolved, imported, target, level, span, raw_module, bound))
    return read


def plain_facts(text: str, statement: Statement, read: list[Plain]) -> list[ImportFact]:
    context = context_of(statement)
    shown = statement_text(text, statement.start, statement.end)
    type_checking = context.type_checking
    in_function = context.in_function
    lazy = statement.lazy
    # Positional: the fields in ImportFact's order (a few percent of a cold run's reading).
    first_line = statement.line
    return [
        ImportFact(
            style,
            module,
            name,
            target,
            level,
            span,
            shown,
            type_checking,
            in_function,
            lazy,
            raw_module,
            0 if span.line == first_line else first_line,
        )
        for style, module, name, target, level, span, raw_module, _bound in read
    ]
