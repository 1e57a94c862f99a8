"""The skeleton: static imports without parsing the whole file.

One C-speed `re` pass skips string literals and comments and finds every `import`
keyword. Each import statement and each block header around an indented one (`def`,
`class`, `if TYPE_CHECKING:`, `else:` ...) is cut out of the text and parsed by CPython's
parser in one small batch; positions are shifted back onto the file. Whenever the text is
not plainly what the skeleton understands, it refuses (returns None) and the caller parses
the whole file: the skeleton is exact where it answers, which the differential test checks.

It does not look at the rest of the file: `extract` checks on its own that the whole
file parses (unless told not to), so a syntax error elsewhere is still reported.

The same machinery, in tolerant mode, recovers the import statements of a file that does
not parse (each statement parsed on its own, context from indentation).
"""

from __future__ import annotations

import ast
import bisect
import keyword
import re
from collections.abc import Mapping

import attrs

from inwards_core.extraction.static import (
    ImportContext,
    facts_of_statement,
    is_type_checking_test,
    resolve_relative,
)
from inwards_core.extraction.text import (
    STRING_BODY,
    ForwardPositions,
    LineColumns,
    statement_text,
)
from inwards_core.model.facts import ImportFact, ImportStyle
from inwards_core.model.findings import Span
from inwards_core.ports import GrammarBinaries

# One match per thing the skeleton must look at: a run of uninteresting text (code,
# comments, one-line strings without an f/t prefix) is consumed inside `re`, possessively
# (no backtracking), and the match ends on an `import` keyword, a string literal that may
# span lines or hold replacement fields, a quote that opens no string, or the end.
_PLAIN_SINGLE = r"'(?!'')[^'\\\n]*+(?:\\[^\n][^'\\\n]*+)*+'"
_PLAIN_DOUBLE = r'"(?!"")[^"\\\n]*+(?:\\[^\n][^"\\\n]*+)*+"'
_UNINTERESTING = (
    r"(?:[^#'\"i]++|#[^\n]*+|i(?!mport\b)|(?<![fFtT])(?<![fFtT][rRbB])(?:"
    + _PLAIN_SINGLE
    + "|"
    + _PLAIN_DOUBLE
    + "))*+"
)
_SCAN = re.compile(_UNINTERESTING + r"(?:(import\b)|(" + STRING_BODY + r")|(['\"])|\Z)", re.S)
# Literal openings only (no groups, no classes): `re` then finds them at C speed.
_BRACKETS = re.compile(r"#[^\n]*|" + STRING_BODY + r"|\(|\[|\{|\)|\]|\}", re.S)
_OPENING = frozenset("([{")
_CLOSING = frozenset(")]}")
_PREFIX_LETTERS = frozenset("rRbBuUfFtT")
_FORMATTED_PREFIX = frozenset("fFtT")

_IMPORT_HEAD = re.compile(r"( *)(?:(lazy) +)?")
_FROM_HEAD = re.compile(r"( *)(?:(lazy) +)?from(?=[ .])[ .\w]*")
_TAIL = re.compile(r"[^\n\\;#()'\"]*")
_CONTINUED_TAIL = re.compile(r"(?:[^\n\\;#()'\"]|\\\n)*")
# Possessive: a comment could otherwise end at any of its characters, and an unclosed
# `(` followed by a few comment lines backtracked exponentially (8 lines: 30 s).
_PARENTHESIZED = re.compile(r"\((?:[^()#'\"\\;]++|#[^\n]*+)*+\)")
_SPACES = re.compile(r"[ \t]*")
_INDENT = re.compile(r" *")
_TAB_INDENT = re.compile(r"^ *\t", re.M)
_HEADER = re.compile(
    r"(async +def|def|class|if|elif|else|try|except|finally|with|async +with|for"
    r"|async +for|while|match|case)\b"
)
_BARE_HEADER = re.compile(r"(?:else|try|finally) *:[ \t]*(?:#[^\n]*)?")
_LOOSE_TYPE_CHECKING = re.compile(r"(?:el)?if +\(?(?:\w+ *\. *)?TYPE_CHECKING *\)? *:")
_MAX_HEADER_LINES = 60

