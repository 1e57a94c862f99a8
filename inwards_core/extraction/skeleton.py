"""The skeleton: static imports without parsing the whole file.

One C-speed `re` pass skips string literals and comments and finds every `import`
keyword (`skeleton_scan`). Each import statement in a plain spelling is read with regular
expressions (`skeleton_plain`); every other one, and each block header around an indented
one (`def`, `class`, `if TYPE_CHECKING:`, `else:` ..., found by `skeleton_blocks`), is cut
out of the text and parsed by CPython's parser in one small batch; positions are shifted
back onto the file. Whenever the text is not plainly what the skeleton understands, it
refuses (returns None) and the caller parses the whole file: the skeleton is exact where
it answers, which the differential test checks.

It does not look at the rest of the file: `extract` checks on its own that the whole
file parses (unless told not to), so a syntax error elsewhere is still reported.

The same machinery, in tolerant mode, recovers the import statements of a file that does
not parse (each statement parsed on its own, context from indentation).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from inwards_core.extraction.skeleton_blocks import (
    Header,
    NotPlain,
    Refused,
    classify,
    header_snippet,
)
from inwards_core.extraction.skeleton_plain import Plain, plain_facts, read_plain
from inwards_core.extraction.skeleton_scan import Skeleton, Statement, context_of
from inwards_core.extraction.static import facts_of_statement
from inwards_core.extraction.text import LineColumns
from inwards_core.model.facts import ImportFact
from inwards_core.ports import GrammarBinaries

_TAB_INDENT = re.compile(r"^ *\t", re.M)
_LOOSE_TYPE_CHECKING = re.compile(r"(?:el)?if +\(?(?:\w+ *\. *)?TYPE_CHECKING *\)? *:")


class _BatchLocator:
    """Maps positions in the batch text back onto the file."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        # per batch line: (offset in the file of batch column 0, file line, file column 0)
        self.bases: list[tuple[int, int, int]] = []
        self._columns: dict[int, LineColumns] = {}

    def add(self, text: str, statement: Statement, snippet: str) -> None:
        base = statement.keyword
        line = statement.line
        column = statement.column
        for piece in snippet.split("\n"):
            self.lines.append(piece)
            self.bases.append((base, line, column))
            base += len(piece) + 1
            line += 1
            column = 0

    def pad(self, snippet: str) -> None:
        for piece in snippet.split("\n"):
            self.lines.append(piece)
            self.bases.append((0, 0, 0))

    def locate(self, line: int, byte_column: int) -> tuple[int, int, int]:
        columns = self._columns.get(line)
        if columns is None:
            columns = self._columns[line] = LineColumns(self.lines[line - 1])
        column = columns.column(byte_column)
        base, file_line, file_column = self.bases[line - 1]
        return base + column, file_line, file_column + column + 1


def _unique_headers(statements: list[Statement]) -> list[Header]:
    seen: dict[int, Header] = {}
    for statement in statements:
        for header in statement.headers:
            seen.setdefault(id(header), header)
    return list(seen.values())


def _facts(
    skeleton: Skeleton,
    node: ast.stmt,
    statement: Statement,
    locator: _BatchLocator,
    module: str,
    is_package: bool,
) -> list[ImportFact]:
    if not isinstance(node, ast.Import | ast.ImportFrom):
        raise Refused("not an import statement")
    lazy_starts: Mapping[int, int] = {}
    if statement.lazy:
        keyword, _, _ = locator.locate(node.lineno, node.col_offset)
        lazy_starts = {keyword: statement.start}
    return facts_of_statement(
        node,
        text=skeleton.text,
        locator=locator,
        module=module,
        is_package=is_package,
        context=context_of(statement),
        lazy_starts=lazy_starts,
    )


