"""The parsers the extractors use: CPython's own and libcst's native one."""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
import sys
import warnings
from pathlib import Path
from symtable import symtable
from typing import TYPE_CHECKING

from inwards_core.ports import GrammarBinaries

if TYPE_CHECKING:
    import libcst

_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"


@functools.cache
def libcst_version() -> str:
    """The installed libcst's version, read from its `_version.py` without importing
    libcst (that import alone costs more than a one-file check may take)."""
    spec = importlib.util.find_spec("libcst")
    if spec is not None and spec.origin:
        try:
            text = (Path(spec.origin).parent / "_version.py").read_text(encoding="utf-8")
        except OSError:
            text = ""
        found = re.search(r"""version\s*=\s*['"]([^'"]+)['"]""", text)
        if found:
            return found.group(1)
    from libcst._version import __version__  # the slow way, should the file move

    return str(__version__)


class StandardGrammars(GrammarBinaries):
    """CPython's `ast` of the running interpreter and the installed libcst.

    Stateless, so it pickles into worker processes.
    """

    @property
    def grammar_ids(self) -> tuple[str, ...]:
        return (f"cpython-ast-{_PYTHON}", f"libcst-{libcst_version()}")

    def parse_python(self, text: str, filename: str) -> ast.Module:
        # The checked code's own warnings (invalid escapes, ...) are not ours to print.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename)

    def check_python(self, text: str, filename: str) -> None:
        """Raise SyntaxError when CPython's parser rejects `text`, without building the
        Python tree (about half the cost of `parse_python`). It also raises for the few
        errors CPython finds right after parsing (`nonlocal` at module level, ...)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable(text, filename, "exec")

    def parse_concrete(self, text: str) -> libcst.Module:
        import libcst

        return libcst.parse_module(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StandardGrammars)

    def __hash__(self) -> int:
        return hash(StandardGrammars)