# Import statements in their plain spellings (ASCII, no comment, no backslash) are read
# with these; anything else goes to CPython's parser.
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = _NAME + r"(?:[ \t]*\.[ \t]*" + _NAME + r")*"
_PLAIN_IMPORT = re.compile(
    r"import[ \t]+("
    + _DOTTED
    + r"(?:[ \t]+as[ \t]+"
    + _NAME
    + r")?(?:[ \t]*,[ \t]*"
    + _DOTTED
    + r"(?:[ \t]+as[ \t]+"
    + _NAME
    + r")?)*)"
)
_IMPORT_ITEM = re.compile(r"(" + _DOTTED + r")(?:[ \t]+as[ \t]+(" + _NAME + r"))?")
_FROM_ITEMS = r"{n}(?:{w}+as{w}+{n})?(?:{w}*,{w}*{n}(?:{w}+as{w}+{n})?)*"
_PLAIN_FROM = re.compile(
    r"from[ \t]*(?P<dots>(?:\.[ \t]*)*)(?P<module>"
    + _DOTTED
    + r")?[ \t]+import(?:[ \t]*(?P<star>\*)|[ \t]+(?P<names>"
    + _FROM_ITEMS.format(n=_NAME, w=r"[ \t]")
    + r")|[ \t]*\([ \t\n]*(?P<parenthesized>"
    + _FROM_ITEMS.format(n=_NAME, w=r"[ \t\n]")
    + r")[ \t\n]*,?[ \t\n]*\))"
)
_FROM_ITEM = re.compile(r"(" + _NAME + r")(?:[ \t\n]+as[ \t\n]+(" + _NAME + r"))?")
_BLANKS = re.compile(r"[ \t\n]+")

_EXPECTED_NODE: dict[str, tuple[type[ast.stmt], ...]] = {
    "def": (ast.FunctionDef,),
    "async def": (ast.AsyncFunctionDef,),
    "class": (ast.ClassDef,),
    "if": (ast.If,),
    "elif": (ast.If,),
    "for": (ast.For,),
    "async for": (ast.AsyncFor,),
    "while": (ast.While,),
    "with": (ast.With,),
    "async with": (ast.AsyncWith,),
    "except": (ast.Try, ast.TryStar),
    "match": (ast.Match,),
    "case": (ast.Match,),
}


def _end(pattern: re.Pattern[str], text: str, position: int) -> int:
    found = pattern.match(text, position)
    return found.end() if found else position


class _Refused(Exception):
    """The skeleton can't vouch for this file."""


@attrs.define
class _Header:
    start: int  # offset of the keyword
    end: int  # offset of the end of the header's last line
    line_start: int
    indent: int
    word: str
    type_checking: bool = False
    function: bool = False


@attrs.define
class _Statement:
    start: int  # offset of `import` / `from` / `lazy`
    keyword: int  # offset of `import` / `from`
    end: int  # offset after the last token
    line: int
    column: int  # 0-based character column of `keyword`
    lazy: bool
    headers: list[_Header]


