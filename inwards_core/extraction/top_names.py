"""The names a module's top level binds (`ModuleFacts.names`), read three ways that must
agree (the differential test holds them together): from CPython's tree, from libcst's, and
by the skeleton from the text without parsing it.

What counts, in the module's own body (not inside `if`, `try`, functions or classes):
`def` and `class` statements, an assignment whose first target is one name (`x = ...`,
`x = y = ...` gives `x`), an annotation of one name (`x: T` or `x: T = ...`), and the names
import statements bind (`import a.b` binds `a`, `import a.b as c` binds `c`, `from m import
x as y` binds `y`; a star import binds nothing that can be read).
"""

from __future__ import annotations

import ast
import itertools
import keyword
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from inwards_core.extraction.skeleton_blocks import NotPlain

if TYPE_CHECKING:
    import libcst as cst


def _identifier(text: str) -> str:
    """Python reads identifiers in NFKC form."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def import_binding(name: str, asname: str | None, from_import: bool) -> str | None:
    """The name one imported item binds; None for a star."""
    if asname:
        return _identifier(asname)
    if name == "*":
        return None
    return _identifier(name if from_import else name.split(".", 1)[0].strip())


def names_from_tree(body: Sequence[ast.stmt]) -> tuple[str, ...]:
    """From CPython's tree of the whole module."""
    found: list[str] = []
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append(node.name)
        elif isinstance(node, ast.Assign):
            if isinstance(node.targets[0], ast.Name):
                found.append(node.targets[0].id)
        elif isinstance(node, ast.AnnAssign):
            if node.simple and isinstance(node.target, ast.Name):
                found.append(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found.extend(import_bindings(node))
    return sorted_names(found)


def import_bindings(node: ast.Import | ast.ImportFrom) -> Iterable[str]:
    from_import = isinstance(node, ast.ImportFrom)
    for alias in node.names:
        bound = import_binding(alias.name, alias.asname, from_import)
        if bound is not None:
            yield bound


def names_from_concrete(tree: cst.Module) -> tuple[str, ...]:
    """From libcst's tree (files with syntax newer than CPython 3.11 reads)."""
    import libcst as cst

    found: list[str] = []
    for statement in tree.body:
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            found.append(_identifier(statement.name.value))
            continue
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign):
                target = small.targets[0].target
                if isinstance(target, cst.Name):
                    found.append(_identifier(target.value))
            elif isinstance(small, cst.AnnAssign):
                if isinstance(small.target, cst.Name) and not small.target.lpar:
                    found.append(_identifier(small.target.value))
            elif isinstance(
                small, cst.Import | cst.ImportFrom | cst.LazyImport | cst.LazyImportFrom
            ):
                found.extend(_concrete_bindings(small))
    return sorted_names(found)


def _concrete_bindings(node: cst.CSTNode) -> Iterable[str]:
    import libcst as cst
    from libcst.helpers import get_full_name_for_node

    names = getattr(node, "names", None)
    if isinstance(names, cst.ImportStar) or names is None:
        return
    from_import = isinstance(node, cst.ImportFrom | cst.LazyImportFrom)
    for alias in names:
        asname = alias.asname.name if alias.asname is not None else None
        written = get_full_name_for_node(alias.name) or ""
        shown = get_full_name_for_node(asname) if asname is not None else None
        bound = import_binding(written, shown, from_import)
        if bound is not None:
            yield bound


def sorted_names(found: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(found)))


# A statement at column 0 that binds a name: `def`, `class`, or a name followed by `=` (not
# `==`) or `:` (an annotation). Keywords (`else:`, `try:`) are dropped after the match.
# Written after a newline, not with `^` and MULTILINE: a pattern that starts with a literal
# lets `re` skip to each newline at C speed instead of trying every position.
_BINDING = r"(?:(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+)|([^\W\d]\w*)[ \t]*(?::|=(?!=)))"
_TOP_BINDING = re.compile("\n" + _BINDING)
_FIRST_BINDING = re.compile(_BINDING)
# The end of a line after which a column-0 `name=` or `name:` may continue an expression
# (a keyword argument, a dict entry, a parameter) instead of starting a statement.
_OPEN_ENDINGS = frozenset(",([{\\+-*/%&|^<>=.@~:")


def names_from_text(
    text: str, strings: Sequence[tuple[int, int]], imports: Iterable[str]
) -> tuple[str, ...]:
    """The skeleton's reading: each column-0 binding outside the strings that span lines,
    plus `imports` (the names the top-level import statements bind). Raises `NotPlain`
    for an assignment that may continue the line before it, or shares its line with
    another statement (`;`): the caller then parses the file."""
    starts = [start for start, _ in strings]
    found = list(imports)
    first = _FIRST_BINDING.match(text)
    matches = _TOP_BINDING.finditer(text)
    for match in itertools.chain((first,) if first is not None else (), matches):
        at = match.start() if match is first else match.start() + 1
        inside = bisect_right(starts, at) - 1
        if inside >= 0 and at < strings[inside][1]:
            continue  # a line of a string literal
        name = match.group(1) or match.group(2)
        if name is None:
            name = match.group(3)
            if keyword.iskeyword(name):
                continue
            _check_plain_assignment(text, at)
        found.append(_identifier(name))
    return sorted_names(found)


def _check_plain_assignment(text: str, at: int) -> None:
    end = text.find("\n", at)
    if ";" in text[at : end if end >= 0 else len(text)]:
        raise NotPlain("a line with more than one statement")
    line_end = at - 1
    while line_end > 0:
        line_start = text.rfind("\n", 0, line_end) + 1
        line = text[line_start:line_end]
        comment = line.rfind("#")
        content = (line[:comment] if comment >= 0 else line).rstrip()
        if content and not content.lstrip().startswith("#"):
            if content[-1] in _OPEN_ENDINGS or content.endswith("lambda"):
                raise NotPlain("a name that may continue an expression")
            return
        line_end = line_start - 1
