"""Static imports read from CPython's syntax tree (the "ast" path), and the pieces the
skeleton shares with it: relative-import resolution, TYPE_CHECKING tests, and building
ImportFact values from `ast.Import` / `ast.ImportFrom` nodes wherever they were parsed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from typing import Protocol

import attrs

from inwards_core.extraction.text import (
    LineColumns,
    SourceLines,
    dotted_end,
    name_end,
    span_between,
    statement_text,
)
from inwards_core.model.facts import ImportFact, ImportStyle, with_statement_line

# `lazy import x` / `lazy from x import y` (PEP 810) at the start of a logical line.
_LAZY = re.compile(r"^([ \t\f]*)(lazy)([ \t\f]+)(?=(?:import|from)\b)", re.M)


@attrs.frozen
class ImportContext:
    type_checking: bool = False
    in_function: bool = False


MODULE_LEVEL = ImportContext()


class Locator(Protocol):
    """Turns a position CPython's parser reported (1-based line, UTF-8 byte column, in
    whatever text was parsed) into the file: (offset, 1-based line, 1-based column)."""

    def locate(self, line: int, byte_column: int) -> tuple[int, int, int]: ...


class WholeFileLocator:
    """Positions of a tree parsed from the whole file (or from the file with `lazy`
    keywords cut out: `shifts` maps such a line to (column of the cut, characters cut))."""

    def __init__(
        self,
        lines: SourceLines,
        parsed: SourceLines | None = None,
        shifts: Mapping[int, tuple[int, int]] | None = None,
    ) -> None:
        self._lines = lines
        self._parsed = parsed or lines
        self._shifts = shifts or {}
        self._line_cache: dict[int, LineColumns] = {}

    def locate(self, line: int, byte_column: int) -> tuple[int, int, int]:
        columns = self._line_cache.get(line)
        if columns is None:
            columns = LineColumns(self._parsed.line_text(line))
            self._line_cache[line] = columns
        column = columns.column(byte_column)
        shift = self._shifts.get(line)
        if shift is not None and column >= shift[0]:
            column += shift[1]
        return self._lines.offset(line, column), line, column + 1


@attrs.frozen
class LazyCut:
    """The text with each PEP 810 `lazy` keyword cut out, and how to map back."""

    text: str
    shifts: dict[int, tuple[int, int]]  # line -> (column of the cut, characters cut)
    starts: dict[int, int]  # offset of `import`/`from` in the file -> offset of `lazy`


def package_of(module: str, is_package: bool) -> str:
    """The package a relative import in `module` starts from ("" for a top-level module)."""
    if is_package:
        return module
    return module.rpartition(".")[0]


def resolve_relative(module: str, is_package: bool, level: int, name: str | None) -> str | None:
    """The absolute module of `from <level dots><name> import ...`; None above the top."""
    if level == 0:
        return name
    package = package_of(module, is_package)
    parts = package.split(".") if package else []
    keep = len(parts) - (level - 1)
    if keep <= 0:
        return None
    base = ".".join(parts[:keep])
    return f"{base}.{name}" if name else base


def is_type_checking_test(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `<name>.TYPE_CHECKING`, nothing else (`not`, `and` don't count)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return (
        isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
        and isinstance(test.value, ast.Name)
    )


def cut_lazy_keywords(text: str) -> LazyCut:
    """Cut each `lazy` soft keyword (and the blanks after it) out of its line, so that
    CPython 3.11 reads the statement; positions map back through `LazyCut`."""
    shifts: dict[int, tuple[int, int]] = {}
    starts: dict[int, int] = {}
    line = 1
    counted = 0
    pieces: list[str] = []
    kept = 0
    for match in _LAZY.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        cut_from, cut_to = match.start(2), match.end(3)
        shifts[line] = (cut_from - match.start(), cut_to - cut_from)
        starts[cut_to] = cut_from
        pieces.append(text[kept:cut_from])
        kept = cut_to
    pieces.append(text[kept:])
    return LazyCut("".join(pieces), shifts, starts)


def facts_of_statement(
    node: ast.Import | ast.ImportFrom,
    *,
    text: str,
    locator: Locator,
    module: str,
    is_package: bool,
    context: ImportContext,
    lazy_starts: Mapping[int, int],
) -> list[ImportFact]:
    """The facts of one parsed import statement; `text` is the original file text."""
    start, first_line, _ = locator.locate(node.lineno, node.col_offset)
    end_line = node.end_lineno if node.end_lineno is not None else node.lineno
    end_column = node.end_col_offset if node.end_col_offset is not None else node.col_offset
    end, _, _ = locator.locate(end_line, end_column)
    lazy_start = lazy_starts.get(start)
    lazy = lazy_start is not None
    if lazy_start is not None:
        start = lazy_start
    statement = statement_text(text, start, end)
    if isinstance(node, ast.Import):
        facts = _facts_of_import(node, text, locator, statement, context, lazy)
    else:
        facts = _facts_of_from(node, text, locator, statement, context, lazy, module, is_package)
    return [with_statement_line(fact, first_line) for fact in facts]


def _facts_of_import(
    node: ast.Import,
    text: str,
    locator: Locator,
    statement: str,
    context: ImportContext,
    lazy: bool,
) -> list[ImportFact]:
    facts: list[ImportFact] = []
    for alias in node.names:
        offset, line, column = locator.locate(alias.lineno, alias.col_offset)
        span = span_between(text, offset, dotted_end(text, offset), line, column)
        facts.append(
            ImportFact(
                style=ImportStyle.IMPORT,
                module=alias.name,
                name=None,
                target=alias.name,
                level=0,
                span=span,
                statement=statement,
                type_checking=context.type_checking,
                in_function=context.in_function,
                lazy=lazy,
                raw_module=alias.name,
            )
        )
    return facts


def _facts_of_from(
    node: ast.ImportFrom,
    text: str,
    locator: Locator,
    statement: str,
    context: ImportContext,
    lazy: bool,
    module: str,
    is_package: bool,
) -> list[ImportFact]:
    level = node.level or 0
    resolved = resolve_relative(module, is_package, level, node.module)
    raw_module = "." * level + (node.module or "")
    facts: list[ImportFact] = []
    for alias in node.names:
        offset, line, column = locator.locate(alias.lineno, alias.col_offset)
        if alias.name == "*":
            span = span_between(text, offset, offset + 1, line, column)
            style, name, target = ImportStyle.STAR, None, resolved
        else:
            span = span_between(text, offset, name_end(text, offset), line, column)
            style, name = ImportStyle.FROM, alias.name
            target = f"{resolved}.{alias.name}" if resolved is not None else None
        facts.append(
            ImportFact(
                style=style,
                module=resolved,
                name=name,
                target=target,
                level=level,
                span=span,
                statement=statement,
                type_checking=context.type_checking,
                in_function=context.in_function,
                lazy=lazy,
                raw_module=raw_module,
            )
        )
    return facts


def import_statements(
    body: Iterable[ast.stmt], context: ImportContext = MODULE_LEVEL
) -> Iterable[tuple[ast.Import | ast.ImportFrom, ImportContext]]:
    """Every import statement under `body`, in source order, with where it stands.

    Import statements can only be statements, so following statement bodies is complete.
    """
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, context
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from import_statements(node.body, attrs.evolve(context, in_function=True))
        elif isinstance(node, ast.ClassDef):
            yield from import_statements(node.body, context)
        elif isinstance(node, ast.If):
            inner = context
            if is_type_checking_test(node.test) and not context.type_checking:
                inner = attrs.evolve(context, type_checking=True)
            yield from import_statements(node.body, inner)
            yield from import_statements(node.orelse, context)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.While):
            yield from import_statements(node.body, context)
            yield from import_statements(node.orelse, context)
        elif isinstance(node, ast.With | ast.AsyncWith):
            yield from import_statements(node.body, context)
        elif isinstance(node, ast.Try | ast.TryStar):
            yield from import_statements(node.body, context)
            for handler in node.handlers:
                yield from import_statements(handler.body, context)
            yield from import_statements(node.orelse, context)
            yield from import_statements(node.finalbody, context)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                yield from import_statements(case.body, context)


def imports_from_tree(
    tree: ast.Module,
    *,
    text: str,
    lines: SourceLines,
    module: str,
    is_package: bool,
    lazy: LazyCut | None = None,
) -> tuple[ImportFact, ...]:
    """All static imports of a file parsed whole by CPython's parser (from `lazy.text`
    when the `lazy` keywords had to be cut out)."""
    if lazy is None:
        locator = WholeFileLocator(lines)
        lazy_starts: Mapping[int, int] = {}
    else:
        locator = WholeFileLocator(lines, SourceLines(lazy.text), lazy.shifts)
        lazy_starts = lazy.starts
    facts: list[ImportFact] = []
    for node, context in import_statements(tree.body):
        facts.extend(
            facts_of_statement(
                node,
                text=text,
                locator=locator,
                module=module,
                is_package=is_package,
                context=context,
                lazy_starts=lazy_starts,
            )
        )
    return tuple(facts)
