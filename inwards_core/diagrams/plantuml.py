"""Read the component/package/deployment subset of PlantUML, and C4-PlantUML's elements and
relations, into a `Diagram`.

Read: elements (`component`, `package`, `node`, ... and `[label]`), named by their alias
when `as X` gives one, containers (`{` ... `}`), arrows (`->`, `-->`, `-up->`, `-[#red]->`,
`..>`, `--`, `<-->`, and reversed `<--`, stored pointing the way they point), their
`: label`, and C4's `Person`/`System`/`Container`/`Component`/`*_Boundary` elements and
`Rel`/`Rel_U`.../`Rel_Back`/`BiRel` relations. External: an element with the stereotype
`<<external>>`, C4's `*_Ext` elements and `Person`. Skipped: comments, preprocessor lines,
`skinparam`, titles, `legend`/`note` blocks, and every line of another sort (a sequence or
activity diagram gives no node). Each line is scanned forward once: linear in its length.
"""

from __future__ import annotations

from collections.abc import Sequence

from inwards_core.diagrams.model import (
    MAX_LINE,
    Diagram,
    DiagramBuilder,
    DiagramKind,
    Edge,
    EdgeStyle,
    Node,
)

_ELEMENTS = frozenset(
    (
        "component", "package", "node", "folder", "frame", "rectangle", "cloud", "database",
        "interface", "artifact", "card", "queue", "stack", "storage", "file", "agent",
        "actor", "boundary", "collections", "entity", "hexagon", "person", "usecase",
        "control", "namespace",
    )
)  # fmt: skip
_SKIPPED = frozenset(
    (
        "title", "hide", "show", "remove", "scale", "caption", "header",
        "footer", "skinparam", "allowmixing", "together", "sprite", "newpage", "mainframe",
    )
)  # fmt: skip
# Blocks skipped whole: what opens them and what ends them.
_BLOCKS = {"legend": "endlegend", "header": "endheader", "footer": "endfooter"}
_C4_ELEMENTS = ("Person", "System", "Container", "Component", "Node", "Deployment_Node")
_DIRECTIONS = ("up", "down", "left", "right", "u", "d", "l", "r", "le", "ri", "do")
_HEADS = ("<|", "<", "*", "o", "+", "#", "}")
_TAILS = ("|>", ">", "*", "o", "+", "#", "{")


def parse_plantuml(lines: Sequence[str], first_line: int, kind: DiagramKind, file: str) -> Diagram:
    """The diagram drawn by a PlantUML block whose first line is line `first_line` of `file`;
    never raises: what can't be read is a problem in the result."""
    builder = DiagramBuilder()
    reader = _Lines(builder)
    for index, raw in enumerate(lines):
        number = first_line + index
        if len(raw) > MAX_LINE:
            builder.problem(number, 1, f"line longer than {MAX_LINE:,} characters: not read")
            continue
        reader.line(raw, number)
    if reader.in_comment:
        builder.problem(reader.comment_line, 1, "a `/'` comment is never closed by `'/`")
    return builder.build(kind, file)


class _Lines:
    """What the lines before this one opened: a block comment, a skipped block, containers."""

    def __init__(self, builder: DiagramBuilder) -> None:
        self.builder = builder
        self.in_comment = False
        self.comment_line = 0
        self.skip_until: str | None = None
        self.depth = 0

    def line(self, raw: str, number: int) -> None:
        line = raw.strip()
        if self.in_comment:
            self.in_comment = "'/" not in line
            return
        if line.startswith("/'"):
            if "'/" not in line[2:]:
                self.in_comment, self.comment_line = True, number
            return
        if self.skip_until is not None:
            if line.lower().replace(" ", "").startswith(self.skip_until):
                self.skip_until = None
            return
        if not line or line[0] in "'@!":
            return
        word = line.split(maxsplit=1)[0].lower()
        if self._opens_block(word, line):
            return
        if word in _SKIPPED:
            return
        if line.startswith("}"):
            if self.depth == 0:
                self.builder.problem(number, raw.index("}") + 1, "`}` closes no container")
            self.depth = max(0, self.depth - 1)
            self.builder.close_container()
            return
        _Statement(self.builder, raw, number).read()
        if line.endswith("{"):
            self.depth += 1
            self.builder.open_container(self._opened(number))

    def _opened(self, number: int) -> str:
        """The container the line `number` drew ("" when it drew none)."""
        for node in reversed(self.builder.nodes.values()):
            if node.line != number:
                break  # nodes are kept in the order they were drawn: none more on this line
            if node.container:
                return node.id
        return ""

    def _opens_block(self, word: str, line: str) -> bool:
        """Whether the line is skipped, and if it opens a block, where the block ends."""
        if word == "legend" or (word in _BLOCKS and line.lower() == word):
            self.skip_until = _BLOCKS[word]
            return True
        if word in ("skinparam", "style") and line.endswith("{"):
            self.skip_until = "}"
            return True
        if word in ("left", "top") and line.lower().endswith("direction"):
            return True
        if word not in ("note", "hnote", "rnote"):
            return False
        # `note ... : text` and `note "text" as N` stand on one line; others end at `end note`.
        if ":" not in line and not line[len(word) :].lstrip().startswith('"'):
            self.skip_until = "endnote"
        return True


