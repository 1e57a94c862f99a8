"""Read the flowchart subset of Mermaid (`flowchart`/`graph`) into a `Diagram`.

Read: node ids with their shapes and labels (quoted, bare, markdown strings, `@{ label: }`),
`:::external` and `class a,b external`, subgraphs (the subgraph id is a node too), links
(solid `-->`/`==>`, dotted `-.->`, open `---`, two-way `<-->`/`o--o`/`x--x`, other), edge
text (`-->|t|`, `-- t -->`), `&` fan-out, chains, `;` separators, comments. Skipped:
directives, styling and accessibility statements, front matter. A statement stays on its
line, except a quoted label, which may run over up to 20 lines.

Every scan moves forward over the text and each search (`str.find`) starts where the last
one ended, so a line is read in time linear in its length whatever it holds.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from inwards_core.families.inw.diagrams.model import (
    MAX_LINE,
    Diagram,
    DiagramBuilder,
    DiagramKind,
    Edge,
    EdgeStyle,
    Node,
)

MAX_QUOTED_LINES = 20
_SKIPPED = frozenset(
    ("classDef", "style", "linkStyle", "click", "direction", "accTitle", "accDescr", "callback")
)
_HEADERS = frozenset(("flowchart", "graph", "flowchart-elk"))
# Opening bracket runs, longest first, and the text that closes each.
_SHAPES: tuple[tuple[str, str], ...] = (
    ("(((", ")))"),
    ("((", "))"),
    ("([", "])"),
    ("[[", "]]"),
    ("[(", ")]"),
    ("[/", "]"),
    ("[\\", "]"),
    ("{{", "}}"),
    ("[", "]"),
    ("(", ")"),
    ("{", "}"),
    (">", "]"),
)
_LINK_BODY = frozenset("-=.~")


class _Text:
    """One statement's text (offsets as in its lines joined by line breaks; what comes
    before the statement blanked out) and where each offset stands in the file."""

    def __init__(self, text: str, starts: Sequence[int], lines: Sequence[int]) -> None:
        self.text = text
        self._starts = starts
        self._lines = lines

    def at(self, offset: int) -> tuple[int, int]:
        row = max(0, bisect.bisect_right(self._starts, offset) - 1)
        return self._lines[row], offset - self._starts[row] + 1


def parse_mermaid(lines: Sequence[str], first_line: int, kind: DiagramKind, file: str) -> Diagram:
    """The diagram drawn by a Mermaid block whose first line is line `first_line` of `file`;
    never raises: what can't be read is a problem in the result."""
    builder = DiagramBuilder()
    reader = _Reader(builder)
    for statement in _statements(lines, first_line, builder):
        if not reader.started:
            reader.header(statement)
            if reader.refused:
                break
        else:
            reader.statement(statement)
    if not reader.started and not reader.refused:
        builder.problem(first_line, 1, "no `flowchart` or `graph` header: nothing is read")
    return builder.build(kind, file)


def _statements(lines: Sequence[str], first_line: int, builder: DiagramBuilder) -> list[_Text]:
    """The block's statements, comments and front matter left out."""
    found: list[_Text] = []
    index = 0
    front_matter = False
    seen_any = False
    while index < len(lines):
        line = lines[index]
        number = first_line + index
        index += 1
        if len(line) > MAX_LINE:
            builder.problem(number, 1, f"line longer than {MAX_LINE:,} characters: not read")
            continue
        stripped = line.strip()
        if stripped == "---" and (front_matter or not seen_any):
            front_matter = not front_matter
            seen_any = True
            continue
        if front_matter or not stripped or stripped.startswith("%%"):
            continue
        seen_any = True
        parts, starts, numbers = [line], [0], [number]
        quotes = line.count('"')
        while quotes % 2 and len(parts) < MAX_QUOTED_LINES and index < len(lines):
            line = lines[index]
            if len(line) > MAX_LINE:
                break
            starts.append(starts[-1] + len(parts[-1]) + 1)
            numbers.append(first_line + index)
            parts.append(line)
            quotes += line.count('"')
            index += 1
        text = "\n".join(parts)
        if quotes % 2:
            builder.problem(number, 1, "unterminated quote: the statement is not read")
            continue
        found += _split(text, starts, numbers)
    return found


def _split(text: str, starts: list[int], numbers: list[int]) -> list[_Text]:
    """Split on `;` outside quotes and brackets; each piece keeps its offsets."""
    pieces: list[_Text] = []
    depth = 0
    quoted = False
    begin = 0
    for offset, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "[({":
            depth += 1
        elif char in "])}":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0:
            pieces.append(_piece(text, begin, offset, starts, numbers))
            begin = offset + 1
    pieces.append(_piece(text, begin, len(text), starts, numbers))
    return [piece for piece in pieces if piece.text.strip()]


