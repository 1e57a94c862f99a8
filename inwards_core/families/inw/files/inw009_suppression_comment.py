"""inw.suppression-comment: an inline suppression that is broken or hides nothing."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Example,
    KindDocs,
    NoOptions,
    ProjectModel,
    Scope,
    Severity,
    SuppressionProblem,
    Violation,
    quoted,
)

DOCS = KindDocs(
    what_it_does="""
Checks every `# inwards: ignore[CODE, ...] reason="..."` comment (read from comment tokens,
never from strings). It reports, as errors, comments that hide nothing because they are
malformed, have no reason or an empty one, name an unknown code, name a rule that can't be
suppressed, or hold a second directive; and, as warnings, codes of a valid comment that
matched no finding on that line (rules that are turned off are not reported as unused).

A suppression applies to the findings of the listed rules that start on the comment's line:
for a parenthesised import, the line of the imported name. There is no blanket, next-line or
file-wide form, by design.
""",
    why_is_this_bad="""
A suppression without a reason can't be reviewed, and one that hides nothing is noise that
will hide the next real problem on that line.
""",
    how_to_fix="""
Write the directive as `# inwards: ignore[INW001] reason="why this import is acceptable"`,
list only codes that report on that line, and delete comments that no longer hide anything.
""",
    limitations="""
A reason can't contain a double quote.
""",
)

# What is wrong, first: "hides nothing" alone reads like an unused suppression (the warning).
_PROBLEMS = {
    SuppressionProblem.MALFORMED: (
        'This suppression comment is not of the form `# inwards: ignore[CODE, ...] reason="..."`.'
    ),
    SuppressionProblem.NO_REASON: (
        'This suppression comment has no reason: say why in `reason="..."`.'
    ),
    SuppressionProblem.SECOND_DIRECTIVE: (
        "This suppression comment holds a second `inwards:` directive; use one per comment."
    ),
}
_NOT_APPLIED = "Until it is fixed it is not applied: the findings it names are still reported."


def check(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    for verdict in model.suppression_verdicts:
        comment = verdict.comment
        params = {"codes": _listed(comment.codes)}
        reasons: list[str] = []
        if comment.problem is not None:
            reasons.append(_PROBLEMS[comment.problem])
        if verdict.unknown:
            reasons.append(
                f"This suppression comment names {_listed(verdict.unknown)}, which is not a rule code."
            )
        if verdict.unsuppressible:
            reasons.append(
                f"This suppression comment names {_listed(verdict.unsuppressible)}, which can't be "
                "suppressed inline; use the baseline or fix the code."
            )
        if reasons:
            # Each reason after the first is "It ...": the comment was named once.
            later = [reason.replace("This suppression comment", "It", 1) for reason in reasons[1:]]
            yield Violation(
                file=verdict.file,
                module=verdict.module,
                span=comment.span,
                message=" ".join([reasons[0], *later, _NOT_APPLIED]),
                params=params,
            )
        elif verdict.unused:
            codes = _listed(verdict.unused)
            yield Violation(
                file=verdict.file,
                module=verdict.module,
                span=comment.span,
                message=f"This suppression comment lists {codes}, which reports nothing on this line.",
                severity=Severity.WARNING,
                params={"codes": codes},
                variant="unused-codes",
            )


def _listed(codes: Iterable[str]) -> str:
    return quoted(", ".join(codes), LIST_LIMIT)


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="A suppression without a reason",
            good=False,
            files={
                "shop/domain/order.py": (
                    "from shop.infrastructure import db  # inwards: ignore[INW001]  # expect: INW001, INW009\n"
                ),
                "shop/infrastructure/db.py": "",
            },
        ),
        Example(
            title="A suppression that hides nothing",
            good=False,
            files={
                "shop/domain/order.py": (
                    'import decimal  # inwards: ignore[INW005] reason="money maths"  # expect: INW009\n'
                ),
            },
        ),
        Example(
            title="A reviewed exception",
            good=True,
            files={
                "shop/domain/order.py": (
                    "from shop.infrastructure import db  "
                    '# inwards: ignore[INW001] reason="legacy import, removed in TICKET-12"\n'
                ),
                "shop/infrastructure/db.py": "",
            },
        ),
    )


KIND = CheckKind(
    id="inw.suppression-comment",
    summary="An inline suppression that is broken or hides nothing.",
    options_type=NoOptions,
    check=check,
    scope=Scope.REVIEW,
    guidance_params={
        "codes": "the codes the suppression comment lists, comma-separated",
    },
    docs=DOCS,
    examples=examples,
)
