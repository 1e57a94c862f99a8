"""The configured architecture as a marked diagram, in Mermaid or PlantUML.

Layers: one box per layer, named by the layer and labelled with its module prefixes, drawn
outermost first; each layer has an arrow to every layer of the next rank inwards (arrows
point the way imports may go, and INW019 reads a longer path as covering the outer pairs
too); siblings share a rank and have no arrow between them, so both notations lay them
side by side. Contexts: one box per context, an arrow per `depends-on` entry.

What is written here is what `blocks`, `mermaid` and `plantuml` read back: the marker
line, a box id that is the layer's (or context's) name when that name is a plain
identifier, and a label `name: module, module` whose module names `inwards import-diagram`
and INW017 read.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from inwards_core.config.values import Config, Layer
from inwards_core.diagrams.blocks import Notation
from inwards_core.diagrams.model import DiagramKind
from inwards_core.rules.layering import RuleLayering

_PLAIN_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Words Mermaid or PlantUML read as a statement where a box id stands.
_RESERVED = frozenset(
    (
        "end", "graph", "flowchart", "subgraph", "class", "classDef", "style", "linkStyle",
        "click", "direction", "default", "as", "component", "package", "node", "title",
    )
)  # fmt: skip
_ABOUT = {
    "layers": "arrows point inwards, from a layer to the layers it may import; "
    "boxes side by side are siblings",
    "contexts": "an arrow for each `depends-on` of a context",
}


def one_line(text: str) -> str:
    """`text` with each character that isn't printable (a line break, a control) shown as
    an escape, so it stays within its line of a diagram or of the brief."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


class NothingToDraw(ValueError):
    """The configuration has nothing of the sort asked for (no contexts)."""


def architecture_diagram(config: Config, kind: DiagramKind, notation: Notation) -> str:
    """The marked diagram of `config`'s layers or contexts; raises `NothingToDraw` for
    contexts when the configuration declares none."""
    boxes, arrows = _layer_graph(config) if kind == "layers" else _context_graph(config)
    if not boxes:
        raise NothingToDraw(f"{config.file} declares no [[tool.inwards.contexts]] to draw")
    ids = _box_ids([name for name, _ in boxes])
    # The file's path is the one text here no check of the configuration has read: a line
    # break in it would end the comment and start a statement.
    about = (
        f"Written by `inwards diagram` from [tool.inwards] of {one_line(config.file)}: "
        f"{_ABOUT[kind]}."
    )
    if notation == "mermaid":
        return _mermaid(kind, about, boxes, arrows, ids)
    return _plantuml(kind, about, boxes, arrows, ids)


def rule_diagram(layering: RuleLayering, source: str, notation: Notation) -> str:
    """The layering a rule checks (`inwards diagram --rule`), drawn as the layers are, from
    the definition in `source`. It carries no marker: the diagram rules compare marked
    diagrams with `[tool.inwards]`, which a rule's layering is not."""
    boxes, arrows = _layers_graph(layering.layers)
    ids = _box_ids([name for name, _ in boxes])
    inside = f", in {', '.join(layering.containers)}" if layering.containers else ""
    chains = " (the rule follows chains of imports too)" if layering.chains else ""
    about = (
        f"Written by `inwards diagram --rule {layering.code}` from {one_line(source)}{inside}: "
        f"{_ABOUT['layers']}{chains}. Not marked: the diagram rules check the layers of "
        "[tool.inwards], not a rule's."
    )
    if notation == "mermaid":
        return _mermaid("layers", about, boxes, arrows, ids, marked=False)
    return _plantuml("layers", about, boxes, arrows, ids, marked=False)


Box = tuple[str, tuple[str, ...]]  # a name and the module prefixes it stands for
Arrows = tuple[tuple[str, tuple[str, ...]], ...]  # a name and the names it points to


def layer_ranks(config: Config) -> list[list[Layer]]:
    """The layers grouped by rank, innermost first (a group of several: siblings)."""
    grouped: dict[int, list[Layer]] = {}
    for layer in config.layers:
        grouped.setdefault(layer.rank, []).append(layer)
    return [grouped[rank] for rank in sorted(grouped)]


