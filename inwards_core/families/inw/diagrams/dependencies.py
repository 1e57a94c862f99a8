"""INW019's comparison: the imports of the code between layers (or contexts), and the
arrows of each marked diagram that should cover them.

The imports are gathered once per run (`model.shared`), one example per pair: the first
in file and line order. A pair the configuration forbids is left out (INW001 and INW002
report the import; the diagram is right not to draw it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import attrs

from inwards_core import DiagramKind, ImportEdge, ProjectModel
from inwards_core.families.inw.contexts.context_map import ContextMap, undeclared
from inwards_core.families.inw.diagrams.reading import parse_diagrams
from inwards_core.families.inw.diagrams.standing import drawn
from inwards_core.families.inw.layering.layer_relations import forbidden

Pair = tuple[str, str]


@attrs.frozen
class MissingDependency:
    """An import from `source` into `target` (layers or contexts) with no arrow for it in
    the diagram of `file`; `line`/`column` are where the source node first appears."""

    kind: DiagramKind
    file: str
    line: int
    column: int
    source: str
    target: str
    example: ImportEdge


def missing_dependencies(model: ProjectModel) -> Iterator[MissingDependency]:
    for marked in model.shared(parse_diagrams).marked:
        diagram = marked.diagram
        found = drawn(model, diagram)
        if len(found.first) < 2:
            continue
        imports = model.shared(layer_imports if diagram.kind == "layers" else context_imports)
        arrows: dict[str, set[str]] = {}
        for _, source, target in found.arrows:
            arrows.setdefault(source, set()).add(target)
        for (source, target), example in sorted(imports.items()):
            if source not in found.first or target not in found.first:
                continue
            direct = target in arrows.get(source, ())
            if direct or (diagram.kind == "layers" and _reaches(arrows, source, target)):
                continue
            node = found.first[source]
            yield MissingDependency(
                diagram.kind, diagram.file, node.line, node.column, source, target, example
            )


def _reaches(arrows: Mapping[str, set[str]], source: str, target: str) -> bool:
    seen = {source}
    todo = [source]
    while todo:
        for after in arrows.get(todo.pop(), ()):
            if after == target:
                return True
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return False


def layer_imports(model: ProjectModel) -> dict[Pair, ImportEdge]:
    """Each (importing layer, imported layer) pair the code has and the layers allow, with
    its first import. Read from the resolved imports INW001 shares (and the dynamic ones
    with a readable target); an `ImportEdge` is made only for a pair's earliest import."""
    found: dict[Pair, ImportEdge] = {}
    index = model.index
    allowed: dict[Pair, bool] = {}  # the layers decide per pair, not per import
    for info in model.checked:
        source = info.layer
        facts = model.facts.get(info.file)
        if source is None or facts is None:
            continue
        reached = [
            (name, fact.span, fact.statement, fact.type_checking, False)
            for fact, name in model.resolved_imports(info)
            if name is not None
        ]
        reached += [
            (dynamic.target, dynamic.span, dynamic.statement, False, True)
            for dynamic in facts.dynamic_imports
            if dynamic.target
        ]
        for name, span, statement, type_checking, is_dynamic in reached:
            if not index.is_first_party(name):
                continue
            target = index.layer_of(name)
            if target is None or target.name == source.name:
                continue
            pair = (source.name, target.name)
            keep = allowed.get(pair)
            if keep is None:
                keep = allowed[pair] = not forbidden(source, target)
            known = found.get(pair)
            if keep and (known is None or (info.file, span) < (known.file, known.span)):
                found[pair] = ImportEdge(
                    info.name,
                    info.file,
                    name,
                    True,
                    span,
                    statement,
                    dynamic=is_dynamic,
                    type_checking=type_checking,
                )
    return found


def context_imports(model: ProjectModel) -> dict[Pair, ImportEdge]:
    """Each (importing context, imported context) pair the code has and `depends-on`
    allows, with its first import."""
    found: dict[Pair, ImportEdge] = {}
    contexts = ContextMap(model.config.contexts)
    for info in model.checked:
        source = contexts.owner(info.name)
        if source is None:
            continue
        for edge in model.import_edges(info):
            if not edge.first_party:
                continue
            target = contexts.owner(edge.target)
            if target is None or target.name == source.name or undeclared(source, target):
                continue
            _keep(found, (source.name, target.name), edge)
    return found


def _keep(found: dict[Pair, ImportEdge], pair: Pair, edge: ImportEdge) -> None:
    known = found.get(pair)
    if known is None or (edge.file, edge.span) < (known.file, known.span):
        found[pair] = edge
