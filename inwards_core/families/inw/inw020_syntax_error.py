"""inw.syntax-error: a file that doesn't parse.

## What it does
Reports a layered file that no supported grammar (Python 3.11 to 3.14, and PEP 810 lazy
imports) can parse, at the place the parser stopped. inwards still reads every import
statement of the file that parses on its own, and checks those with the other rules, so a
half-typed file can't hide an outward import.

How much of a file is parsed depends on the run, because parsing is most of the cost of a
check:

- Files named on the command line (`inwards check path.py`, an editor, a hook) and every file
  with `--full-parse` are parsed whole: every syntax error is reported.
- A whole-project run reads each file's import statements, strings, brackets at the import
  sites and the block headers around the imports, and parses the whole file only when that
  reading is unsure. It reports the syntax errors it meets on the way (an unterminated
  string, a broken import statement, a block header that doesn't parse), not one inside an
  otherwise readable function body. Run `inwards check --full-parse` in CI if you want both.

## Why is this bad?
The file fails when it's imported, and the checks can only see part of it.

## How to fix
Fix the syntax error at the reported position.

## Limitations
Syntax newer than Python 3.14 is reported as an error until inwards learns it. See above for
what a whole-project run without `--full-parse` leaves unparsed.
"""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core.examples import Example
from inwards_core.facts import FileProblemKind
from inwards_core.families.inw.inw000_unsupported_encoding import NoOptions
from inwards_core.project import ProjectModel
from inwards_core.rules.kinds import CheckKind, Violation


def check(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    for info in model.checked:
        if info.layer is None:
            continue
        facts = model.facts.get(info.file)
        problem = facts.problem if facts else None
        if problem is None or problem.kind is not FileProblemKind.SYNTAX:
            continue
        yield Violation(
            file=info.file,
            module=info.name,
            span=problem.span,
            message=f"This file doesn't parse: {problem.message}.",
            params={"error": problem.message},
        )


KIND = CheckKind(
    id="inw.syntax-error",
    summary="A file that doesn't parse.",
    options_type=NoOptions,
    check=check,
    guidance_params={
        "error": "what the parser said (or which limit the file exceeded)",
    },
)

EXAMPLES = (
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
        title="New syntax is read",
        good=True,
        files={
            "shop/domain/order.py": "type Amount = int\n\ndef first[T](items: list[T]) -> T:\n    return items[0]\n",
        },
    ),
)