def _layer_graph(config: Config) -> tuple[tuple[Box, ...], Arrows]:
    return _layers_graph(config.layers)


def _layers_graph(layers: Sequence[Layer]) -> tuple[tuple[Box, ...], Arrows]:
    grouped: dict[int, list[Layer]] = {}
    for layer in layers:
        grouped.setdefault(layer.rank, []).append(layer)
    outermost_first = [grouped[rank] for rank in sorted(grouped, reverse=True)]
    boxes = tuple((layer.name, layer.modules) for group in outermost_first for layer in group)
    arrows = tuple(
        (layer.name, tuple(inner.name for inner in inward))
        for group, inward in itertools.pairwise(outermost_first)
        for layer in group
    )
    return boxes, arrows


def _context_graph(config: Config) -> tuple[tuple[Box, ...], Arrows]:
    boxes = tuple((context.name, context.modules) for context in config.contexts)
    arrows = tuple(
        (context.name, context.depends_on) for context in config.contexts if context.depends_on
    )
    return boxes, arrows


def _box_ids(names: Sequence[str]) -> dict[str, str]:
    """Each name's box id: the name itself when both notations read it as an id, else the
    name with every other character made `_` (and a number when that is taken)."""
    ids: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        plain = _PLAIN_ID.fullmatch(name) is not None and name not in _RESERVED
        if plain:
            ids[name] = name
            taken.add(name)
    for name in names:
        if name in ids:
            continue
        base = re.sub(r"\W", "_", name, flags=re.ASCII).strip("_") or "box"
        base = base if _PLAIN_ID.fullmatch(base) and base not in _RESERVED else f"box_{base}"
        candidate, number = base, 2
        while candidate in taken:
            candidate, number = f"{base}_{number}", number + 1
        ids[name] = candidate
        taken.add(candidate)
    return ids


def _label(name: str, modules: tuple[str, ...]) -> str:
    """`name: module, module`: the picture shows the name (the box id may differ), and
    the readers take the part before `: ` as prose, never as a module name."""
    return f"{name}: {', '.join(modules)}"


def _mermaid(
    kind: DiagramKind,
    about: str,
    boxes: tuple[Box, ...],
    arrows: Arrows,
    ids: dict[str, str],
    *,
    marked: bool = True,
) -> str:
    lines = [f"%% inwards: {kind}"] if marked else []
    lines += [f"%% {about}", "flowchart TB" if kind == "layers" else "flowchart LR"]
    lines += [f'  {ids[name]}["{_label(name, modules)}"]' for name, modules in boxes]
    # Boxes with the same targets (the siblings of a ring) share one line: `a & b --> c`.
    grouped: list[tuple[list[str], tuple[str, ...]]] = []
    for source, targets in arrows:
        drawn = tuple(ids[target] for target in targets if target in ids)
        if not drawn:
            continue
        if grouped and grouped[-1][1] == drawn:
            grouped[-1][0].append(ids[source])
        else:
            grouped.append(([ids[source]], drawn))
    lines += [f"  {' & '.join(sources)} --> {' & '.join(drawn)}" for sources, drawn in grouped]
    return "\n".join(lines) + "\n"


def _plantuml(
    kind: DiagramKind,
    about: str,
    boxes: tuple[Box, ...],
    arrows: Arrows,
    ids: dict[str, str],
    *,
    marked: bool = True,
) -> str:
    lines = ["@startuml", *([f"' inwards: {kind}"] if marked else []), f"' {about}"]
    if kind == "contexts":
        lines.append("left to right direction")
    lines += [f'component "{_label(name, modules)}" as {ids[name]}' for name, modules in boxes]
    lines += [
        f"{ids[source]} --> {ids[target]}"
        for source, targets in arrows
        for target in targets
        if target in ids
    ]
    lines.append("@enduml")
    return "\n".join(lines) + "\n"
