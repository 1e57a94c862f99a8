"""`extract`: bytes in, ModuleFacts out, never an exception.

Order of work: decode (PEP 263, BOM); the skeleton when nothing asks for a full tree
(hints of dynamic imports, of code run from text and of `__path__` or `sys.modules` do),
confirmed by a tree-less check that the whole file parses; otherwise CPython's parser (after cutting out PEP 810 `lazy` if needed), then libcst for
syntax CPython 3.11 can't read, then recovery of the import statements of a broken file.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

import attrs

from inwards_core.extraction.decoding import decode_source
from inwards_core.extraction.dynamic import DynamicReading, has_dynamic_hint, read_dynamic
from inwards_core.extraction.limits import LimitReason, budget_for, limit_problem
from inwards_core.extraction.skeleton import read_skeleton_facts, recover_imports
from inwards_core.extraction.static import (
    LazyCut,
    WholeFileLocator,
    cut_lazy_keywords,
    imports_from_tree,
)
from inwards_core.extraction.suppression_comments import suppression_comments
from inwards_core.extraction.text import SourceLines, by_position, count_lines
from inwards_core.model.facts import (
    FileProblem,
    FileProblemKind,
    ImportFact,
    ModuleFacts,
)
from inwards_core.model.findings import Span
from inwards_core.ports import GrammarBinaries, ParserRefused

if TYPE_CHECKING:
    import libcst as cst


# Where CPython 3.11 stops on syntax that later Pythons read (PEP 695 `type` and type
# parameters, PEP 701 f-strings, PEP 750 t-strings, PEP 758 `except A, B:`, PEP 810).
_NEWER_LINE = re.compile(
    r"[ \t]*(?:type[ \t]+\w|(?:async[ \t]+)?def[ \t]+\w+[ \t]*\[|class[ \t]+\w+[ \t]*\["
    r"|except[ \t(]|lazy[ \t])"
)
_TEMPLATE_STRING = re.compile(r"(?<!\w)(?:[tT][rR]?|[rR][tT])['\"]")
_NEWER_MESSAGES = frozenset({"multiple exception types must be parenthesized"})
_LIBCST_MAX_CHARS = 2_000_000
# Anchored at line starts: unanchored, every position of a long line would be tried again.
_HUGE_LINE = re.compile(r"^[^\n]{10000}", re.M)

_LAZY_HINT = re.compile(r"^[ \t\f]*lazy[ \t\f]+(?:import|from)\b", re.M)


@attrs.frozen
class _FullRead:
    imports: tuple[ImportFact, ...]
    grammar: str
    tree: ast.Module | None = None
    names: tuple[str, ...] = ()
    concrete: cst.Module | None = None
    lazy: LazyCut | None = None
    problem: FileProblem | None = None


def _syntax_problem(error: Exception, text: str, size: int) -> FileProblem:
    if isinstance(error, MemoryError):
        # CPython 3.11's parser raises it for nesting deeper than its stack, too.
        detail = "or Python's parser ran out of stack on deep nesting"
        return limit_problem(budget_for(size), LimitReason.MEMORY, detail)
    if isinstance(error, SyntaxError) and error.lineno is not None:
        line = error.lineno or 1
        column = error.offset or 1
        end_line = error.end_lineno or line
        end_column = error.end_offset or 0
        if (end_line, end_column) <= (line, column):
            end_line, end_column = line, column + 1
        return FileProblem(
            FileProblemKind.SYNTAX,
            error.msg or "invalid syntax",
            Span(line, column, end_line, end_column),
        )
    if "\x00" in text:
        line, column = SourceLines(text).position(text.index("\x00"))
        return FileProblem(
            FileProblemKind.SYNTAX,
            "it holds a null byte",
            Span(line, column, line, column + 1),
        )
    return FileProblem(
        FileProblemKind.SYNTAX,
        str(error) or type(error).__name__,
        Span.start_of_file(),
    )


def _parse_python(text: str, grammars: GrammarBinaries, module: str) -> ast.Module:
    return grammars.parse_python(text, module or "<module>")


def _parses(text: str, grammars: GrammarBinaries, module: str) -> bool:
    """Whether CPython's parser accepts the whole text (without building its tree)."""
    try:
        grammars.check_python(text, module or "<module>")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _worth_reading_with_libcst(error: Exception, text: str, lines: SourceLines) -> bool:
    """Whether CPython failed on syntax newer than it knows (then libcst may read the
    file). A plain syntax error is not handed to libcst: it would fail as well, and its
    parser can take minutes on huge expressions or overflow the stack on deep nesting."""
    if not isinstance(error, SyntaxError) or error.lineno is None:
        return False
    if len(text) > _LIBCST_MAX_CHARS or _HUGE_LINE.search(text):
        return False
    message = error.msg or ""
    if message.startswith("f-string") or message in _NEWER_MESSAGES:
        return True
    line = lines.line_text(error.lineno)
    return bool(_NEWER_LINE.match(line) or _TEMPLATE_STRING.search(line))


