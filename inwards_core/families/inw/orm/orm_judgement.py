"""How inw.orm-naming (INW016) judges names: each table and time column on its own, then,
on a whole-project run, the project's names together (its own scheme, a missing naming
convention)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_core import ModuleInfo, ProjectModel, Span
from inwards_core.families.inw.content.content_names import Names, is_test_module
from inwards_core.families.inw.orm.english_words import (
    is_plural,
    is_snake,
    last_word,
    singular_name,
    snake_case,
)
from inwards_core.families.inw.orm.orm_models import (
    DATE,
    DATETIME,
    SQLALCHEMY,
    SQLMODEL,
    ModuleModels,
    TableName,
    TimeColumn,
    read_models,
)
from inwards_core.families.inw.orm.orm_packages import ORM_IMPORTS

if TYPE_CHECKING:
    from inwards_core.families.inw.orm.inw016_orm_naming import OrmNamingOptions

SCHEME_MINIMUM = 5  # names of one sort before the project's own scheme is inferred
SCHEME_SHARE = 0.9  # share of them that must break the configured scheme the same way
# Tables whose names a library or a database owns: never the project's choice.
LIBRARY_TABLES = frozenset(
    {
        "alembic_version",
        "geometry_columns",
        "geography_columns",
        "raster_columns",
        "raster_overviews",
        "spatial_ref_sys",
        "user_sdo_geom_metadata",
        "cs_srs",
        "views_geometry_columns",
        "virts_geometry_columns",
    }
)
LIBRARY_PREFIXES = ("django_", "celery_", "sqlite_", "pg_")
# Endings and starts of time column names that the configured suffix replaces.
_TIME_SUFFIXES = ("_at", "_on", "_date", "_datetime", "_time", "_timestamp", "_ts", "_dt")
_TIME_PREFIXES = ("date_", "datetime_", "time_")
# A date column whose last word already is a date (`birthday`, `due_day`): adding `_date`
# would only repeat it, which no reviewer asks for.
_DATE_WORDS = ("day", "birthday", "date", "dob")
# A datetime column named by its type alone (`timestamp`) has nothing for the suffix to
# follow; one that ends in a bound (`lease_until`, `active_since`) already reads as a time.
_TIME_WORDS = ("timestamp", "datetime", "time")
_TIME_BOUNDS = ("until", "since")


# -- what is wrong with one name ---------------------------------------------------------


@attrs.frozen
class Problem:
    """One name that breaks the scheme: `way` says how (`plural`, `not-snake`, `suffix`),
    `sort` which names it is judged with (`table`, `datetime`, `date`)."""

    info: ModuleInfo
    name: str
    span: Span
    sort: str
    way: str
    suggestion: str


def _table_problem(info: ModuleInfo, table: TableName, options: OrmNamingOptions) -> Problem | None:
    scheme = options.table_name
    if scheme is False:
        return None
    name = table.name
    if not is_snake(name):
        fixed = snake_case(name) or name
        if scheme == "snake_singular":
            fixed = singular_name(fixed)
        return Problem(info, name, table.span, "table", "not-snake", fixed)
    if scheme != "snake_singular":
        return None
    if table.derived:  # the class name's last word: `UserSettings`, not `usersettings`
        if is_plural(last_word(table.words)):
            fixed = singular_name(table.words).replace("_", "")
            return Problem(info, name, table.span, "table", "plural", fixed)
        return None
    if is_plural(last_word(name)):
        return Problem(info, name, table.span, "table", "plural", singular_name(name))
    return None


def _exempt_table(table: TableName, options: OrmNamingOptions) -> bool:
    lowered = table.name.lower()
    return (
        table.association
        or table.name in options.allow_tables
        or lowered in LIBRARY_TABLES
        or lowered.startswith(LIBRARY_PREFIXES)
    )


def _suffixed(name: str, suffix: str) -> str:
    base = name
    for ending in _TIME_SUFFIXES:
        if base.endswith(ending) and len(base) > len(ending):
            base = base[: -len(ending)]
            break
    else:
        for start in _TIME_PREFIXES:
            if base.startswith(start) and len(base) > len(start):
                base = base[len(start) :]
                break
        # `date_of_birth` is the birth's date: `birth_date`, not `of_birth_date`.
        if base.startswith("of_") and len(base) > len("of_"):
            base = base[len("of_") :]
    return base + suffix


def _column_problem(
    info: ModuleInfo, column: TimeColumn, options: OrmNamingOptions
) -> Problem | None:
    suffix = options.datetime_suffix if column.kind == DATETIME else options.date_suffix
    if suffix is False or column.name.endswith(suffix):
        return None
    if column.kind != DATETIME and column.name.rpartition("_")[2] in _DATE_WORDS:
        return None
    if column.kind == DATETIME and (
        column.name in _TIME_WORDS or column.name.rpartition("_")[2] in _TIME_BOUNDS
    ):
        return None
    return Problem(
        info, column.name, column.span, column.kind, "suffix", _suffixed(column.name, suffix)
    )


# -- the project's names, judged together ------------------------------------------------


@attrs.frozen
class Scheme:
    """Most names of one sort break the configured scheme the same way: one finding at the
    first of them, naming the option value that describes what the project does."""

    first: Problem
    broken: int
    judged: int
    option: str
    value: str


@attrs.frozen
class Judged:
    problems: tuple[Problem, ...] = ()
    schemes: tuple[Scheme, ...] = ()
    # Where a SQLAlchemy project without a naming convention is reported (its first table).
    convention: Problem | None = None


def _imports_an_orm(model: ProjectModel, info: ModuleInfo) -> bool:
    return model.imports_any(info, ORM_IMPORTS)


def _module_models(model: ProjectModel, info: ModuleInfo) -> ModuleModels | None:
    content = model.content_held(info)  # read up front if it may define models
    if content is None or not content.parsed:
        return None
    names = Names.of(model, info)

    def local_root(root: str) -> bool:
        qualified = names.qualify(root)
        if qualified == root:
            return False
        return qualified.startswith(info.name + ".") or model.index.is_first_party(qualified)

    return read_models(content, names.qualify, local_root)


def _read(model: ProjectModel, options: OrmNamingOptions) -> list[tuple[ModuleInfo, ModuleModels]]:
    found = []
    for info in model.checked:
        if not options.applies_to(info.name):
            continue
        if not options.check_tests and is_test_module(info.name):
            continue
        if not _imports_an_orm(model, info):
            continue
        models = _module_models(model, info)
        if models is not None:
            found.append((info, models))
    return found


def judge(model: ProjectModel, options: OrmNamingOptions) -> Judged:
    """Every name of the checked modules judged; on a whole-project run, with the project's
    own schemes inferred and the missing naming convention."""
    read = _read(model, options)
    problems: list[Problem] = []
    judged: Counter[str] = Counter()
    for info, models in read:
        for table in models.tables:
            if options.table_name is False or _exempt_table(table, options):
                continue
            judged["table"] += 1
            problem = _table_problem(info, table, options)
            if problem is not None:
                problems.append(problem)
        for column in models.columns:
            suffix = options.datetime_suffix if column.kind == DATETIME else options.date_suffix
            if suffix is False:
                continue
            judged[column.kind] += 1
            problem = _column_problem(info, column, options)
            if problem is not None:
                problems.append(problem)
    problems.sort(key=lambda p: (p.info.file, p.span))
    if not model.whole_project:
        return Judged(tuple(problems))
    schemes = tuple(_schemes(problems, judged))
    collapsed = {(s.first.sort, s.first.way) for s in schemes}
    kept = tuple(p for p in problems if (p.sort, p.way) not in collapsed)
    return Judged(kept, schemes, _missing_convention(read, options))


def _schemes(problems: Sequence[Problem], judged: Counter[str]) -> Iterator[Scheme]:
    for sort in ("table", DATETIME, DATE):
        total = judged[sort]
        if total < SCHEME_MINIMUM:
            continue
        ways = Counter(p.way for p in problems if p.sort == sort)
        if not ways:
            continue
        way, broken = ways.most_common(1)[0]
        if broken < SCHEME_SHARE * total:
            continue
        breakers = [p for p in problems if p.sort == sort and p.way == way]
        option_name, value = _scheme_value(sort, way, breakers, total)
        yield Scheme(breakers[0], broken, total, option_name, value)


def _scheme_value(sort: str, way: str, breakers: Sequence[Problem], total: int) -> tuple[str, str]:
    if sort == "table":
        return "table-name", '"snake"' if way == "plural" else "false"
    option_name = "datetime-suffix" if sort == DATETIME else "date-suffix"
    endings = Counter("_" + last_word(p.name) for p in breakers if "_" in p.name)
    if endings:
        ending, count = endings.most_common(1)[0]
        if count >= SCHEME_SHARE * total:
            return option_name, f'"{ending}"'
    return option_name, "false"


def _missing_convention(
    read: Sequence[tuple[ModuleInfo, ModuleModels]], options: OrmNamingOptions
) -> Problem | None:
    if not options.require_naming_convention:
        return None
    if any(models.conventions for _, models in read):
        return None
    tables = [
        (info.file, table.span, info, table)
        for info, models in read
        for table in models.tables
        if table.framework in (SQLALCHEMY, SQLMODEL) and table.mapped
    ]
    if not tables:
        return None
    _, _, info, first = min(tables, key=lambda found: (found[0], found[1]))
    return Problem(info, first.name, first.span, "table", "convention", "")