def _piece(text: str, begin: int, end: int, starts: list[int], numbers: list[int]) -> _Text:
    # Padded with spaces up to `begin`, so that offsets stay those of `text`.
    return _Text(" " * begin + text[begin:end], starts, numbers)


class _Reader:
    def __init__(self, builder: DiagramBuilder) -> None:
        self.builder = builder
        self.started = False
        self.refused = False
        self.depth = 0

    def header(self, statement: _Text) -> None:
        """`flowchart`/`graph` and a direction start the diagram; anything else is another
        sort of diagram, not read."""
        words = statement.text.split()
        if words[0] in _HEADERS:
            self.started = True
            return
        self.refused = True
        offset = len(statement.text) - len(statement.text.lstrip())
        line, column = statement.at(offset)
        self.builder.problem(
            line, column, f"`{words[0][:40]}` is not a flowchart: only flowcharts are read"
        )

    def statement(self, statement: _Text) -> None:
        text = statement.text
        start = len(text) - len(text.lstrip())
        word = text[start:].split(maxsplit=1)[0]
        if word in _SKIPPED or word.startswith(("accTitle:", "accDescr:", "accDescr{")):
            return
        if word == "class":
            self._class(text[start + len(word) :])
            return
        if word == "subgraph":
            self.depth += 1
            self._subgraph(statement, start + len(word))
            return
        if word == "end" and text[start:].strip() == "end":
            if self.depth == 0:
                self._problem(statement, start, "`end` without a `subgraph`")
            self.depth = max(0, self.depth - 1)
            return
        _Links(self.builder, statement).read(start)

    def _class(self, rest: str) -> None:
        parts = rest.split()
        if len(parts) >= 2 and "external" in parts[-1].split(","):
            for name in parts[0].split(","):
                self.builder.mark_external(name)

    def _subgraph(self, statement: _Text, start: int) -> None:
        text = statement.text
        offset = _skip_space(text, start)
        if offset < len(text) and text[offset] == '"':
            return  # a title only: no id the rules could name
        links = _Links(self.builder, statement)
        found = links.node(offset)
        if found is None:
            self._problem(statement, offset, "a subgraph without a readable id")
            return
        title = _skip_space(text, found[1])
        if text.startswith("[", title):  # `subgraph id [title]`: a space before the title
            shaped = links.shape(title)
            if shaped is not None and shaped[0] is not None:
                line, column = statement.at(offset)
                self.builder.node(Node(found[0], shaped[0], line, column))

    def _problem(self, statement: _Text, offset: int, message: str) -> None:
        line, column = statement.at(offset)
        self.builder.problem(line, column, message)


def _skip_space(text: str, offset: int) -> int:
    while offset < len(text) and text[offset] in " \t\n":
        offset += 1
    return offset


def _is_id_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _id_end(text: str, offset: int) -> int:
    """Where a node id starting at `offset` ends: letters, digits, `_`, and `.`/`-` that do
    not begin a link."""
    end = offset
    while end < len(text):
        char = text[end]
        if _is_id_char(char):
            end += 1
        elif char in ".-" and end > offset:
            after = text[end + 1] if end + 1 < len(text) else ""
            if not _is_id_char(after):
                break
            end += 1
        else:
            break
    return end


def _run_end(text: str, offset: int) -> int:
    while offset < len(text) and text[offset] in _LINK_BODY:
        offset += 1
    return offset


def _style(head: str, body: str, tail: str) -> EdgeStyle:
    chars = set(body)
    if chars == {"~"}:
        return "other"
    if head and head == ("<" if tail == ">" else tail):
        return "two-way"
    if head:
        return "other"
    if tail == ">":
        if "." in chars:
            return "dotted"
        return "solid" if chars in ({"-"}, {"="}) else "other"
    if tail:
        return "other"
    if "." in chars:
        return "dotted"
    return "open" if len(body) >= 3 and chars in ({"-"}, {"="}) else "other"


