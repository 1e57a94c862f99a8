"""inw.diagram-missing-dependency: the code imports from one drawn layer or context into
another, and the marked architecture diagram draws no arrow for it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from inwards_core import (
    CheckKind,
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
Compares the marked architecture diagrams of the files `diagrams` lists (see
[INW017](INW017.md) for which diagrams are read) with the imports of the code. When a
module of one drawn layer imports a module of another drawn layer (a layer is drawn when a
node stands for it, as INW017's page says), the diagram must draw that dependency with
solid one-way arrows: a direct arrow, or a path of them (`api -->
application --> domain` covers `api` importing `domain`). In a contexts diagram the arrow
must be direct, as `depends-on` is. One finding per pair of layers or contexts, on the
line where the importer's node first appears, naming one import that needs the arrow.

Every import counts: at module level, in functions, under `if TYPE_CHECKING:`, and dynamic
imports with a readable target. Imports the configuration forbids (from an inner layer to
an outer one, between siblings, into a context not listed in `depends-on`) are left to
INW001 and INW002: the diagram is right not to draw them.
""",
    why_is_this_bad="""
A diagram that leaves out a dependency the code has shows a cleaner architecture than the
real one: a reader plans a change on it, and is surprised by what breaks.
""",
    how_to_fix="""
Draw the arrow (`importer --> imported`), or a path of arrows through the layers between.
If the dependency should not exist, remove the import named in the message (and the others
like it); the finding goes once none is left.
""",
    limitations="""
Runs on whole-project checks only. Layers or contexts not drawn in a diagram are not
compared (a diagram may show part of the architecture); neither are nodes marked
external. Dotted, open and two-way links don't count as arrows. Not suppressible inline:
take the file out of `diagrams` to stop checking it.
""",
)


def reads(options: NoOptions) -> ReadScope:
    return ReadScope(documents=True)


def check(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.diagrams.dependencies import missing_dependencies

    for missing in missing_dependencies(model):
        sort = "Layer" if missing.kind == "layers" else "Context"
        source, target = quoted(missing.source), quoted(missing.target)
        example = missing.example
        covers = "arrow or path of arrows" if missing.kind == "layers" else "arrow"
        head = f'{sort} "{source}" imports {sort.lower()} "{target}" in the code'
        tail = f', and the diagram draws no {covers} from "{source}" to "{target}".'
        where = f"{example.file}:{example.span.line}"
        stable = head + tail
        message = f"{head} ({where}: `{quoted(example.statement)}`){tail}"
        yield Violation(
            file=missing.file,
            module=None,
            span=Span(missing.line, missing.column, missing.line, missing.column + 1),
            message=message,
            stable_message=stable,
            params={
                "source": source,
                "target": target,
                "statement": quoted(example.statement),
                "where": where,
            },
        )


GUIDANCE_PARAMS: Mapping[str, str] = {
    "source": "the importing layer or context, as drawn",
    "target": "the imported layer or context, as drawn",
    "statement": "one import statement of the code that needs the arrow",
    "where": "where that import is (file:line)",
}


def examples() -> tuple[Example, ...]:
    from inwards_core.families.inw.diagrams import inw019_examples

    return inw019_examples.examples()


KIND = CheckKind(
    id="inw.diagram-missing-dependency",
    summary="The code imports between two layers or contexts that a diagram draws no arrow for.",
    options_type=NoOptions,
    check=check,
    scope=Scope.PROJECT,
    reads=reads,
    applies=lambda config: bool(config.diagrams),
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
