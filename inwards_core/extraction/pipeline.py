"""`extract`: bytes in, ModuleFacts out, never an exception.

Order of work: decode (PEP 263, BOM); the skeleton when nothing asks for a full tree
(dynamic-import hints do), confirmed by a tree-less check that the whole file parses;
otherwise CPython's parser (after cutting out PEP 810 `lazy` if needed), then libcst for
syntax CPython 3.11 can't read, then recovery of the import statements of a broken file.
"""

from __future__ import annotations

import ast
import re
import threading
from typing import TYPE_CHECKING

import attrs

from inwards_core.extraction.decoding import decode_source
from inwards_core.extraction.dynamic import dynamic_imports, has_dynamic_hint
from inwards_core.extraction.limits import LimitReason, budget_for, limit_problem
from inwards_core.extraction.skeleton import read_skeleton, recover_imports
from inwards_core.extraction.static import (
    LazyCut,
    WholeFileLocator,
    cut_lazy_keywords,
    imports_from_tree,
)
from inwards_core.extraction.suppression_comments import suppression_comments
from inwards_core.extraction.text import STRING_BODY, SourceLines, by_position, count_lines
from inwards_core.model.facts import (
    DynamicImportFact,
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
_LIBCST_STACK = 256 * 1024 * 1024
# libcst's parser needs time and memory that grow with the square of an expression's
# depth (8,000 nested unary minuses: 12 s and 3.5 GB). Deeper than these it is not asked:
# CPython itself refuses 200 nested brackets, and no hand-written code chains 100 prefix
# operators.
_LIBCST_MAX_BRACKET_DEPTH = 100
_LIBCST_MAX_PREFIX_RUN = 100
_BRACKETS_OUTSIDE_STRINGS = re.compile(r"#[^\n]*|" + STRING_BODY + r"|[(\[{]|[)\]}]", re.S)
_PREFIX_RUN = re.compile(
    r"(?:(?:[-+~]|\bnot\b|\bawait\b)[ \t\f\\\n]*+)" + f"{{{_LIBCST_MAX_PREFIX_RUN},}}"
)

_LAZY_HINT = re.compile(r"^[ \t\f]*lazy[ \t\f]+(?:import|from)\b", re.M)


@attrs.frozen
class _FullRead:
    imports: tuple[ImportFact, ...]
    grammar: str
    tree: ast.Module | None = None
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


def _too_deep_for_libcst(text: str) -> str | None:
    """What makes `text` too costly for libcst's parser, or None."""
    depth = deepest = 0
    for match in _BRACKETS_OUTSIDE_STRINGS.finditer(text):
        char = match.group()
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth = max(depth - 1, 0)
    if deepest > _LIBCST_MAX_BRACKET_DEPTH:
        return (
            f"it holds syntax newer than Python 3.11 and brackets nested {deepest} deep; "
            f"such files are read only up to {_LIBCST_MAX_BRACKET_DEPTH} levels"
        )
    if _PREFIX_RUN.search(text):
        return (
            "it holds syntax newer than Python 3.11 and a chain of more than "
            f"{_LIBCST_MAX_PREFIX_RUN} prefix operators; such files are read only up to "
            f"{_LIBCST_MAX_PREFIX_RUN}"
        )
    return None


def _parse_concrete_with_room(text: str, grammars: GrammarBinaries) -> cst.Module:
    """libcst's native parser recurses on the machine stack; give it a roomy one so deep
    nesting fails as an error, not as a crash of the whole process."""
    parsed: list[cst.Module] = []
    failed: list[BaseException] = []

    def parse() -> None:
        try:
            parsed.append(grammars.parse_concrete(text))
        except BaseException as error:  # handed over to the calling thread
            failed.append(error)

    previous = threading.stack_size(_LIBCST_STACK)
    try:
        worker = threading.Thread(target=parse, name="inwards-libcst", daemon=True)
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if failed:
        raise failed[0]
    return parsed[0]


def _read_full(
    text: str,
    lines: SourceLines,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
    size: int,
) -> _FullRead:
    try:
        tree = _parse_python(text, grammars, module)
        imports = imports_from_tree(
            tree, text=text, lines=lines, module=module, is_package=is_package
        )
        return _FullRead(imports, "ast", tree=tree)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as error:
        first_error: Exception = error
    if _LAZY_HINT.search(text):
        lazy = cut_lazy_keywords(text)
        try:
            tree = _parse_python(lazy.text, grammars, module)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            pass
        else:
            imports = imports_from_tree(
                tree,
                text=text,
                lines=lines,
                module=module,
                is_package=is_package,
                lazy=lazy,
            )
            return _FullRead(imports, "ast", tree=tree, lazy=lazy)
    worth_libcst = _worth_reading_with_libcst(first_error, text, lines)
    too_deep = _too_deep_for_libcst(text) if worth_libcst else None
    if too_deep is not None:
        imports = recover_imports(text, module=module, is_package=is_package, grammars=grammars)
        problem = limit_problem(budget_for(size), LimitReason.SHAPE, too_deep)
        return _FullRead(imports, "", problem=problem)
    if worth_libcst:
        # libcst is imported only here: few files need it, and importing it costs more
        # than a one-file check may take.
        import libcst

        from inwards_core.extraction.concrete import imports_from_concrete

        try:
            concrete = _parse_concrete_with_room(text, grammars)
            imports = imports_from_concrete(concrete, text, module=module, is_package=is_package)
            return _FullRead(imports, "libcst", concrete=concrete)
        except (libcst.ParserSyntaxError, ValueError):
            pass
        except (RecursionError, MemoryError) as error:
            # The text is newer syntax that libcst reads, but too deep or too big for it.
            imports = recover_imports(text, module=module, is_package=is_package, grammars=grammars)
            reason = LimitReason.MEMORY if isinstance(error, MemoryError) else LimitReason.SHAPE
            detail = (
                ""
                if reason is LimitReason.MEMORY
                else (
                    "it holds syntax newer than Python 3.11 and an expression nested too deep for "
                    "the parser that reads it"
                )
            )
            return _FullRead(imports, "", problem=limit_problem(budget_for(size), reason, detail))
    problem = _syntax_problem(first_error, text, size)
    imports = recover_imports(text, module=module, is_package=is_package, grammars=grammars)
    return _FullRead(imports, "", problem=problem)


def _blank_newer_syntax(concrete: cst.Module, text: str) -> str:
    """The text with each construct CPython 3.11 can't read turned into spaces (a type
    alias into `pass`), lines and columns kept."""
    import libcst
    from libcst.metadata import MetadataWrapper, PositionProvider

    # Newer syntax CPython 3.11 can't read; blanked (columns kept) to read dynamic imports
    # of a file only libcst could parse.
    newer_syntax = (libcst.TypeAlias, libcst.TypeParameters, libcst.TemplatedString)
    wrapper = MetadataWrapper(concrete, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    lines = SourceLines(text)
    chars = list(text)
    for node, where in positions.items():
        if not isinstance(node, newer_syntax):
            continue
        start = lines.offset(where.start.line, where.start.column)
        end = lines.offset(where.end.line, where.end.column)
        for index in range(start, min(end, len(chars))):
            if chars[index] != "\n":
                chars[index] = " "
        if isinstance(node, libcst.TypeAlias):
            chars[start : start + 4] = list("pass")
        elif isinstance(node, libcst.TemplatedString):
            chars[start] = "0"
    return "".join(chars)


def _dynamic(
    full: _FullRead,
    text: str,
    lines: SourceLines,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
) -> tuple[DynamicImportFact, ...]:
    tree = full.tree
    if tree is None and full.concrete is not None:
        try:
            tree = _parse_python(_blank_newer_syntax(full.concrete, text), grammars, module)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return ()
    if tree is None:
        return ()
    locator = None
    if full.lazy is not None:
        locator = WholeFileLocator(lines, SourceLines(full.lazy.text), full.lazy.shifts)
    return dynamic_imports(
        tree, text=text, lines=lines, module=module, is_package=is_package, locator=locator
    )


def _extract(
    data: bytes,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
    fast: bool,
    check_syntax: bool,
) -> ModuleFacts:
    decoded = decode_source(data)
    if isinstance(decoded, FileProblem):
        return ModuleFacts(problem=decoded)
    text = decoded.text
    line_count = count_lines(text)
    wants_dynamic = has_dynamic_hint(text)
    if fast and not wants_dynamic:
        skeleton = read_skeleton(text, module=module, is_package=is_package, grammars=grammars)
        if skeleton is not None and (not check_syntax or _parses(text, grammars, module)):
            return ModuleFacts(
                imports=tuple(sorted(skeleton, key=by_position)),
                suppressions=suppression_comments(text, read=True),
                grammar="skeleton",
                line_count=line_count,
            )
    lines = SourceLines(text)
    full = _read_full(text, lines, module, is_package, grammars, len(data))
    dynamic = _dynamic(full, text, lines, module, is_package, grammars) if wants_dynamic else ()
    return ModuleFacts(
        imports=tuple(sorted(full.imports, key=by_position)),
        dynamic_imports=dynamic,
        suppressions=suppression_comments(
            text, full.concrete, read=full.grammar == "ast" and full.problem is None
        ),
        problem=full.problem,
        grammar=full.grammar,
        line_count=line_count,
    )


def extract(
    data: bytes,
    *,
    module: str,
    is_package: bool,
    grammars: GrammarBinaries,
    fast: bool = True,
    check_syntax: bool = True,
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
    """
    try:
        return _extract(data, module, is_package, grammars, fast, check_syntax)
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