def _read_full(
    text: str,
    lines: SourceLines,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
    size: int,
) -> _FullRead:
    """CPython's parser first; then (when it fails) the same without PEP 810 `lazy`
    keywords, libcst for newer syntax, and last the recovery of the import statements."""
    # Imported here: a file the skeleton reads (most of them) never needs it.
    from inwards_core.extraction.top_names import names_from_tree

    try:
        tree = _parse_python(text, grammars, module)
        imports = imports_from_tree(
            tree, text=text, lines=lines, module=module, is_package=is_package
        )
        return _FullRead(imports, "ast", tree=tree, names=names_from_tree(tree.body))
    except (SyntaxError, ValueError, MemoryError, RecursionError) as error:
        first_error: Exception = error
    if _LAZY_HINT.search(text):
        without_lazy = _read_without_lazy(text, lines, module, is_package, grammars)
        if without_lazy is not None:
            return without_lazy
    if _worth_reading_with_libcst(first_error, text, lines):
        newer = _read_newer_syntax(text, module, is_package, grammars, size)
        if newer is not None:
            return newer
    problem = _syntax_problem(first_error, text, size)
    return _recovered(text, module, is_package, grammars, problem)


def _read_without_lazy(
    text: str, lines: SourceLines, module: str, is_package: bool, grammars: GrammarBinaries
) -> _FullRead | None:
    """CPython's parser on the text with each `lazy` keyword cut out (3.11 can't read
    them); None when it still fails."""
    from inwards_core.extraction.top_names import names_from_tree

    lazy = cut_lazy_keywords(text)
    try:
        tree = _parse_python(lazy.text, grammars, module)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    imports = imports_from_tree(
        tree,
        text=text,
        lines=lines,
        module=module,
        is_package=is_package,
        lazy=lazy,
    )
    return _FullRead(imports, "ast", tree=tree, lazy=lazy, names=names_from_tree(tree.body))


def _read_newer_syntax(
    text: str, module: str, is_package: bool, grammars: GrammarBinaries, size: int
) -> _FullRead | None:
    """libcst on a file CPython 3.11 can't read, within the limits libcst's parser needs;
    None when libcst can't read it either."""
    from inwards_core.extraction.libcst_parsing import (
        parse_concrete_with_room,
        too_deep_for_libcst,
    )

    too_deep = too_deep_for_libcst(text)
    if too_deep is not None:
        problem = limit_problem(budget_for(size), LimitReason.SHAPE, too_deep)
        return _recovered(text, module, is_package, grammars, problem)
    # libcst is imported only here: few files need it, and importing it costs more
    # than a one-file check may take.
    import libcst

    from inwards_core.extraction.concrete import imports_from_concrete
    from inwards_core.extraction.top_names import names_from_concrete

    try:
        concrete = parse_concrete_with_room(text, grammars)
        imports = imports_from_concrete(concrete, text, module=module, is_package=is_package)
        names = names_from_concrete(concrete)
        return _FullRead(imports, "libcst", concrete=concrete, names=names)
    except (libcst.ParserSyntaxError, ValueError):
        return None
    except (RecursionError, MemoryError) as error:
        # The text is newer syntax that libcst reads, but too deep or too big for it.
        reason = LimitReason.MEMORY if isinstance(error, MemoryError) else LimitReason.SHAPE
        detail = (
            ""
            if reason is LimitReason.MEMORY
            else (
                "it holds syntax newer than Python 3.11 and an expression nested too deep for "
                "the parser that reads it"
            )
        )
        problem = limit_problem(budget_for(size), reason, detail)
        return _recovered(text, module, is_package, grammars, problem)


def _recovered(
    text: str, module: str, is_package: bool, grammars: GrammarBinaries, problem: FileProblem
) -> _FullRead:
    """The import statements recovered from a file that could not be read whole."""
    imports = recover_imports(text, module=module, is_package=is_package, grammars=grammars)
    return _FullRead(imports, "", problem=problem)


