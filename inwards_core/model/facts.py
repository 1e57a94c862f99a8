"""Per-file facts the extractors read out of one source file.

Facts depend only on the file's bytes, its module name and whether it is a package
(`__init__`), never on configuration or rules: they are what the extraction cache keeps.
Every fact class converts to and from plain JSON-able data (`model/facts_data.py`).
"""

from __future__ import annotations

import enum
import re
from typing import TYPE_CHECKING

import attrs

from inwards_core.model.findings import Span
from inwards_core.model.value_repr import value_repr

if TYPE_CHECKING:
    from inwards_core.model.content_facts import ContentFacts


class ImportStyle(enum.Enum):
    IMPORT = "import"  # import a.b [as c]
    FROM = "from"  # from a import b [as c]
    STAR = "star"  # from a import *


@attrs.frozen
class ImportFact:
    """One imported name of a static import statement.

    `import a.b, c` gives two facts; `from a import b, c` gives two facts.

    - `module`: the absolute module part (`a.b` for `import a.b`, `a` for `from a import b`,
      the resolved package for `from . import b`); `None` when a relative import climbs
      above the top-level package.
    - `name`: the imported name for FROM (`b`), `None` for IMPORT and STAR.
    - `target`: the most specific dotted name this import may reach: `a.b` for `import a.b`,
      `a.b` for `from a import b` (it may be a submodule or an attribute; the index decides).
    - `level`: number of leading dots of a relative import (0 when absolute).
    - `span`: where the imported name stands (the dotted name of IMPORT, the name after
      `import` for FROM, the `*` for STAR); 1-based, end exclusive.
    - `statement`: the statement's source in one line, whitespace collapsed, for fix texts;
      cut to 200 characters (`inwards_core.model.quoting`), as messages quote it.
    - `type_checking`: inside the body of `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`).
    - `in_function`: inside a function body (deferred import).
    - `lazy`: a PEP 810 `lazy import`.
    """

    __repr__ = value_repr

    style: ImportStyle
    module: str | None
    name: str | None
    target: str | None
    level: int
    span: Span
    statement: str
    type_checking: bool = False
    in_function: bool = False
    lazy: bool = False
    raw_module: str = ""  # the module text as written (`..pkg`), for messages
    # The line the statement starts on when the name stands on another one (`b` in
    # `from a import (\n    b,\n)`), else 0: import-linter names an import by that line.
    statement_line: int = 0

    def binding(self) -> tuple[str, str] | None:
        """(the name this import binds in its module, the dotted name that name stands
        for): `import a.b` binds `a` to `a`, `import a.b as c` binds `c` to `a.b`, `from a
        import b as c` binds `c` to `a.b` (a relative import resolved). None for a star
        import and one that climbs above the top-level package. The alias is read from
        `statement`, which is cut to 200 characters: an alias past the cut is not seen."""
        module = self.module
        if module is None or self.style is ImportStyle.STAR:
            return None
        if self.style is ImportStyle.FROM:
            name = self.name or ""
            return (_alias(name, self.statement) or name), f"{module}.{name}"
        alias = _alias(self.raw_module or module, self.statement)
        if alias is not None:
            return alias, module
        first = module.split(".", 1)[0]
        return first, first


_AS_NAME = re.compile(r"\s+as\s+([A-Za-z_]\w*)")


def _alias(written: str, statement: str) -> str | None:
    """The name after `as` that follows `written` (standing as a whole dotted name) in
    `statement`; None when there is none."""
    if " as " not in statement:
        return None
    start = 0
    while (at := statement.find(written, start)) >= 0:
        before = statement[at - 1] if at else " "
        if not (before.isalnum() or before in "._"):
            found = _AS_NAME.match(statement, at + len(written))
            if found is not None:
                return found.group(1)
        start = at + 1
    return None


def with_statement_line(fact: ImportFact, first_line: int) -> ImportFact:
    """`fact` knowing that its statement starts on `first_line` (kept only when that is
    not the line of the name: most facts are left as they are)."""
    if first_line == fact.span.line or first_line == fact.statement_line:
        return fact
    return attrs.evolve(fact, statement_line=first_line)