def _skip_space(text: str, offset: int) -> int:
    while offset < len(text) and text[offset] in " \t":
        offset += 1
    return offset


def _is_id_char(char: str) -> bool:
    return len(char) == 1 and (char.isalnum() or char in "_.")


def _word_end(text: str, offset: int) -> int:
    """The end of a name: letters, digits, `_`, and dots between them (`a..b` is a link)."""
    while offset < len(text) and _is_id_char(text[offset]):
        after = text[offset + 1 : offset + 2]
        if text[offset] == "." and not (after.isalnum() or after == "_"):
            break
        offset += 1
    return offset


class _Statement:
    """One line: an element, an arrow, a C4 macro, or something not read."""

    def __init__(self, builder: DiagramBuilder, text: str, number: int) -> None:
        self.builder = builder
        self.text = text
        self.number = number

    def read(self) -> None:
        text = self.text
        start = _skip_space(text, 0)
        word_end = _word_end(text, start)
        word = text[start:word_end]
        if word and text.startswith("(", word_end):
            self.macro(word, word_end + 1)
        elif word.lower() in _ELEMENTS and text[word_end : word_end + 1] in (" ", "\t"):
            self.element(_skip_space(text, word_end))
        else:
            self.arrow_or_element(start)

    def element(self, offset: int) -> None:
        found = self.endpoint(offset, alias=True)
        if found is not None:
            # A `<<external>>` stereotype marks a box outside the project, as `:::external`
            # does in Mermaid.
            rest = self.text[found[2] :]
            external = "<<external>>" in rest.lower()
            container = rest.rstrip().endswith("{")
            self.builder.node(
                Node(found[0], found[1], self.number, offset + 1, external, container=container)
            )

    def arrow_or_element(self, offset: int) -> None:
        left = self.endpoint(offset, alias=False)
        if left is None:
            return
        arrow_at = _skip_space(self.text, left[2])
        arrow = _arrow(self.text, arrow_at)
        if arrow is None:
            if self.text.startswith(("[", '"'), offset):  # `[shop.a] as a`: an element alone
                self.element(offset)
            return
        style, reversed_, arrow_end = arrow
        right_at = _skip_space(self.text, arrow_end)
        right = self.endpoint(right_at, alias=False)
        if right is None:
            self.problem(right_at, "an arrow without a target: not read")
            return
        self.builder.node(Node(left[0], left[1], self.number, offset + 1))
        self.builder.node(Node(right[0], right[1], self.number, right_at + 1))
        label_at = _skip_space(self.text, right[2])
        label = self.text[label_at + 1 :].strip() if self.text.startswith(":", label_at) else ""
        source, target = (right[0], left[0]) if reversed_ else (left[0], right[0])
        self.builder.edge(Edge(source, target, style, self.number, arrow_at + 1, label))

    def endpoint(self, offset: int, *, alias: bool) -> tuple[str, str | None, int] | None:
        """An element's id, label and end: `[label]`, `"label"`, `:label:`, `() name`, a
        bare name; with `alias`, an `as X` (or `X as "label"`) after it."""
        text = self.text
        if text.startswith("()", offset):
            offset = _skip_space(text, offset + 2)
        opening = text[offset : offset + 1]
        closing = {"[": "]", '"': '"', ":": ":"}.get(opening)
        if closing is not None:
            close = text.find(closing, offset + 1)
            if close < 0:
                if opening != ":":  # `:text;` is an activity, not an actor
                    self.problem(offset, f"`{opening}` is never closed by `{closing}`: not read")
                return None
            label: str | None = text[offset + 1 : close].strip()
            node_id, end = label or "", close + 1
        else:
            end = _word_end(text, offset)
            label, node_id = None, text[offset:end]
        if not node_id:
            return None
        if alias:
            node_id, label, end = self.alias(node_id, label, end)
        return node_id, label, end

    def alias(self, node_id: str, label: str | None, end: int) -> tuple[str, str | None, int]:
        text = self.text
        after = _skip_space(text, end)
        if not (text.startswith("as", after) and text[after + 2 : after + 3] in (" ", "\t")):
            return node_id, label, end
        named = self.endpoint(_skip_space(text, after + 2), alias=False)
        if named is None:
            return node_id, label, end
        if named[1] is not None and text[_skip_space(text, after + 2)] == '"':
            return node_id, named[1], named[2]  # `X as "label"`
        return named[0], label if label is not None else node_id, named[2]

    def macro(self, name: str, offset: int) -> None:
        """C4-PlantUML: an element (`Container(alias, "label", ...)`) or a relation
        (`Rel(from, to, "label")`); other macros are not read."""
        close = self.text.rfind(")")
        if close < offset:
            self.problem(offset - 1, f"`{name}(` is never closed: not read")
            return
        args = _arguments(self.text[offset:close])
        if not args[0] or (len(args) < 2 and not name.endswith("Boundary")):
            return
        if name.startswith(("Rel", "BiRel")):
            style: EdgeStyle = "two-way" if name.startswith("BiRel") else "solid"
            source, target = args[0], args[1]
            if not target:
                return
            if name.startswith("Rel_Back"):
                source, target = target, source
            text = args[2] if len(args) > 2 else ""
            self.builder.edge(Edge(source, target, style, self.number, offset - len(name), text))
        elif name.startswith(_C4_ELEMENTS) or name.endswith("Boundary"):
            label = args[1] if len(args) > 1 else None
            start = _skip_space(self.text, 0) + 1
            # C4's `*_Ext` elements and people are outside the system drawn.
            external = name.endswith("_Ext") or name.startswith("Person")
            container = name.endswith("Boundary")
            self.builder.node(
                Node(args[0], label or None, self.number, start, external, container=container)
            )

    def problem(self, offset: int, message: str) -> None:
        self.builder.problem(self.number, offset + 1, message)


