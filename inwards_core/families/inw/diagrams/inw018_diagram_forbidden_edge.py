"""inw.diagram-forbidden-edge: a marked architecture diagram draws an import that
[tool.inwards] forbids."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from inwards_core import (
    CheckKind,
    Config,
    Example,
    KindDocs,
    NoOptions,
    ProjectModel,
    ReadScope,
    Scope,
    Span,
    Violation,
    quoted,
)

DOCS = KindDocs(
    what_it_does="""
Reads the marked architecture diagrams of the files `diagrams` lists (see
[INW017](INW017.md) for which diagrams are read) and takes each solid one-way arrow
between two nodes as "may import": Mermaid `-->` and `==>` (any length, with or without a
label), PlantUML `->`, `-->`, `-up->` and the like, C4's `Rel(...)`, between the layers or
contexts the two nodes stand for (INW017's page says how a node stands for one: by its id,
its box, its caption or its label). It reports, on the arrow's line, an arrow the
configuration forbids:

- in a layers diagram, an arrow from a layer to an outer layer, or between two sibling
  layers;
- in a contexts diagram, an arrow from a context to one its `depends-on` doesn't list, or
  to a node labelled with a module that is not public in its context (its `public`).

Dotted (`-.->`, `..>`), open (`---`, `--`) and two-way (`<-->`) links say nothing about
imports and are never reported; nor are arrows touching a node that names no layer or
context (INW017 reports the node) or a node marked external.
""",
    why_is_this_bad="""
Whoever reads the diagram learns that the import is fine, writes it, and the layer or
context rules then refuse it. A diagram that contradicts the configuration is worse than
none.
""",
    how_to_fix="""
Reverse the arrow if it was drawn the wrong way round (arrows point from the importer to
what it imports, inward), take it out, or draw it dotted if it shows something other than
an import (a call at run time through a port, a message). If the import is really
wanted, change `[tool.inwards]` first (the layer order, or the context's `depends-on` or
`public`).
""",
    limitations="""
Runs on whole-project checks only. What INW017 says about reading diagrams holds here too.
An arrow's meaning is fixed: a solid one-way arrow is an import, whatever its label says.
Not suppressible inline: take the file out of `diagrams` to stop checking it.
""",
)


def reads(options: NoOptions) -> ReadScope:
    return ReadScope(documents=True)


def check(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.diagrams.reading import arrow, parse_diagrams
    from inwards_core.families.inw.diagrams.standing import drawn

    config = model.config
    for marked in model.shared(parse_diagrams).marked:
        diagram = marked.diagram
        nodes = {node.id: node for node in diagram.nodes}
        for edge, source, target in drawn(model, diagram).arrows:
            if diagram.kind == "layers":
                found = _layers_breach(config, source, target)
            else:
                found = _contexts_breach(config, source, target, nodes[edge.target].label)
            if found is None:
                continue
            reason, variant = found
            as_drawn = arrow(edge)
            stable = f'The arrow "{as_drawn}" draws an import that [tool.inwards] forbids'
            yield Violation(
                file=diagram.file,
                module=None,
                span=Span(edge.line, edge.column, edge.line, edge.column + 1),
                message=f"{stable}: {reason}.",
                stable_message=stable + ".",
                variant=variant,
                params={
                    "source": quoted(source),
                    "target": quoted(target),
                    "arrow": as_drawn,
                    "reason": reason,
                },
            )


def _layers_breach(config: Config, source: str, target: str) -> tuple[str, str] | None:
    from inwards_core.families.inw.layering.layer_relations import Relation, direction, relation

    source_layer, target_layer = config.layer_named(source), config.layer_named(target)
    if source_layer is None or target_layer is None:
        return None
    kind = relation(source_layer, target_layer)
    if kind is Relation.OUTER:
        return (
            f'"{quoted(target)}" is outer to "{quoted(source)}" (imports go inward: '
            f"{direction(config)})",
            "",
        )
    if kind is Relation.SIBLING:
        return f'"{quoted(source)}" and "{quoted(target)}" are sibling layers', ""
    return None


def _contexts_breach(
    config: Config, source: str, target: str, label: str | None
) -> tuple[str, str] | None:
    from inwards_core.families.inw.contexts.context_map import is_public
    from inwards_core.families.inw.diagrams.labels import module_parts

    source_context, target_context = config.context_named(source), config.context_named(target)
    if source_context is None or target_context is None:
        return None
    if target not in source_context.depends_on:
        listed = ", ".join(f'"{quoted(name)}"' for name in source_context.depends_on)
        return (
            f'the depends-on of context "{quoted(source)}" does not list "{quoted(target)}" '
            f"({'it lists ' + listed if listed else 'it lists none'})",
            "",
        )
    if label is None or not target_context.public:
        return None
    for part in module_parts(label):
        if "*" not in part and not is_public(target_context, part):
            return (
                f'"{quoted(part)}", which the node "{quoted(target)}" stands for, is not public '
                f'in context "{quoted(target)}"',
                "private",
            )
    return None


GUIDANCE_PARAMS: Mapping[str, str] = {
    "source": "the node the arrow starts from (the importer)",
    "target": "the node the arrow points at (what is imported)",
    "arrow": "the arrow as a message quotes it (`source --> target`)",
    "reason": "why [tool.inwards] forbids the import the arrow draws",
}


def examples() -> tuple[Example, ...]:
    from inwards_core.families.inw.diagrams import inw018_examples

    return inw018_examples.examples()


KIND = CheckKind(
    id="inw.diagram-forbidden-edge",
    summary="An architecture diagram draws an import that the layers or contexts forbid.",
    options_type=NoOptions,
    check=check,
    scope=Scope.PROJECT,
    reads=reads,
    applies=lambda config: bool(config.diagrams),
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
