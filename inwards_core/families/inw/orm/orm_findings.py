"""The findings of inw.orm-naming (INW016), from what `orm_judgement` judged. Imported by the
kind's `check` on first use, so that a run without the rule never loads the model readers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core import ProjectModel, Violation, quoted
from inwards_core.families.inw.orm.orm_judgement import Judged, Problem, Scheme, judge
from inwards_core.families.inw.orm.orm_models import DATE, DATETIME

if TYPE_CHECKING:
    from inwards_core.families.inw.orm.inw016_orm_naming import OrmNamingOptions


def _judged_once(model: ProjectModel) -> dict[OrmNamingOptions, Judged]:
    return {}


def find(model: ProjectModel, options: OrmNamingOptions) -> Iterator[Violation]:
    """The findings of inw.orm-naming (INW016) with these options, judged once per run."""
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
