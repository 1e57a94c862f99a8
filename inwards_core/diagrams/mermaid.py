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

from collections.abc import Sequence

from inwards_core.diagrams.mermaid_links import LinkReader, Statement, skip_space
from inwards_core.diagrams.model import (
    MAX_LINE,
    Diagram,
    DiagramBuilder,
    DiagramKind,
    Node,
)

MAX_QUOTED_LINES = 20
_SKIPPED = frozenset(
    ("classDef", "style", "linkStyle", "click", "direction", "accTitle", "accDescr", "callback")
)
_HEADERS = frozenset(("flowchart", "graph", "flowchart-elk"))


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
    for line, column in reader.subgraphs:
        builder.problem(line, column, "`subgraph` never closed by `end`")
    return builder.build(kind, file)


def _statements(lines: Sequence[str], first_line: int, builder: DiagramBuilder) -> list[Statement]:
    """The block's statements, comments and front matter left out."""
    found: list[Statement] = []
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


def _split(text: str, starts: list[int], numbers: list[int]) -> list[Statement]:
    """Split on `;` outside quotes and brackets; each piece keeps its offsets."""
    pieces: list[Statement] = []
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


def _piece(text: str, begin: int, end: int, starts: list[int], numbers: list[int]) -> Statement:
    return Statement(text[begin:end], begin, starts, numbers)


class _Reader:
    def __init__(self, builder: DiagramBuilder) -> None:
        self.builder = builder
        self.started = False
        self.refused = False
        self.subgraphs: list[tuple[int, int]] = []  # where each open subgraph starts
        self.in_description = False

    def header(self, statement: Statement) -> None:
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

    def statement(self, statement: Statement) -> None:
        text = statement.text
        start = len(text) - len(text.lstrip())
        word = text[start:].split(maxsplit=1)[0]
        if self.in_description:  # `accDescr {` ... `}` spans lines
            self.in_description = "}" not in text
            return
        if word.startswith("accDescr") and "{" in text:
            self.in_description = "}" not in text
            return
        if word in _SKIPPED or word.startswith(("accTitle:", "accDescr:")):
            return
        if word == "class":
            self._class(text[start + len(word) :])
            return
        if word == "subgraph":
            self.subgraphs.append(statement.at(start))
            self.builder.open_container(self._subgraph(statement, start + len(word)))
            return
        if word == "end" and text[start:].strip() == "end":
            if self.subgraphs:
                self.subgraphs.pop()
                self.builder.close_container()
            else:
                self._problem(statement, start, "`end` without a `subgraph`")
            return
        LinkReader(self.builder, statement).read(start)

    def _class(self, rest: str) -> None:
        parts = rest.split()
        if len(parts) >= 2 and "external" in parts[-1].split(","):
            for name in parts[0].split(","):
                self.builder.mark_external(name)

    def _subgraph(self, statement: Statement, start: int) -> str:
        """Read `subgraph id [title]`; the id ("" for a title only or no readable id)."""
        text = statement.text
        offset = skip_space(text, start)
        if offset < len(text) and text[offset] == '"':
            return ""  # a title only: no id the rules could name
        links = LinkReader(self.builder, statement)
        found = links.node(offset)
        if found is None:
            self._problem(statement, offset, "a subgraph without a readable id")
            return ""
        self.builder.mark_container(found[0])
        title = skip_space(text, found[1])
        if text.startswith("[", title):  # `subgraph id [title]`: a space before the title
            shaped = links.shape(title)
            if shaped is not None and shaped[0] is not None:
                line, column = statement.at(offset)
                self.builder.node(Node(found[0], shaped[0], line, column))
        return found[0]

    def _problem(self, statement: Statement, offset: int, message: str) -> None:
        line, column = statement.at(offset)
        self.builder.problem(line, column, message)