class _Links:
    """Reads one statement of nodes and links: `a & b --> c -.->|t| d`."""

    def __init__(self, builder: DiagramBuilder, statement: _Text) -> None:
        self.builder = builder
        self.statement = statement
        self.text = statement.text

    def read(self, offset: int) -> None:
        group, offset = self.group(offset)
        if group is None:
            self.problem(offset, "no node id here: the statement is not read")
            return
        while (offset := _skip_space(self.text, offset)) < len(self.text):
            link = self.link(offset)
            if link is None:
                self.problem(offset, "no link here: the rest of the statement is not read")
                return
            style, label, end = link
            targets, after = self.group(end)
            if targets is None:
                self.problem(after, "a link without a target: the rest is not read")
                return
            line, column = self.statement.at(offset)
            for source in group:
                for target in targets:
                    self.builder.edge(Edge(source, target, style, line, column, label))
            group, offset = targets, after

    def group(self, offset: int) -> tuple[list[str] | None, int]:
        """Node ids joined by `&`, and where they end; None when no id stands there."""
        ids: list[str] = []
        while True:
            offset = _skip_space(self.text, offset)
            found = self.node(offset)
            if found is None:
                return None, offset
            ids.append(found[0])
            offset = found[1]
            after = _skip_space(self.text, offset)
            if after < len(self.text) and self.text[after] == "&":
                offset = after + 1
                continue
            return ids, offset

    def node(self, offset: int) -> tuple[str, int] | None:
        """Reads a node (id, shape, label, class), records it and returns its id and end."""
        text = self.text
        end = _id_end(text, offset)
        if end == offset:
            return None
        node_id = text[offset:end]
        label: str | None = None
        if text.startswith("@{", end):
            label, end = self.shape_object(end + 2)
        else:
            shaped = self.shape(end)
            if shaped is not None:
                label, end = shaped
        external = False
        if text.startswith(":::", end):
            name_end = _id_end(text, end + 3)
            external = "external" in text[end + 3 : name_end].split(",")
            end = name_end
        line, column = self.statement.at(offset)
        self.builder.node(Node(node_id, label, line, column, external))
        return node_id, end

    def shape(self, offset: int) -> tuple[str | None, int] | None:
        """The label of a bracketed shape at `offset` and where the shape ends; None when no
        shape starts there."""
        text = self.text
        for opening, closing in _SHAPES:
            if not text.startswith(opening, offset):
                continue
            start = offset + len(opening)
            inner = _skip_space(text, start)
            if inner < len(text) and text[inner] == '"':
                quote_end = text.find('"', inner + 1)
                label_text = text[inner + 1 : max(quote_end, inner + 1)]
                close = text.find(closing, quote_end + 1) if quote_end >= 0 else -1
            else:
                close = text.find(closing, start)
                label_text = text[start : max(close, start)].rstrip("/\\")
            if close < 0:
                self.problem(offset, f"`{opening}` is never closed by `{closing}`")
                return None, len(text)
            return _label(label_text), close + len(closing)
        return None

    def shape_object(self, offset: int) -> tuple[str | None, int]:
        """`@{ shape: x, label: "text" }`: the label, and where the object ends."""
        close = self.text.find("}", offset)
        if close < 0:
            self.problem(offset, "`@{` is never closed by `}`")
            return None, len(self.text)
        body = self.text[offset:close]
        at = body.find("label:")
        if at < 0:
            return None, close + 1
        value = body[at + len("label:") :].strip()
        quoted = value.startswith('"')
        value = value[1:].partition('"')[0] if quoted else value.partition(",")[0]
        return _label(value), close + 1

    def link(self, offset: int) -> tuple[EdgeStyle, str, int] | None:
        """The link at `offset`: its style, its text and where it ends."""
        text = self.text
        id_end = _id_end(text, offset)
        if id_end > offset and text.startswith("@", id_end):
            offset = id_end + 1  # an edge id, `e1@-->`
        head = ""
        if text.startswith("<", offset):
            head, offset = "<", offset + 1
        elif (
            text[offset : offset + 1] in ("o", "x") and text[offset + 1 : offset + 2] in _LINK_BODY
        ):
            head, offset = text[offset], offset + 1
        body_end = _run_end(text, offset)
        body = text[offset:body_end]
        if not body:
            return None
        tail, end = self.tail(body_end)
        label = ""
        if not tail and not head and body in _TEXT_OPENERS and text[end : end + 1] in (" ", "\t"):
            close = text.find(_TEXT_OPENERS[body], end)
            if close < 0:
                return None
            label = text[end:close].strip()
            close_end = _run_end(text, close)
            body += text[close:close_end]
            tail, end = self.tail(close_end)
        after = _skip_space(text, end)
        if text.startswith("|", after):
            close = text.find("|", after + 1)
            if close < 0:
                return None
            label, end = text[after + 1 : close].strip(), close + 1
        return _style(head, body, tail), label, end

    def tail(self, offset: int) -> tuple[str, int]:
        char = self.text[offset : offset + 1]
        if char == ">":
            return char, offset + 1
        if char in ("o", "x") and not _is_id_char(self.text[offset + 1 : offset + 2] or " "):
            return char, offset + 1
        return "", offset

    def problem(self, offset: int, message: str) -> None:
        line, column = self.statement.at(min(offset, max(0, len(self.text) - 1)))
        self.builder.problem(line, column, message)


_TEXT_OPENERS = {"--": "--", "==": "==", "-.": ".-"}


def _label(text: str) -> str | None:
    """A label as shown: markdown-string backticks removed, spaces trimmed; None if empty."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "`":
        text = text[1:-1].strip()
    return text or None
