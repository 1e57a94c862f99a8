"""inw.orm-naming: table and date/datetime column names that break the project's naming
scheme, and a SQLAlchemy project without a constraint naming convention."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import attrs

from inwards_core import CheckKind, ProjectModel, ReadScope, Violation, option, quoted
from inwards_core.families.inw.english_words import is_snake
from inwards_core.families.inw.layering import ScopedOptions
from inwards_core.families.inw.orm_judgement import ORM_IMPORTS, Judged, Problem, Scheme, judge
from inwards_core.families.inw.orm_models import DATE, DATETIME
from inwards_core.families.inw.orm_naming_docs import DOCS, examples

TABLE_SCHEMES = ("snake_singular", "snake")


def _check_table_scheme(value: str) -> str | None:
    if value not in TABLE_SCHEMES:
        return f'must be "snake_singular", "snake" or false, not "{quoted(value)}".'
    return None


def _check_suffix(value: str) -> str | None:
    if not value or not is_snake(value.lstrip("_")) or not value.startswith("_"):
        return (
            'must be a suffix such as "_at" (an underscore, then lower snake case), or '
            f'false, not "{quoted(value)}".'
        )
    return None


@attrs.frozen
class OrmNamingOptions(ScopedOptions):
    """`table-name`: the scheme of table names. `datetime-suffix` and `date-suffix`: the
    endings of datetime and date columns. `allow-tables`: names exempt.
    `require-naming-convention`: a SQLAlchemy project must set one. `check-tests`: judge
    test modules too."""

    table_name: str | Literal[False] = option(
        "snake_singular",
        check=_check_table_scheme,
        description='How tables are named: "snake_singular" (lower snake case, the last word '
        'singular), "snake" (lower snake case), or false (not judged).',
    )
    datetime_suffix: str | Literal[False] = option(
        "_at",
        check=_check_suffix,
        description="The ending of every datetime column's name; false: not judged.",
    )
    date_suffix: str | Literal[False] = option(
        "_date",
        check=_check_suffix,
        description="The ending of every date column's name; false: not judged.",
    )
    allow_tables: tuple[str, ...] = option(
        (),
        description="Table names never judged (names a database, a library or another "
        "system fixes).",
    )
    require_naming_convention: bool = option(
        True,
        description="On a whole-project run, report a project with SQLAlchemy or SQLModel "
        "tables and no `MetaData(naming_convention=...)` anywhere.",
    )
    check_tests: bool = option(
        False,
        description="Also judge test modules (a `tests` or `test` segment, `test_*`, "
        "`*_test`, `conftest`), which are skipped by default.",
    )


def reads(options: OrmNamingOptions) -> ReadScope:
    """Content of the modules that import an ORM; `modules` are read outside the layers too."""
    return ReadScope(
        modules=options.modules,
        content=True,
        content_imports=ORM_IMPORTS,
    )


def _judged_once(model: ProjectModel) -> dict[OrmNamingOptions, Judged]:
    return {}


def check(model: ProjectModel, options: OrmNamingOptions) -> Iterator[Violation]:
    cache = model.shared(_judged_once)
    found = cache.get(options)
    if found is None:
        found = cache[options] = judge(model, options)
    for problem in found.problems:
        yield _name_violation(problem, options)
    for scheme in found.schemes:
        yield _scheme_violation(scheme)
    if found.convention is not None:
        yield _convention_violation(found.convention)


_SORT_NOUNS = {"table": "table", DATETIME: "datetime column", DATE: "date column"}


def _params(problem: Problem, **extra: str) -> dict[str, str]:
    params = {
        "name": quoted(problem.name),
        "suggestion": quoted(problem.suggestion),
        "sort": _SORT_NOUNS[problem.sort],
        "option": "",
        "value": "",
    }
    params.update(extra)
    return params


def _name_violation(problem: Problem, options: OrmNamingOptions) -> Violation:
    name, suggestion = quoted(problem.name), quoted(problem.suggestion)
    if problem.way == "plural":
        message = f'Table name "{name}" is plural; name it in the singular: "{suggestion}".'
        variant = ""
    elif problem.way == "not-snake":
        message = f'Table name "{name}" is not lower snake case; name it "{suggestion}".'
        variant = ""
    else:
        suffix = options.datetime_suffix if problem.sort == DATETIME else options.date_suffix
        noun = "Datetime" if problem.sort == DATETIME else "Date"
        message = (
            f'{noun} column "{name}" does not end with "{quoted(str(suffix))}"; name it '
            f'"{suggestion}".'
        )
        variant = "column"
    return Violation(
        file=problem.info.file,
        module=problem.info.name,
        span=problem.span,
        message=message,
        variant=variant,
        params=_params(problem),
    )


def _scheme_violation(scheme: Scheme) -> Violation:
    first = scheme.first
    if first.sort == "table":
        how = "are plural" if first.way == "plural" else "are not lower snake case"
        what = "table names"
    else:
        how = "do not end with the configured suffix"
        what = f"{_SORT_NOUNS[first.sort]} names"
    stable = f"The project's {what} {how}: its own scheme is {scheme.option} = {scheme.value}."
    return Violation(
        file=first.info.file,
        module=first.info.name,
        span=first.span,
        message=(
            f"{scheme.broken} of the project's {scheme.judged} {what} {how} (this one "
            f'"{quoted(first.name)}" first): its own scheme is {scheme.option} = '
            f"{scheme.value}, reported once here instead of name by name."
        ),
        stable_message=stable,
        variant="scheme",
        params=_params(first, option=scheme.option, value=scheme.value),
    )


def _convention_violation(first: Problem) -> Violation:
    stable = (
        "The project defines SQLAlchemy or SQLModel tables but no "
        "MetaData(naming_convention=...): the "
        "database names their constraints and indexes."
    )
    return Violation(
        file=first.info.file,
        module=first.info.name,
        span=first.span,
        message=stable[:-1]
        + f', differently per database (reported at its first table, "{quoted(first.name)}").',
        stable_message=stable,
        variant="naming-convention",
        params=_params(first, option="require-naming-convention", value="false"),
    )


KIND = CheckKind(
    id="inw.orm-naming",
    summary="An ORM table or date/datetime column whose name breaks the naming scheme.",
    options_type=OrmNamingOptions,
    check=check,
    reads=reads,
    version="1",
    guidance_params={
        "name": "the table or column name as the code gives it",
        "suggestion": "the name the scheme asks for (empty for the project-wide findings)",
        "sort": "what is named: `table`, `datetime column` or `date column`",
        "option": "the option of [tool.inwards.rules.orm-naming] a project-wide finding "
        "names (empty for one name)",
        "value": "the value it names for that option (empty for one name)",
    },
    docs=DOCS,
    examples=examples,
)
