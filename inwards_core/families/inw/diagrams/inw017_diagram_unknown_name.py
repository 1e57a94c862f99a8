"""inw.diagram-unknown-name: a marked architecture diagram names what [tool.inwards] and the
code don't have (a node that is no layer or context, a label no module matches), or a
`diagrams` entry matches no file."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

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
from inwards_core.families.inw.diagrams.name_hints import PARAMS, params

DOCS = KindDocs(
    what_it_does="""
Reads the architecture diagrams of the files the top-level `diagrams` key lists (Markdown,
Mermaid and PlantUML; see [the configuration](../configuration.md#diagrams)): a Mermaid
flowchart holding the line `%% inwards: layers` or `%% inwards: contexts`, a PlantUML
diagram holding `' inwards: layers` or `' inwards: contexts`. Other diagrams are not read.
It reports, on the diagram's line:

- a node that stands for no layer (in a layers diagram) or no context (in a contexts
  diagram) of `[tool.inwards]`, with the closest name. A node stands for the layer or
  context its id names (`domain`; `Domain` too, unless two names differ only in case);
  else for the one of the box it is drawn in (`subgraph domain` ... `end`,
  `package domain {` ... `}`); else for the one its caption names (`D[Domain]`); else for
  the one that owns every module its label names (`D["shop.domain"]`);
- a label that names modules (`domain["shop.domain"]` in Mermaid, `[shop.domain] as domain`
  in PlantUML) where no module matches, with the closest module, or where another layer or
  context owns them than the one the node stands for;
- what of the diagram could not be read (another sort of Mermaid diagram than a flowchart,
  a `subgraph` never closed), a second diagram of one sort in a file, and a contexts
  diagram in a project that declares no contexts;

and, on the entry in `pyproject.toml`, a `diagrams` entry that matches no file, or whose
files hold no marked diagram.

A box drawn around other boxes (a Mermaid `subgraph`, a PlantUML `package ... {`, a C4
boundary) groups them: its id is not reported when it names nothing. Nodes marked external
are skipped: in Mermaid `:::external` or `class a,b external`; in PlantUML the stereotype
`<<external>>`, C4's `*_Ext` elements and `Person`. A label is
judged only where it looks like module names: one word with a `.` or a wildcard, or one
lower-case word; parts are split at `<br>` and commas. A label that is a caption
(`Domain model`) is never reported.
""",
    why_is_this_bad="""
A diagram that names a layer the configuration doesn't have, or a package that was renamed,
tells the next reader about an architecture that is not the one the code follows. Once
one box is wrong, no box is trusted.
""",
    how_to_fix="""
Rename the node to the layer or context it stands for, or fix its label to the package's
name today. A node that is deliberately not part of the project (a third-party service, a
user) is marked external: `payments["Stripe"]:::external` in Mermaid, `[Stripe] as
payments <<external>>` in PlantUML. Point a `diagrams` entry that matches nothing at the
file (paths are relative to the directory of `pyproject.toml`).
""",
    limitations="""
Runs on whole-project checks only (not when paths are named). Mermaid is read as
flowcharts (`flowchart`, `graph`) only; PlantUML as components, packages and the other
element keywords, and C4-PlantUML's elements and relations. A statement is read on its own
line, except a quoted label, which may run over up to 20 lines. Labels are judged only
where they look like module names (above), so a mistyped caption is not found. Inline
suppression comments can't be put in a diagram: the rule is not suppressible, and is
turned off for a file by taking the file out of `diagrams`.
""",
)


def reads(options: NoOptions) -> ReadScope:
    return ReadScope(documents=True)


def check(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.diagrams.name_checks import diagram_name_violations

    yield from _entries(model)
    yield from diagram_name_violations(model)


def _entries(model: ProjectModel) -> Iterator[Violation]:
    """The `diagrams` entries that match no file, or only files without a marked diagram."""
    from inwards_core.families.inw.diagrams.reading import marked_files

    config = model.config
    marked = marked_files(model)
    for position, entry in enumerate(config.diagrams):
        matched = model.document_matches.get(entry, ())
        readable = [path for path in matched if path in model.documents]
        if not matched:
            message = f'The diagrams entry "{quoted(entry)}" matches no file.'
        elif readable and not any(path in marked for path in readable):
            message = (
                f'The diagrams entry "{quoted(entry)}" matches {_files(readable)}, and none holds '
                'a diagram marked "inwards: layers" or "inwards: contexts".'
            )
        else:
            continue
        line, column = config.locate(f"tool.inwards.diagrams[{position}]")
        yield Violation(
            file=config.file,
            module=None,
            span=Span(line, column, line, column + len(entry) + 2),
            message=message,
            variant="entry",
            params=params(entry=quoted(entry)),
        )


def _files(paths: Sequence[str]) -> str:
    if len(paths) == 1:
        return f'"{quoted(paths[0])}"'
    return f"{len(paths)} files"


def examples() -> tuple[Example, ...]:
    from inwards_core.families.inw.diagrams import inw017_examples

    return inw017_examples.examples()


KIND = CheckKind(
    id="inw.diagram-unknown-name",
    summary="An architecture diagram names a layer, context or module that does not exist.",
    options_type=NoOptions,
    check=check,
    scope=Scope.PROJECT,
    reads=reads,
    applies=lambda config: bool(config.diagrams),
    guidance_params=PARAMS,
    docs=DOCS,
    examples=examples,
)
