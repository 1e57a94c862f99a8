"""inw.orm-naming: table and date/datetime column names that break the project's naming
scheme, and a SQLAlchemy project without a constraint naming convention."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import attrs

from inwards_core import CheckKind, ProjectModel, ReadScope, Violation, option, quoted
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.orm.inw016_docs import DOCS
from inwards_core.families.inw.orm.inw016_examples import examples
from inwards_core.families.inw.orm.orm_packages import MODEL_WORDS, ORM_IMPORTS

TABLE_SCHEMES = ("snake_singular", "snake")


def _check_table_scheme(value: str) -> str | None:
    if value not in TABLE_SCHEMES:
        return f'must be "snake_singular", "snake" or false, not "{quoted(value)}".'
    return None


def _check_suffix(value: str) -> str | None:
    from inwards_core.families.inw.orm.english_words import is_snake  # a word list: on use only

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
    """Content of the modules that import an ORM and hold one of `MODEL_WORDS`; `modules`
    are read outside the layers too."""
    return ReadScope(
        modules=options.modules,
        content=True,
        content_imports=ORM_IMPORTS,
        content_words=MODEL_WORDS,
    )


def check(model: ProjectModel, options: OrmNamingOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.orm.orm_findings import find  # only when the rule runs

    return find(model, options)


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