class _BatchLocator:
    """Maps positions in the batch text back onto the file."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        # per batch line: (offset in the file of batch column 0, file line, file column 0)
        self.bases: list[tuple[int, int, int]] = []
        self._columns: dict[int, LineColumns] = {}

    def add(self, text: str, statement: _Statement, snippet: str) -> None:
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


class Skeleton:
    """Reads the import statements of one text; `strict` for the fast path, otherwise
    tolerant (recovery for files that do not parse)."""

    def __init__(self, text: str, *, strict: bool) -> None:
        self.text = text
        self.strict = strict
        self.strings: list[tuple[int, int]] = []
        self.keywords: list[int] = []
        self._headers: dict[tuple[int, int], _Header | None] = {}
        # Per line start: the nearest line of code above with less indentation (start,
        # first character, end), or None; see `_line_above`.
        self._above: dict[int, tuple[int, int, int] | None] = {}
        self._header_at: dict[int, _Header] = {}  # by the offset of its keyword

    # -- the one pass ------------------------------------------------------------------

    def scan(self) -> None:
        text = self.text
        strict = self.strict
        keywords = self.keywords
        strings = self.strings
        for match in _SCAN.finditer(text):
            kind = match.lastindex
            if kind is None:
                break  # the end of the text
            start, end = match.span(kind)
            if kind == 1:
                if start and ("a" + text[start - 1]).isidentifier():
                    continue  # part of a longer name (`reimport`)
                keywords.append(start)
            elif kind == 2:
                if start and strict and text[start - 1] in _PREFIX_LETTERS:
                    self._check_prefix(start, match.group(2))
                if text.find("\n", start, end) >= 0:
                    strings.append((start, end))
            elif strict:
                raise _Refused("a string that doesn't end")

    def _check_prefix(self, start: int, literal: str) -> None:
        """An f-string (or t-string) could hide quotes of the same kind inside a
        replacement field (Python 3.12); refuse when its braces don't balance."""
        text = self.text
        position = start
        while position > 0 and text[position - 1] in _PREFIX_LETTERS:
            position -= 1
        if position and ("a" + text[position - 1]).isidentifier():
            return  # a name that ends in those letters, not a prefix
        if not _FORMATTED_PREFIX.intersection(text[position:start]):
            return
        body = literal.replace("{{", "").replace("}}", "")
        if body.count("{") != body.count("}"):
            raise _Refused("an f-string that may hold nested quotes")

    def in_string(self, offset: int) -> bool:
        index = bisect.bisect_right(self.strings, (offset, len(self.text) + 1)) - 1
        return index >= 0 and self.strings[index][0] < offset < self.strings[index][1]

    # -- statements --------------------------------------------------------------------

    def statements(self) -> list[_Statement]:
        text = self.text
        found: list[_Statement] = []
        line = 1
        counted = 0
        line_start = 0
        previous: int | None = None
        for found_at in self.keywords:
            # Line starts are found from the previous keyword on, and a keyword on the same
            # line as the previous one starts no statement (`import` can't be a name), so
            # each part of the text is looked at once, however long its lines.
            newline = text.rfind("\n", 0 if previous is None else previous, found_at)
            same_line = newline < 0 and previous is not None
            line_start = newline + 1 if newline >= 0 else line_start
            previous = found_at
            head = None if same_line else _IMPORT_HEAD.fullmatch(text, line_start, found_at)
            is_from = False
            if head is None and not same_line:
                head = _FROM_HEAD.fullmatch(text, line_start, found_at)
                is_from = True
            if head is None or (line_start >= 2 and text[line_start - 2] == "\\"):
                if self.strict:
                    raise _Refused("an import that does not start its line")
                continue
            end = self._statement_end(found_at + 6, is_from)
            if end is None:
                if self.strict:
                    raise _Refused("an import statement the skeleton can't delimit")
                continue
            line += text.count("\n", counted, line_start)
            counted = line_start
            indent = len(head.group(1))
            lazy = head.group(2) is not None
            first = line_start + indent
            after_lazy = _end(_SPACES, text, first + 4) if lazy else first
            statement = _Statement(
                start=first,
                keyword=after_lazy,
                end=end,
                line=line,
                column=after_lazy - line_start,
                lazy=lazy,
                headers=[],
            )
            if indent:
                chain = self._header_chain(line_start, indent)
                if chain is None:
                    if self.strict:
                        raise _Refused("a block the skeleton can't place")
                    chain = []
                statement.headers = chain
            found.append(statement)
        return found

    def _statement_end(self, after: int, is_from: bool) -> int | None:
        text = self.text
        end = _end(_TAIL, text, after)
        following = text[end : end + 1]
        if following == "\\":
            end = _end(_CONTINUED_TAIL, text, after)
            following = text[end : end + 1]
        if following == "(" and is_from:
            parenthesized = _PARENTHESIZED.match(text, end)
            if parenthesized is None:
                return None
            end = parenthesized.end()
            rest = _end(_SPACES, text, end)
            if text[rest : rest + 1] not in ("", "\n", "#"):
                return None
            return end
        if following not in ("", "\n", "#"):
            return None
        return after + len(text[after:end].rstrip(" \t"))

    # -- where a statement stands -------------------------------------------------------

    def _header_chain(self, line_start: int, indent: int) -> list[_Header] | None:
        chain: list[_Header] = []
        while indent > 0:
            header = self._enclosing(line_start, indent)
            if header is None:
                return None
            chain.append(header)
            line_start, indent = header.line_start, header.indent
        return chain

    def _enclosing(self, line_start: int, indent: int) -> _Header | None:
        key = (line_start, indent)
        if key in self._headers:
            return self._headers[key]
        header = self._find_enclosing(line_start, indent)
        self._headers[key] = header
        return header

    def _find_enclosing(self, line_start: int, indent: int) -> _Header | None:
        """The block header whose body holds the logical line at `line_start`: the
        nearest logical line above with a smaller indentation."""
        text = self.text
        above = self._line_above(line_start, indent)
        if above is None:
            return None
        start, first, end = above
        if start >= 2 and text[start - 2] == "\\":
            return None
        if text[first] in ")]}":
            logical = self._logical_start(start, end)
            if logical is None:
                return None
            start, first = logical
            if first - start >= indent:
                return None
        if text[end - 1 : end] == "\\":
            return None
        known = self._header_at.get(first)
        if known is not None:
            return known  # one header, however many statements its body holds
        word = _HEADER.match(text, first)
        if word is None:
            return None
        header = _Header(
            start=first,
            end=end,
            line_start=start,
            indent=first - start,
            word=" ".join(word.group(1).split()),
        )
        self._header_at[first] = header
        return header

    def _line_above(self, line_start: int, indent: int) -> tuple[int, int, int] | None:
        """The nearest line of code above `line_start` indented less than `indent`: (its
        start, its first character, its end); None at the top of the file.

        Each answer is kept for the line asked about, when `indent` is that line's own.
        A line passed on the way that has such an answer is jumped over to it: the lines
        between are all indented at least as deep, so nothing there can be the answer.
        Without that, a thousand imports in one function body each walked back over all
        those before them."""
        text = self.text
        end = line_start - 1
        found: tuple[int, int, int] | None = None
        while end >= 0:
            start = text.rfind("\n", 0, end) + 1
            first = _end(_INDENT, text, start)
            if first == end or text[first] == "#":
                end = start - 1
                continue
            if first - start >= indent:
                if start not in self._above:
                    end = start - 1
                    continue
                jump = self._above[start]
                if jump is None:
                    break
                if jump[1] - jump[0] < indent:
                    found = jump
                    break
                end = jump[2]  # look at that line next: it may have an answer too
                continue
            if self.in_string(start):
                end = start - 1
                continue
            found = (start, first, end)
            break
        if _end(_INDENT, text, line_start) - line_start == indent:
            self._above[line_start] = found
        return found

    def _logical_start(self, start: int, end: int) -> tuple[int, int] | None:
        """Where the logical line holding the closing bracket at `start` begins."""
        text = self.text
        candidate = start
        for _ in range(_MAX_HEADER_LINES):
            if candidate == 0:
                return None
            candidate = text.rfind("\n", 0, candidate - 1) + 1
            if self.in_string(candidate):
                continue
            depth = 0
            lowest = 0
            for match in _BRACKETS.finditer(text, candidate, end):
                opening = text[match.start()]
                if opening in _OPENING:
                    depth += 1
                elif opening in _CLOSING:
                    depth -= 1
                    lowest = min(lowest, depth)
            if lowest >= 0 and depth == 0:
                if candidate >= 2 and text[candidate - 2] == "\\":
                    return None
                first = _end(_INDENT, text, candidate)
                return candidate, first
        return None

    # -- parsing what was cut out ------------------------------------------------------

    def snippet(self, statement: _Statement) -> str:
        return self.text[statement.keyword : statement.end]

    def header_snippet(self, header: _Header) -> str | None:
        """Text that parses as one statement iff the header is what it seems (None for
        `else:` / `try:` / `finally:`, checked by their shape alone)."""
        text = self.text[header.start : header.end]
        word = header.word
        if word in ("else", "try", "finally"):
            if _BARE_HEADER.fullmatch(text) is None:
                raise _Refused("a header the skeleton can't classify")
            return None
        if word == "elif":
            return "if" + text[4:] + "\n pass"
        if word == "except":
            return "try:\n pass\n" + text + "\n pass"
        if word == "match":
            return text + "\n case _:\n  pass"
        if word == "case":
            return "match _:\n " + text + "\n  pass"
        return text + "\n pass"


