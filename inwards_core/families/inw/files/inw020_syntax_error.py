"""inw.syntax-error: a file that doesn't parse."""

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
Reports a layered file that no supported grammar (Python 3.11 to 3.14, and PEP 810 lazy
imports) can parse, at the place the parser stopped. inwards still reads every import
statement of the file that parses on its own, and checks those with the other rules, so a
half-typed file can't hide an outward import.

It also reports a file that could not be read within the limits. Each file is read with a
budget of CPU time and memory (5 s and 512 MB for a file of up to 1 MB; each further MB adds
2 s and 128 MB, up to 60 s and 4 GB), in a worker process wherever a parser could come near
it (see docs/hostile-input.md). A file that uses it up, crashes a parser, or has a shape a
parser can't read in bounded time (syntax newer than Python 3.11 together with brackets
nested over 100 deep, or over 100 prefix operators in a row) is reported at its first line,
naming the limit, and the run goes on with the other files. Such a file is read again on
the next run: it is never cached.

How much of a file is parsed depends on the run, because parsing is most of the cost of a
check:

- Files named on the command line (`inwards check path.py`, an editor, a hook) and every file
  with `--full-parse` are parsed whole: every syntax error is reported.
- A whole-project run reads each file's import statements, strings, brackets at the import
  sites and the block headers around the imports, and parses the whole file only when that
  reading is unsure. It reports the syntax errors it meets on the way (an unterminated
  string, a broken import statement, a block header that doesn't parse), not one inside an
  otherwise readable function body. Run `inwards check --full-parse` in CI if you want both.
""",
    why_is_this_bad="""
The file fails when it's imported, and the checks can only see part of it.
""",
    how_to_fix="""
Fix the syntax error at the reported position.
""",
    limitations="""
Syntax newer than Python 3.14 is reported as an error until inwards learns it. See above for
what a whole-project run without `--full-parse` leaves unparsed.
""",
)

_REPORTED = frozenset({FileProblemKind.SYNTAX, FileProblemKind.LIMIT})


def check(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    for info in model.checked:
        if info.layer is None:
            continue
        facts = model.facts.get(info.file)
        problem = facts.problem if facts else None
        if problem is None or problem.kind not in _REPORTED:
            continue
        over_limits = problem.kind is FileProblemKind.LIMIT
        yield Violation(
            file=info.file,
            module=info.name,
            span=problem.span,
            message=(
                f"This file could not be read within the limits: {problem.message}."
                if over_limits
                else f"This file doesn't parse: {problem.message}."
            ),
            params={"error": problem.message},
            # The definition's guidance is about syntax; a limit has a fix of its own.
            variant="over-limits" if over_limits else "",
        )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="A half-written file still has its imports checked",
            good=False,
            files={
                "shop/domain/order.py": (
                    "from shop.infrastructure import db  # expect: INW001\n"
                    "NAME = 'unfinished  # expect: INW020\n"
                ),
                "shop/infrastructure/db.py": "",
            },
        ),
        Example(
            title="A file that can't be read within the limits is reported, not waited for",
            good=False,
            files={
                "shop/domain/order.py": (
                    "import importlib  # expect: INW020\n"
                    "type Amount = int\n"
                    "DEEP = " + "(" * 101 + "0" + ")" * 101 + "\n"
                    "rates = importlib.import_module('shop.domain.rates')\n"
                ),
                "shop/domain/rates.py": "",
            },
        ),
        Example(
            title="New syntax is read",
            good=True,
            files={
                "shop/domain/order.py": "type Amount = int\n\ndef first[T](items: list[T]) -> T:\n    return items[0]\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.syntax-error",
    reach=Reach.FILE,
    summary="A file that doesn't parse.",
    options_type=NoOptions,
    check=check,
    guidance_params={
        "error": "what the parser said (or which limit the file exceeded)",
    },
    docs=DOCS,
    examples=examples,
)
