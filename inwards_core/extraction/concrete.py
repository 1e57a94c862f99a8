"""The reference extractor: static imports read from libcst's concrete tree.

It is slow and plain on purpose. The differential test holds the fast paths to it, and
`extract` falls back to it for files CPython 3.11's parser can't read (PEP 695, PEP 701
f-strings, t-strings, PEP 758 `except A, B:`, PEP 810 `lazy` imports).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from inwards_core.extraction.static import resolve_relative
from inwards_core.extraction.text import (
    SourceLines,
    by_position,
    normalise_newlines,
    statement_text,
)
from inwards_core.model.facts import ImportFact, ImportStyle, with_statement_line
from inwards_core.model.findings import Span
from inwards_core.ports import GrammarBinaries

_AnyImport = cst.Import | cst.ImportFrom | cst.LazyImport | cst.LazyImportFrom


def _identifier(text: str) -> str:
    """Python reads identifiers in NFKC form; libcst keeps them as written."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def _dotted(node: cst.CSTNode) -> str:
    name = get_full_name_for_node(node) or ""
    return ".".join(_identifier(part.strip()) for part in name.split("."))


def _is_type_checking_test(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.Name):
        return test.value == "TYPE_CHECKING"
    return (
        isinstance(test, cst.Attribute)
        and test.attr.value == "TYPE_CHECKING"
        and isinstance(test.value, cst.Name)
    )


class ColumnMap:
    """libcst drops some whitespace it can't place (a form feed opening a top-level line);
    map its columns back onto the original lines."""

    def __init__(self, original: str, generated: str) -> None:
        self._maps: dict[int, list[int]] = {}
        if original == generated:
            return
        original_lines = original.split("\n")
        generated_lines = generated.split("\n")
        for index, (before, after) in enumerate(
            zip(original_lines, generated_lines, strict=False), start=1
        ):
            if before == after:
                continue
            mapping: list[int] = []
            position = 0
            for char in after:
                while position < len(before) and before[position] != char:
                    position += 1
                mapping.append(position)
                position += 1
            mapping.append(len(before) if not after else min(position, len(before)))
            self._maps[index] = mapping

    def column(self, line: int, column: int) -> int:
        mapping = self._maps.get(line)
        if mapping is None:
            return column
        return mapping[min(column, len(mapping) - 1)]


class _ImportCollector(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, text: str, module: str, is_package: bool, columns: ColumnMap) -> None:
        super().__init__()
        self._text = text
        self._lines = SourceLines(text)
        self._module = module
        self._is_package = is_package
        self._columns = columns
        self._functions = 0
        self._type_checking_blocks: set[int] = set()
        self._type_checking = 0
        self._first_line = 0  # the line of the import statement being read
        self.facts: list[ImportFact] = []

    # -- where we are ------------------------------------------------------------------

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._functions -= 1

    def visit_If(self, node: cst.If) -> None:
        if _is_type_checking_test(node.test):
            self._type_checking_blocks.add(id(node.body))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if id(node) in self._type_checking_blocks:
            self._type_checking += 1

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        if id(original_node) in self._type_checking_blocks:
            self._type_checking -= 1

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        if id(node) in self._type_checking_blocks:
            self._type_checking += 1

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite) -> None:
        if id(original_node) in self._type_checking_blocks:
            self._type_checking -= 1

    # -- positions ---------------------------------------------------------------------

    def _range(self, node: cst.CSTNode) -> CodeRange:
        return self.get_metadata(PositionProvider, node)

    def _offset(self, line: int, column: int) -> int:
        return self._lines.offset(line, self._columns.column(line, column))

    def _span(self, node: cst.CSTNode) -> Span:
        where = self._range(node)
        start = self._offset(where.start.line, where.start.column)
        end = self._offset(where.end.line, where.end.column)
        return self._lines.span(start, end)

    def _statement(self, node: _AnyImport, names: Sequence[cst.CSTNode]) -> str:
        where = self._range(node)
        start = self._offset(where.start.line, where.start.column)
        last: cst.CSTNode | None = None
        if isinstance(node, cst.ImportFrom | cst.LazyImportFrom) and node.rpar is not None:
            last = node.rpar
        elif names:
            last = names[-1]
        end_where = self._range(last) if last is not None else where
        end = self._offset(end_where.end.line, end_where.end.column)
        return statement_text(self._text, start, end)

    # -- imports -----------------------------------------------------------------------

    def _add(self, **fields: object) -> None:
        fact = ImportFact(
            type_checking=self._type_checking > 0,
            in_function=self._functions > 0,
            **fields,  # type: ignore[arg-type]
        )
        self.facts.append(with_statement_line(fact, self._first_line))

    def _plain(self, node: cst.Import | cst.LazyImport, lazy: bool) -> None:
        self._first_line = self._range(node).start.line
        ends: list[cst.CSTNode] = [
            alias.asname.name if alias.asname is not None else alias.name for alias in node.names
        ]
        statement = self._statement(node, ends)
        for alias in node.names:
            dotted = _dotted(alias.name)
            self._add(
                style=ImportStyle.IMPORT,
                module=dotted,
                name=None,
                target=dotted,
                level=0,
                span=self._span(alias.name),
                statement=statement,
                lazy=lazy,
                raw_module=dotted,
            )

    def _from(self, node: cst.ImportFrom | cst.LazyImportFrom, lazy: bool) -> None:
        self._first_line = self._range(node).start.line
        level = len(node.relative)
        name = _dotted(node.module) if node.module is not None else None
        resolved = resolve_relative(self._module, self._is_package, level, name)
        raw_module = "." * level + (name or "")
        if isinstance(node.names, cst.ImportStar):
            statement = self._statement(node, [node.names])
            self._add(
                style=ImportStyle.STAR,
                module=resolved,
                name=None,
                target=resolved,
                level=level,
                span=self._span(node.names),
                statement=statement,
                lazy=lazy,
                raw_module=raw_module,
            )
            return
        ends: list[cst.CSTNode] = [
            alias.asname.name if alias.asname is not None else alias.name for alias in node.names
        ]
        statement = self._statement(node, ends)
        for alias in node.names:
            imported = _dotted(alias.name)
            self._add(
                style=ImportStyle.FROM,
                module=resolved,
                name=imported,
                target=f"{resolved}.{imported}" if resolved is not None else None,
                level=level,
                span=self._span(alias.name),
                statement=statement,
                lazy=lazy,
                raw_module=raw_module,
            )

    def visit_Import(self, node: cst.Import) -> None:
        self._plain(node, lazy=False)

    def visit_LazyImport(self, node: cst.LazyImport) -> None:
        self._plain(node, lazy=True)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._from(node, lazy=False)

    def visit_LazyImportFrom(self, node: cst.LazyImportFrom) -> None:
        self._from(node, lazy=True)


def imports_from_concrete(
    tree: cst.Module, text: str, *, module: str, is_package: bool
) -> tuple[ImportFact, ...]:
    """Static imports of an already parsed module (`text` is what was parsed)."""
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    collector = _ImportCollector(text, module, is_package, ColumnMap(text, tree.code))
    wrapper.visit(collector)
    return tuple(sorted(collector.facts, key=by_position))


def extract_concrete(
    text: str, *, module: str, is_package: bool, grammars: GrammarBinaries
) -> tuple[ImportFact, ...]:
    """Every static import of `text`, read from libcst's tree.

    Raises `libcst.ParserSyntaxError` when libcst can't parse the text.
    """
    text = normalise_newlines(text)
    tree = grammars.parse_concrete(text)
    return imports_from_concrete(tree, text, module=module, is_package=is_package)