@attrs.frozen
class DynamicImportFact:
    """A call that imports by name at run time.

    `loader` is the canonical name of the function (`importlib.import_module`,
    `__import__`, `importlib.util.find_spec`, ...). `target` is the absolute module name when
    it could be read (literal or constant-folded, relative names resolved with a literal
    `package=`); `None` when it can't, and then `reason` says why (`a variable`, ...).
    `statement` is the call's source in one line, cut as `ImportFact.statement` is.

    An import read from code handed to `exec`, `eval` or `compile` as a literal has that
    function as its `loader`; for `from a import b` there, `target` is `a.b` (a submodule
    or a name of `a`, as `ImportFact.target`) and `module` is `a`. `module` is None for
    every other import.
    """

    __repr__ = value_repr

    loader: str
    target: str | None
    span: Span
    reason: str | None = None
    statement: str = ""
    module: str | None = None


class SuppressionProblem(enum.Enum):
    MALFORMED = "malformed"
    NO_REASON = "no-reason"
    SECOND_DIRECTIVE = "second-directive"


@attrs.frozen
class SuppressionComment:
    """A `# inwards: ignore[CODES] reason="..."` comment, read from tokens (not strings).

    `line` is the line the comment stands on (findings on that line are hidden);
    `span` covers the directive. `codes` are upper-cased as written. `problem` is set when
    the directive is unusable; such a comment hides nothing.
    """

    __repr__ = value_repr

    line: int
    span: Span
    codes: tuple[str, ...]
    reason: str | None
    problem: SuppressionProblem | None = None


class FileProblemKind(enum.Enum):
    SYNTAX = "syntax"  # the file does not parse
    ENCODING = "encoding"  # declares an encoding that can hide imports, or an unknown one
    UNDECODABLE = "undecodable"  # bytes that don't decode with the (declared) encoding
    LIMIT = "limit"  # reading it would take more time or memory than a file is allowed


@attrs.frozen
class FileProblem:
    __repr__ = value_repr

    kind: FileProblemKind
    message: str
    span: Span
    encoding: str | None = None


@attrs.frozen
class ModuleFacts:
    """Everything the extractors read from one file.

    `problem` is set when the file could not be read completely; `imports` then holds what
    could still be read (for SYNTAX), or nothing (ENCODING, UNDECODABLE, LIMIT).
    `grammar` names the parser that produced the imports (`skeleton`, `ast`, `libcst`).
    `names` are the names the module's top level binds, sorted (`def`, `class`, an
    assignment to one name, an annotated name, what its import statements bind; see
    `inwards_core.extraction.top_names`); empty for a file that could not be read whole.
    `extends_path` is set when the module extends or replaces `__path__`
    (`pkgutil.extend_path`, `__path__ = ...`, `__path__.append(...)`, `__path__ += ...`):
    other distributions or directories may then add modules below it. `registers` are
    the other module names it puts in `sys.modules` (`sys.modules["pkg.cli"] = module`),
    sorted: importable names that no file stands for. `import_hook_line` is the line of
    the first statement that adds a finder to `sys.meta_path` (`sys.meta_path.insert(0,
    Finder())`), 0 when none does: the finder may serve any name below the package. All
    three are read for packages only (an `__init__`), the files Python runs before anything
    below them.
    """

    __repr__ = value_repr

    imports: tuple[ImportFact, ...] = ()
    dynamic_imports: tuple[DynamicImportFact, ...] = ()
    suppressions: tuple[SuppressionComment, ...] = ()
    problem: FileProblem | None = None
    grammar: str = ""
    line_count: int = 0
    names: tuple[str, ...] = ()
    extends_path: bool = False
    registers: tuple[str, ...] = ()
    import_hook_line: int = 0
    # Only in the facts a content read gives (`extract(content=True)`); None elsewhere, so
    # the entries of a run without content rules are what they were before they existed.
    content: ContentFacts | None = None