def _unique_headers(statements: list[_Statement]) -> list[_Header]:
    seen: dict[int, _Header] = {}
    for statement in statements:
        for header in statement.headers:
            seen.setdefault(id(header), header)
    return list(seen.values())


def _classify(header: _Header, node: ast.stmt) -> None:
    if not isinstance(node, _EXPECTED_NODE[header.word]):
        raise _Refused("a header that isn't what it seems")
    if isinstance(node, ast.If):
        header.type_checking = is_type_checking_test(node.test)
    header.function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)


def _context(statement: _Statement) -> ImportContext:
    return ImportContext(
        type_checking=any(h.type_checking for h in statement.headers),
        in_function=any(h.function for h in statement.headers),
    )


def _facts(
    skeleton: Skeleton,
    node: ast.stmt,
    statement: _Statement,
    locator: _BatchLocator,
    module: str,
    is_package: bool,
) -> list[ImportFact]:
    if not isinstance(node, ast.Import | ast.ImportFrom):
        raise _Refused("not an import statement")
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
        context=_context(statement),
        lazy_starts=lazy_starts,
    )


def _is_name(text: str) -> bool:
    return not keyword.iskeyword(text)


_Plain = tuple[ImportStyle, str | None, str | None, str | None, int, Span, str]


def _plain_read(
    text: str, statement: _Statement, module: str, is_package: bool
) -> list[_Plain] | None:
    """An import statement in a plain spelling, read with regular expressions: per name
    (style, module, name, target, level, span, raw module); None for anything else
    (CPython's parser reads those)."""
    snippet = text[statement.keyword : statement.end]
    if not snippet.isascii() or "#" in snippet or "\\" in snippet:
        return None

    line, first_column = statement.line, statement.column + 1
    if "\n" in snippet:
        # Names come in order: each is placed from the previous one on, never from the
        # start of the statement again (that was quadratic in the number of names).
        positions = ForwardPositions(snippet, line, first_column)

        def span_of(start: int, end: int) -> Span:
            at, column = positions.position(start)
            return Span(at, column, at, column + end - start)

    else:

        def span_of(start: int, end: int) -> Span:
            column = first_column + start
            return Span(line, column, line, column + end - start)

    read: list[_Plain] = []
    if snippet.startswith("import"):
        plain = _PLAIN_IMPORT.fullmatch(snippet)
        if plain is None:
            return None
        for item in _IMPORT_ITEM.finditer(snippet, plain.start(1)):
            dotted = _BLANKS.sub("", item.group(1))
            if not all(map(_is_name, dotted.split("."))) or not _is_name(item.group(2) or ""):
                return None
            start, end = item.span(1)
            read.append((ImportStyle.IMPORT, dotted, None, dotted, 0, span_of(start, end), dotted))
        return read
    plain = _PLAIN_FROM.fullmatch(snippet)
    if plain is None:
        return None
    level = plain.group("dots").count(".")
    written = plain.group("module")
    name = _BLANKS.sub("", written) if written else None
    if (name is None and not level) or not all(map(_is_name, (name or "").split("."))):
        return None
    resolved = resolve_relative(module, is_package, level, name)
    raw_module = "." * level + (name or "")
    if plain.group("star"):
        start = plain.start("star")
        star_span = span_of(start, start + 1)
        return [(ImportStyle.STAR, resolved, None, resolved, level, star_span, raw_module)]
    group = "names" if plain.group("names") is not None else "parenthesized"
    for item in _FROM_ITEM.finditer(snippet, plain.start(group), plain.end(group)):
        imported = item.group(1)
        if not _is_name(imported) or not _is_name(item.group(2) or ""):
            return None
        start, end = item.span(1)
        target = f"{resolved}.{imported}" if resolved is not None else None
        read.append(
            (ImportStyle.FROM, resolved, imported, target, level, span_of(start, end), raw_module)
        )
    return read


