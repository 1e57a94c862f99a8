"""Code handed to `exec`, `eval` or `compile` as a literal: the text is folded like a
module name, parsed, and its import statements become dynamic imports of the module that
runs it (the loaders in it are read by `dynamic`, one level deeper).

Within bounds (docs/hostile-input.md): a source of at most `MAX_SOURCE_CHARS` characters,
and literals inside literals at most `MAX_DEPTH` deep; past them the code is as unreadable
as a variable. The text parsed is a piece of the file, so parsing it costs no more than
the file's own budget allows.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from inwards_core.extraction.dynamic_folding import ConstantFolder, Unreadable
from inwards_core.extraction.static import resolve_relative

MAX_SOURCE_CHARS = 100_000
MAX_DEPTH = 3

# The functions that run (or compile) code given as text, by the names they are called.
SOURCE_LOADERS = {
    "exec": "exec",
    "eval": "eval",
    "compile": "compile",
    "builtins.exec": "exec",
    "builtins.eval": "eval",
    "builtins.compile": "compile",
}
COMPILE = "compile"


def source_text(folder: ConstantFolder, argument: ast.expr) -> str:
    """The code a literal source argument holds; `Unreadable` when it isn't constant
    text (or is too long to read)."""
    if isinstance(argument, ast.Constant) and isinstance(argument.value, bytes):
        try:
            text = argument.value.decode("utf-8")
        except UnicodeDecodeError:
            raise Unreadable("bytes that are not UTF-8") from None
    else:
        folded = folder.fold(argument)
        if not isinstance(folded, str):
            raise Unreadable("not code")
        text = folded
    if len(text) > MAX_SOURCE_CHARS:
        raise Unreadable(f"code longer than {MAX_SOURCE_CHARS:,} characters")
    return text


def parse_source(text: str) -> ast.Module | None:
    """The code's tree; None when it doesn't parse (run, it fails: it imports nothing).
    An expression for `eval` parses as a statement too."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def imports_in(
    tree: ast.Module, module: str, is_package: bool
) -> Iterator[tuple[str | None, str | None, str | None]]:
    """(target, module part of a from-import, reason) of each import statement in the
    code, in source order; the code runs in the module's namespace, so relative imports
    start from its package."""
    found = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    found.sort(key=lambda node: (node.lineno, node.col_offset))
    for node in found:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, None
            continue
        base = resolve_relative(module, is_package, node.level or 0, node.module)
        if base is None:
            yield None, None, "a relative name above the top-level package"
            continue
        for alias in node.names:
            if alias.name == "*":
                yield base, None, None
            else:
                yield f"{base}.{alias.name}", base, None