def _arguments(text: str) -> list[str]:
    """Comma-separated arguments, commas inside quotes or brackets kept; quotes removed."""
    found: list[str] = []
    depth, quoted, begin = 0, False, 0
    for offset, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            found.append(text[begin:offset])
            begin = offset + 1
    found.append(text[begin:])
    return [arg.strip().strip('"').strip() for arg in found]


def _arrow(text: str, offset: int) -> tuple[EdgeStyle, bool, int] | None:
    """The arrow at `offset`: its style, whether it points backwards, and its end."""
    head = next((h for h in _HEADS if text.startswith(h, offset)), "")
    at = offset + len(head)
    body, brackets = "", ""
    while at < len(text):
        char = text[at]
        if char in "-.=":
            body, at = body + char, at + 1
        elif char == "[" and body:
            close = text.find("]", at)
            if close < 0:
                return None
            brackets, at = brackets + text[at + 1 : close].lower(), close + 1
        elif char.isalpha() and body:
            word_end = at
            while word_end < len(text) and text[word_end].isalpha():
                word_end += 1
            if text[at:word_end].lower() not in _DIRECTIONS or text[
                word_end : word_end + 1
            ] not in ("-", "."):
                break
            at = word_end
        else:
            break
    if not body.strip("="):
        return None
    tail = next((t for t in _TAILS if text.startswith(t, at)), "")
    if tail == "o" and _is_id_char(text[at + 1 : at + 2]):
        tail = ""
    return _style(head, body, tail, brackets), head == "<" and not tail, at + len(tail)


def _style(head: str, body: str, tail: str, brackets: str) -> EdgeStyle:
    if "hidden" in brackets:
        return "other"
    if head == "<" and tail == ">":
        return "two-way"
    if (head and head != "<") or (tail and tail != ">"):
        return "other"
    if not head and not tail:
        return "open"
    dotted = "." in body or "dashed" in brackets or "dotted" in brackets
    return "dotted" if dotted else "solid"