def _plain_facts(text: str, statement: _Statement, read: list[_Plain]) -> list[ImportFact]:
    context = _context(statement)
    shown = statement_text(text, statement.start, statement.end)
    return [
        ImportFact(
            style=style,
            module=module,
            name=name,
            target=target,
            level=level,
            span=span,
            statement=shown,
            type_checking=context.type_checking,
            in_function=context.in_function,
            lazy=statement.lazy,
            raw_module=raw_module,
        )
        for style, module, name, target, level, span, raw_module in read
    ]


def read_skeleton(
    text: str, *, module: str, is_package: bool, grammars: GrammarBinaries
) -> tuple[ImportFact, ...] | None:
    """The file's static imports, or None when the skeleton can't vouch for them."""
    if "\x00" in text or "\x0c" in text:
        return None
    if "\t" in text and _TAB_INDENT.search(text):
        return None
    skeleton = Skeleton(text, strict=True)
    try:
        skeleton.scan()
        statements = skeleton.statements()
        if not statements:
            return ()
        headers = _unique_headers(statements)
        locator = _BatchLocator()
        pieces: list[str] = []
        plain: list[tuple[_Statement, list[_Plain]]] = []
        parsed: list[_Statement] = []
        for statement in statements:
            read = _plain_read(text, statement, module, is_package)
            if read is not None:
                plain.append((statement, read))
                continue
            snippet = skeleton.snippet(statement)
            pieces.append(snippet)
            locator.add(text, statement, snippet)
            parsed.append(statement)
        checked: list[_Header] = []
        for header in headers:
            check = skeleton.header_snippet(header)
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
            _classify(header, node)
        facts: list[ImportFact] = []
        for statement, node in zip(parsed, body, strict=False):
            facts.extend(_facts(skeleton, node, statement, locator, module, is_package))
        for statement, read in plain:
            facts.extend(_plain_facts(text, statement, read))
    except _Refused:
        return None
    return tuple(facts)


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