def _dynamic(
    full: _FullRead,
    text: str,
    lines: SourceLines,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
) -> DynamicReading:
    tree = full.tree
    if tree is None and full.concrete is not None:
        from inwards_core.extraction.libcst_parsing import blank_newer_syntax

        try:
            tree = _parse_python(blank_newer_syntax(full.concrete, text), grammars, module)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return DynamicReading()
    if tree is None:
        return DynamicReading()
    locator = None
    if full.lazy is not None:
        locator = WholeFileLocator(lines, SourceLines(full.lazy.text), full.lazy.shifts)
    return read_dynamic(
        tree, text=text, lines=lines, module=module, is_package=is_package, locator=locator
    )


def _extract_content(data: bytes, module: str, grammars: GrammarBinaries) -> ModuleFacts:
    from inwards_core.extraction.content import (  # content rules only
        NO_CONTENT,
        may_hold_content,
        read_content,
    )

    if not may_hold_content(data):
        return NO_CONTENT  # what `read_facts` gives such a file without a job
    decoded = decode_source(data)
    if isinstance(decoded, FileProblem):
        return ModuleFacts(problem=decoded)
    return ModuleFacts(content=read_content(decoded.text, module, grammars))


def _extract(
    data: bytes,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
    fast: bool,
    check_syntax: bool,
    names: bool,
) -> ModuleFacts:
    decoded = decode_source(data)
    if isinstance(decoded, FileProblem):
        return ModuleFacts(problem=decoded)
    text = decoded.text
    line_count = count_lines(text)
    wants_dynamic = has_dynamic_hint(text, is_package=is_package)
    if fast and not wants_dynamic:
        skeleton = read_skeleton_facts(
            text, module=module, is_package=is_package, grammars=grammars, names=names
        )
        if skeleton is not None and (not check_syntax or _parses(text, grammars, module)):
            imports, top_names = skeleton
            return ModuleFacts(
                imports=tuple(sorted(imports, key=by_position)),
                names=top_names,
                suppressions=suppression_comments(text, read=True),
                grammar="skeleton",
                line_count=line_count,
            )
    lines = SourceLines(text)
    full = _read_full(text, lines, module, is_package, grammars, len(data))
    dynamic = (
        _dynamic(full, text, lines, module, is_package, grammars)
        if wants_dynamic
        else DynamicReading()
    )
    return ModuleFacts(
        imports=tuple(sorted(full.imports, key=by_position)),
        dynamic_imports=dynamic.imports,
        extends_path=dynamic.extends_path,
        registers=dynamic.registers,
        import_hook_line=dynamic.import_hook_line,
        suppressions=suppression_comments(
            text, full.concrete, read=full.grammar == "ast" and full.problem is None
        ),
        problem=full.problem,
        grammar=full.grammar,
        line_count=line_count,
        names=full.names if names else (),
    )


def extract(
    data: bytes,
    *,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
    fast: bool = True,
    check_syntax: bool = True,
    names: bool = False,
    content: bool = False,
) -> ModuleFacts:
    """Everything the extractors read from one file's bytes. Pure; never raises, except
    `ParserRefused` when `grammars` refuses the concrete parser this file needs.

    `module` is the file's dotted module name, `is_package` whether it is an
    `__init__` file (relative imports start from the module itself then).

    `fast` lets the skeleton answer when it can (same facts, less work). The skeleton
    reads only import statements and the block headers around them, so by default the
    whole file is also checked to parse (CPython's parser without building a tree);
    `check_syntax=False` skips that check: fastest, but a syntax error outside the
    import statements then goes unnoticed. `fast=False` always parses the whole file.
    `names` reads `ModuleFacts.names` too (empty without it).

    `content` reads the content facts instead (`ModuleFacts.content`, for the opt-in
    content rules) and nothing else: no imports, which the ordinary read gives.
    """
    try:
        if content:
            return _extract_content(data, module, grammars)
        return _extract(data, module, is_package, grammars, fast, check_syntax, names)
    except ParserRefused:
        raise  # the caller reads this file elsewhere (see `ParserRefused`)
    except (MemoryError, RecursionError) as error:
        # Out of the memory the caller allows a file (see `limits`), or of the stack.
        detail = "of stack, on deep nesting" if isinstance(error, RecursionError) else ""
        return ModuleFacts(problem=limit_problem(budget_for(len(data)), LimitReason.MEMORY, detail))
    except Exception as error:  # a bug of ours must not stop a whole run
        return ModuleFacts(
            problem=FileProblem(
                FileProblemKind.SYNTAX,
                f"inwards could not read this file ({type(error).__name__}: {error}).",
                Span.start_of_file(),
            )
        )
