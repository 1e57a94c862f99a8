"""INW017's checks of the diagrams themselves: node ids that name no layer or context,
labels that name no module (or another layer's), what could not be read, a second diagram
of one sort in a file, a contexts diagram without contexts."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import Config, ProjectModel, Span, Violation, parse_module_pattern, quoted
from inwards_core import DiagramNode as Node
from inwards_core.families.inw.contexts.context_map import ContextMap
from inwards_core.families.inw.diagrams.labels import module_parts
from inwards_core.families.inw.diagrams.name_hints import (
    closest_name,
    known_names,
    params,
)
from inwards_core.families.inw.diagrams.reading import (
    Marked,
    kind_word,
    names_of,
    parse_diagrams,
)
from inwards_core.families.inw.diagrams.standing import drawn

# What could not be read is reported up to this many times per diagram, then counted: a
# file that is not a diagram at all (or a hostile one) gives one problem per line.
MAX_PROBLEMS = 20


def diagram_name_violations(model: ProjectModel) -> Iterator[Violation]:
    parsed = model.shared(parse_diagrams)
    for marked in parsed.marked:
        yield from _one_diagram(model, marked)
    for block in parsed.extra:
        sort = kind_word(block.kind)
        yield _at(
            block.file,
            block.line,
            block.column,
            f"This file already holds a {block.kind} diagram, so this second one is not read: "
            "inwards reads one layers and one contexts diagram per file.",
            params(sort=sort),
            variant="unread",
        )


def _one_diagram(model: ProjectModel, marked: Marked) -> Iterator[Violation]:
    diagram, config = marked.diagram, model.config
    sort = kind_word(diagram.kind)
    for problem in diagram.problems[:MAX_PROBLEMS]:
        yield _at(
            diagram.file,
            problem.line,
            problem.column,
            f"Part of this {diagram.kind} diagram could not be read: {problem.message}.",
            params(sort=sort),
            variant="unread",
        )
    if len(diagram.problems) > MAX_PROBLEMS:
        yield _at(
            diagram.file,
            marked.line,
            marked.column,
            f"{len(diagram.problems) - MAX_PROBLEMS:,} more parts of this {diagram.kind} "
            f"diagram could not be read (the first {MAX_PROBLEMS} are reported).",
            params(sort=sort),
            variant="unread",
        )
    names = names_of(config, diagram.kind)
    if not names:
        yield _at(
            diagram.file,
            marked.line,
            marked.column,
            "This contexts diagram has nothing to be compared with: [tool.inwards] declares "
            "no contexts.",
            params(sort=sort),
            variant="unread",
        )
        return
    owners = _Owners(model, diagram.kind)
    stands = drawn(model, diagram).names
    for node in diagram.nodes:
        if node.external:
            continue
        standing = stands.get(node.id)
        if standing is None and not node.container:
            yield _unknown_node(config, diagram.file, diagram.kind, node)
        if node.label is not None:
            yield from _label(model, owners, diagram.file, node, node.label, standing)


def _unknown_node(config: Config, file: str, kind: str, node: Node) -> Violation:
    sort = "layer" if kind == "layers" else "context"
    names = names_of(config, "layers" if kind == "layers" else "contexts")
    closest = closest_name(node.id, names)
    shown = quoted(node.id)
    stable = f'Node "{shown}" of this {kind} diagram names no {sort} of [tool.inwards]'
    known = known_names(config, sort)
    if closest:
        message = f'{stable}; did you mean "{quoted(closest)}"?'
    else:
        message = f"{stable}: the {kind} are {known}."
    return _at(
        file,
        node.line,
        node.column,
        message,
        params(name=shown, closest=quoted(closest), known=known, sort=sort),
        stable=stable + ".",
    )


class _Owners:
    """Which layer or context owns a module a label names."""

    def __init__(self, model: ProjectModel, kind: str) -> None:
        self.model = model
        self.kind = kind
        self._above: frozenset[str] | None = None
        config = model.config
        if kind == "layers":
            self.entries = {entry: layer.name for layer in config.layers for entry in layer.modules}
        else:
            self.entries = {
                entry: context.name for context in config.contexts for entry in context.modules
            }
            self.contexts = ContextMap(config.contexts)

    def owner(self, part: str) -> str | None:
        if part in self.entries:
            return self.entries[part]
        if "*" in part:
            return None
        if self.kind == "layers":
            layer = self.model.index.layer_of(part)
            return layer.name if layer is not None else None
        context = self.contexts.owner(part)
        return context.name if context is not None else None

    def exists(self, part: str) -> bool:
        index = self.model.index
        if part in self.entries or index.module(part) is not None or index.exists(part):
            return True
        if "*" not in part:
            return part in self._packages()
        pattern = parse_module_pattern(part)
        return any(pattern.matches(name) for name in index.modules)

    def _packages(self) -> frozenset[str]:
        """Every name with a module below it (a directory without `__init__` included),
        gathered once: a label is looked up without a pass over every module."""
        if self._above is None:
            self._above = frozenset(
                name[:at]
                for name in self.model.index.modules
                for at, char in enumerate(name)
                if char == "."
            )
        return self._above


def _label(
    model: ProjectModel, owners: _Owners, file: str, node: Node, text: str, standing: str | None
) -> Iterator[Violation]:
    sort = "layer" if owners.kind == "layers" else "context"
    shown = quoted(node.id)
    line, column = node.label_position
    for part in module_parts(text):
        if not owners.exists(part):
            closest = _closest_module(model, part)
            stable = f'The label "{quoted(part)}" of node "{shown}" names no module of the project'
            hint = f'; did you mean "{quoted(closest)}"?' if closest else "."
            yield _at(
                file,
                line,
                column,
                stable + hint,
                params(name=quoted(part), closest=quoted(closest), sort=sort),
                stable=stable + ".",
                variant="label",
            )
            continue
        owner = owners.owner(part) if standing is not None else None
        if standing is not None and owner is not None and owner != standing:
            yield _at(
                file,
                line,
                column,
                f'The label "{quoted(part)}" of node "{shown}" names modules of {sort} '
                f'"{quoted(owner)}", not of {sort} "{quoted(standing)}".',
                params(name=quoted(part), closest=quoted(owner), sort=sort),
                variant="label",
            )


def _closest_module(model: ProjectModel, part: str) -> str:
    """The module `part` was probably meant to name (a typo away), or ""."""
    if "*" in part:
        return ""
    for candidate in model.index.closest_modules(part, 3):
        if closest_name(part, (candidate,)) == candidate:
            return candidate
    return ""


def _at(
    file: str,
    line: int,
    column: int,
    message: str,
    given: dict[str, str],
    *,
    stable: str = "",
    variant: str = "",
) -> Violation:
    return Violation(
        file=file,
        module=None,
        span=Span(line, column, line, column + 1),
        message=message,
        params=given,
        stable_message=stable,
        variant=variant,
    )
