"""Mermaid flowchart statements, read token by token: node ids with their shapes and
labels, `&` groups, links with their style and text. Each scan moves forward from where the
last one ended, and each `str.find` starts there too: a statement is read in linear time."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from inwards_core.diagrams.model import DiagramBuilder, Edge, EdgeStyle, Node

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


class Statement:
    """One statement's text, cut at `base` from its lines joined by line breaks (`starts`:
    where each line begins in the joined text, `lines`: its number in the file), and where
    each of its offsets stands in the file."""

    def __init__(self, text: str, base: int, starts: Sequence[int], lines: Sequence[int]):
        self.text = text
        self._base = base
        self._starts = starts
        self._lines = lines

    def at(self, offset: int) -> tuple[int, int]:
        offset += self._base
        row = max(0, bisect.bisect_right(self._starts, offset) - 1)
        return self._lines[row], offset - self._starts[row] + 1


def skip_space(text: str, offset: int) -> int:
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


class LinkReader:
    """Reads one statement of nodes and links: `a & b --> c -.->|t| d`."""

    def __init__(self, builder: DiagramBuilder, statement: Statement) -> None:
        self.builder = builder
        self.statement = statement
        self.text = statement.text

    def read(self, offset: int) -> None:
        group, offset = self.group(offset)
        if group is None:
            self.problem(offset, "no node id here: the statement is not read")
            return
        while (offset := skip_space(self.text, offset)) < len(self.text):
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
            offset = skip_space(self.text, offset)
            found = self.node(offset)
            if found is None:
                return None, offset
            ids.append(found[0])
            offset = found[1]
            after = skip_space(self.text, offset)
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
            inner = skip_space(text, start)
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
        if not tail and not head and body in _TEXT_OPENERS:  # `-- text -->`
            close = text.find(_TEXT_OPENERS[body], end)
            if close < 0:
                return None
            label = text[end:close].strip()
            close_end = _run_end(text, close)
            body += text[close:close_end]
            tail, end = self.tail(close_end)
        after = skip_space(text, end)
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