def read_skeleton(
    text: str, *, module: str, is_package: bool, grammars: GrammarBinaries
) -> tuple[ImportFact, ...] | None:
    """The file's static imports, or None when the skeleton can't vouch for them."""
    read = read_skeleton_facts(
        text, module=module, is_package=is_package, grammars=grammars, names=False
    )
    return None if read is None else read[0]


def _at_line_start(text: str, statement: Statement) -> bool:
    return statement.start == 0 or text[statement.start - 1] == "\n"


def read_skeleton_facts(
    text: str, *, module: str, is_package: bool, grammars: GrammarBinaries, names: bool
) -> tuple[tuple[ImportFact, ...], tuple[str, ...]] | None:
    """The file's static imports and, with `names`, the names its top level binds (see
    `top_names`; a pass over the text the fast path pays only when asked), or None when the
    skeleton can't vouch for them."""
    if "\x00" in text or "\x0c" in text:
        return None
    if "\t" in text and _TAB_INDENT.search(text):
        return None
    if names:  # imported on first need: only a run asking for names pays for the module
        from inwards_core.extraction.top_names import import_bindings, names_from_text
    skeleton = Skeleton(text, strict=True)
    try:
        skeleton.scan()
        statements = skeleton.statements()
        if not statements:
            return (), names_from_text(text, skeleton.strings, ()) if names else ()
        headers = _unique_headers(statements)
        locator = _BatchLocator()
        pieces: list[str] = []
        plain: list[tuple[Statement, list[Plain]]] = []
        parsed: list[Statement] = []
        for statement in statements:
            read = read_plain(text, statement, module, is_package)
            if read is not None:
                plain.append((statement, read))
                continue
            snippet = skeleton.snippet(statement)
            pieces.append(snippet)
            locator.add(text, statement, snippet)
            parsed.append(statement)
        checked: list[Header] = []
        for header in headers:
            check = header_snippet(text, header)
            if check is not None:
                pieces.append(check)
                locator.pad(check)
                checked.append(header)
        body: list[ast.stmt] = []
        if pieces:
            try:
                body = grammars.parse_python("\n".join(pieces), "<skeleton>").body
            except (SyntaxError, ValueError):
                return None
        if len(body) != len(parsed) + len(checked):
            return None
        for header, node in zip(checked, body[len(parsed) :], strict=True):
            classify(header, node)
        facts: list[ImportFact] = []
        bound: list[str] = []
        for statement, node in zip(parsed, body, strict=False):
            facts.extend(_facts(skeleton, node, statement, locator, module, is_package))
            if (
                names
                and _at_line_start(text, statement)
                and isinstance(node, ast.Import | ast.ImportFrom)
            ):
                bound.extend(import_bindings(node))
        for statement, read in plain:
            facts.extend(plain_facts(text, statement, read))
            if names and _at_line_start(text, statement):
                bound.extend(item[7] for item in read if item[7] is not None)
        top_names = names_from_text(text, skeleton.strings, bound) if names else ()
    except (Refused, NotPlain):
        return None
    return tuple(facts), top_names


def recover_imports(
    text: str, *, module: str, is_package: bool, grammars: GrammarBinaries
) -> tuple[ImportFact, ...]:
    """The import statements of a file that does not parse: each one that parses on its
    own, placed by indentation (best effort)."""
    skeleton = Skeleton(text, strict=False)
    skeleton.scan()
    facts: list[ImportFact] = []
    for statement in skeleton.statements():
        for header in statement.headers:
            header_text = text[header.start : header.end]
            header.type_checking = _LOOSE_TYPE_CHECKING.match(header_text) is not None
            header.function = header.word in ("def", "async def")
        snippet = skeleton.snippet(statement)
        try:
            tree = grammars.parse_python(snippet, "<statement>")
        except (SyntaxError, ValueError):
            continue
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Import | ast.ImportFrom):
            continue
        locator = _BatchLocator()
        locator.add(text, statement, snippet)
        facts.extend(_facts(skeleton, tree.body[0], statement, locator, module, is_package))
    return tuple(facts)
