"""inw.unsupported-encoding: a file whose bytes can't be trusted to show its imports."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import (
    CheckKind,
    Example,
    FileProblemKind,
    KindDocs,
    NoOptions,
    ProjectModel,
    Reach,
    Violation,
)

DOCS = KindDocs(
    what_it_does="""
Reports a layered file (any file of the project once `contexts` are declared) that declares
(PEP 263) an encoding other than UTF-8, ASCII, Latin-1, the ISO-8859 family or the Windows
cp125x code pages, or whose bytes don't decode.
Such a file is not checked any further: its imports are not read and its suppression comments
don't count. The rule is always on and can't be ignored, re-levelled or suppressed.
""",
    why_is_this_bad="""
Encodings such as `unicode_escape` or `utf-7` let a file hide code in what looks like a
comment or a string: `#\\u000aimport shop.infrastructure.db` is an import once decoded. A
linter that reads the bytes differently from Python can be walked around.
""",
    how_to_fix="""
Save the file as UTF-8 and remove the coding declaration (or declare `utf-8`).
""",
    limitations="""
Without `contexts`, files outside every layer are not read, so they are not reported.
""",
)

_ENCODING_PROBLEMS = frozenset({FileProblemKind.ENCODING, FileProblemKind.UNDECODABLE})


def check(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    every_file = bool(model.config.contexts)  # then every file is read (see the engine)
    for info in model.checked:
        if info.layer is None and not every_file:
            continue
        facts = model.facts.get(info.file)
        problem = facts.problem if facts else None
        if problem is None or problem.kind not in _ENCODING_PROBLEMS:
            continue
        yield Violation(
            file=info.file,
            module=info.name,
            span=problem.span,
            message=problem.message,
            params={"encoding": problem.encoding or "unknown"},
        )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="An encoding that turns a comment into code",
            good=False,
            files={
                "shop/domain/order.py": (
                    "# -*- coding: unicode_escape -*-  # expect: INW000\n"
                    "#\\u000aimport shop.infrastructure.db\n"
                ),
                "shop/infrastructure/db.py": "",
            },
        ),
        Example(
            title="Latin-1 is fine",
            good=True,
            files={
                "shop/domain/order.py": "# -*- coding: latin-1 -*-\nNAME = 'caf\\xe9'\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.unsupported-encoding",
    reach=Reach.FILE,
    summary="A file whose declared encoding or bytes can hide imports.",
    options_type=NoOptions,
    check=check,
    guidance_params={
        "encoding": "the encoding the file declares (`unknown` when its bytes are the problem)",
    },
    docs=DOCS,
    examples=examples,
)
