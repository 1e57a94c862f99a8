"""The parsers the extractors use: CPython's own and libcst's native one."""

from __future__ import annotations

import ast
import sys
import warnings
from symtable import symtable

import libcst
from libcst._version import __version__ as _LIBCST_VERSION

from inwards_core.ports import GrammarBinaries

_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"


class StandardGrammars(GrammarBinaries):
    """CPython's `ast` of the running interpreter and the installed libcst.

    Stateless, so it pickles into worker processes.
    """

    @property
    def grammar_ids(self) -> tuple[str, ...]:
        return (f"cpython-ast-{_PYTHON}", f"libcst-{_LIBCST_VERSION}")

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
        return libcst.parse_module(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StandardGrammars)

    def __hash__(self) -> int:
        return hash(StandardGrammars)
