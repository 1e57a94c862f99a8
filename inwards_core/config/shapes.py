"""The `shape` and `names` arrays of `[tool.inwards]`.

A `[[tool.inwards.shape]]` table names packages with selectors (`a.b` the package itself,
`a.*` the packages one level below, `a.**` every package below) and the direct members they
may (`allow`), must (`require`) and must not (`forbid`) hold, as `fnmatch` patterns where
`name/` is a subpackage only and `name.py` a module only. The first entry whose selector
names a package is its shape, so a selector that an earlier entry's selector covers wholly
can never apply: an error naming both. A `[[tool.inwards.names]]` table keeps members named
like `pattern` to the packages its `only-in` selectors name. `template` is a known key of a
shape: templates are expanded into the raw tables before this module reads them.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from inwards_core.config.entries import module_entry
from inwards_core.config.feature_values import NameRule, Shape
from inwards_core.config.patterns import ModulePattern, parse_module_pattern
from inwards_core.config.problems import ProblemCollector, known_keys, sub_key, type_name
from inwards_core.model.findings import Severity

SHAPE_KEYS = ("packages", "allow", "require", "forbid", "extra", "hints", "template")
NAMES_KEYS = ("pattern", "only-in")
EXTRA_VALUES = tuple(level.value for level in Severity)
MEMBER_SUFFIXES = ("/", ".py", ".pyi")

_GLOB_CHARACTERS = "*?["
# A selector with more `**` than this is not compared with the others (none is real).
_MOST_DEEP_WILDCARDS = 3


def member_pattern_problem(text: str) -> str | None:
    """Why `text` is not a member pattern (`name`, `name/`, `name.py`; `fnmatch` globs in
    the name), or None when it is one."""
    name = text
    for suffix in MEMBER_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    shape_of = (
        'write a member name, "name/" for a subpackage only or "name.py" for a module only '
        '(with "*", "?" or "[...]" to match several).'
    )
    if not name.strip():
        return f'"{text}" names no member; {shape_of}'
    if any(separator in name for separator in "/\\"):
        return f'"{text}" is a path; a shape judges the direct members of a package, so {shape_of}'
    if "." in name:
        return f'"{text}" has a "." in its name; {shape_of}'
    if name != name.strip():
        return f'"{text}" has spaces around the name; {shape_of}'
    return _bracket_problem(text, name)


def _bracket_problem(text: str, name: str) -> str | None:
    """A `[...]` set that never closes or holds a range that runs backwards (`[z-a]`
    matches nothing)."""
    at = name.find("[")
    while at >= 0:
        end = name.find("]", at + 2 if name[at + 1 : at + 2] in ("!", "]") else at + 1)
        if end < 0:
            return f'"{text}" opens a "[" set that never closes.'
        body = name[at + 1 : end].removeprefix("!")
        for index in range(1, len(body) - 1):
            if body[index] == "-" and body[index - 1] > body[index + 1]:
                return (
                    f'"{text}" has the range "{body[index - 1]}-{body[index + 1]}", which runs '
                    "backwards and matches nothing."
                )
        at = name.find("[", end + 1)
    return None


def member_name_problem(text: str) -> str | None:
    """Why `text` is not one member, written as in a pattern but without wildcards."""
    if any(character in text for character in _GLOB_CHARACTERS):
        return f'"{text}" is a pattern; a hint names one member, such as "utils" or "utils.py".'
    return member_pattern_problem(text)


def read_shapes(problems: ProblemCollector, table: Mapping[str, Any]) -> tuple[Shape, ...]:
    shapes = problems.table_array(table, "shape", "shape", _shape)
    _check_shadowed(problems, shapes)
    return shapes


def read_names(problems: ProblemCollector, table: Mapping[str, Any]) -> tuple[NameRule, ...]:
    return problems.table_array(table, "names", "names", _name_rule)


def _unknown_keys(
    problems: ProblemCollector, table: Mapping[str, Any], key: str, keys: tuple[str, ...], what: str
) -> None:
    for unknown in table:
        if unknown not in keys:
            problems.add(sub_key(key, unknown), f"is not a {what} key. {known_keys(keys, unknown)}")


def _selectors(
    problems: ProblemCollector, table: Mapping[str, Any], name: str, key: str, example: str
) -> tuple[str, ...] | None:
    """A required, non-empty array of package selectors; None when it is unusable."""
    if name not in table:
        problems.add(key, f"has no `{name}`; list package selectors such as {example}.")
        return None
    value = table[name]
    if isinstance(value, list | tuple) and not value:
        problems.add(
            f"{key}.{name}",
            f'must list at least one package selector, such as {example} ("a.b" the package, '
            '"a.*" the packages one level below it, "a.**" every package below it).',
        )
        return None
    return problems.string_list(table, name, module_entry, f"{key}.{name}")


def _shape(problems: ProblemCollector, table: Mapping[str, Any], key: str) -> Shape | None:
    _unknown_keys(problems, table, key, SHAPE_KEYS, "shape")
    packages = _selectors(problems, table, "packages", key, '["shop.*"]')
    patterns = {
        name: problems.string_list(table, name, member_pattern_problem, f"{key}.{name}")
        for name in ("allow", "require", "forbid")
    }
    extra = Severity.ERROR
    if "extra" in table:
        value = table["extra"]
        if value in EXTRA_VALUES:
            extra = Severity(value)
        else:
            shown = f'"{value}"' if isinstance(value, str) else type_name(value)
            problems.add(f"{key}.extra", f'must be "error" or "warning", not {shown}.')
    hints, advice = _hints(problems, table, f"{key}.hints")
    if not packages:
        return None
    return Shape(
        packages=packages,
        key=key,
        allow=patterns["allow"],
        require=patterns["require"] or (),
        forbid=patterns["forbid"] or (),
        extra=extra,
        hints=hints,
        advice=advice,
    )


def _hints(
    problems: ProblemCollector, table: Mapping[str, Any], key: str
) -> tuple[dict[str, str], tuple[str, ...]]:
    """`hints` in either form: a table (member -> the name to use instead), or an array of
    sentences, each a step of the fix as written (the reference product's form)."""
    if "hints" not in table:
        return {}, ()
    value = table["hints"]
    if isinstance(value, list | tuple):
        return {}, problems.string_list(table, "hints", _advice_problem, key) or ()
    if not isinstance(value, Mapping):
        problems.add(
            key,
            "must be a table of member names, each with the name to use instead, such as "
            '{ helpers = "utils" }, or an array of sentences for the fix, such as '
            f'["Shared code goes into shop.kernel."], not {type_name(value)}.',
        )
        return {}, ()
    hints: dict[str, str] = {}
    for member, instead in value.items():
        member_key = sub_key(key, member)
        problem = member_name_problem(member)
        if problem:
            problems.add(member_key, problem)
        elif not isinstance(instead, str):
            problems.add(member_key, f"must be a string, not {type_name(instead)}.")
        elif problem := member_name_problem(instead):
            problems.add(member_key, problem)
        else:
            hints[member] = instead
    return hints, ()


def _advice_problem(text: str) -> str | None:
    if not text.strip():
        return "is empty; write a sentence that tells where such code goes."
    return None


def _name_rule(problems: ProblemCollector, table: Mapping[str, Any], key: str) -> NameRule | None:
    _unknown_keys(problems, table, key, NAMES_KEYS, "names")
    pattern = table.get("pattern")
    if "pattern" not in table:
        problems.add(key, 'has no `pattern`; give the member pattern it keeps, such as "test_*".')
    elif not isinstance(pattern, str):
        problems.add(
            f"{key}.pattern",
            f'must be one member pattern (a string such as "test_*"), not {type_name(pattern)}.',
        )
        pattern = None
    elif problem := member_pattern_problem(pattern):
        problems.add(f"{key}.pattern", problem)
        pattern = None
    only_in = _selectors(problems, table, "only-in", key, '["shop.tests", "shop.*.tests"]')
    if not isinstance(pattern, str) or not only_in:
        return None
    return NameRule(pattern=pattern, only_in=only_in, key=key)


def _check_shadowed(problems: ProblemCollector, shapes: Sequence[Shape]) -> None:
    """A selector every package of which an earlier entry's selector names already: the
    first matching entry wins, so it never applies. A selector listed twice in one entry
    is reported too."""
    earlier: list[tuple[str, str, ModulePattern]] = []  # selector, its key, parsed
    for shape in shapes:
        mine: list[tuple[str, str, ModulePattern]] = []
        for index, selector in enumerate(shape.packages):
            selector_key = f"{shape.key}.packages[{index}]"
            if any(text == selector for text, _, _ in mine):
                problems.add(selector_key, f'"{selector}" is listed twice in this shape.')
                continue
            pattern = parse_module_pattern(selector)
            wider = next(
                ((text, where) for text, where, other in earlier if _covers(other, pattern)),
                None,
            )
            if wider is not None:
                problems.add(selector_key, _shadowed_message(selector, *wider))
            mine.append((selector, selector_key, pattern))
        earlier.extend(mine)


def _shadowed_message(selector: str, wider: str, wider_key: str) -> str:
    if wider == selector:
        return (
            f'"{selector}" is already a selector of {wider_key}, which comes first and wins, '
            "so this entry never shapes those packages; remove it here."
        )
    return (
        f'"{selector}" names only packages that "{wider}" at {wider_key} names already, and '
        "the first matching entry wins, so this entry never shapes them. Put the narrower "
        "entry first."
    )


def _covers(wider: ModulePattern, narrower: ModulePattern) -> bool:
    """Whether every package `narrower` names, `wider` names too. Each `**` of `narrower`
    is tried at every length up to one more than `wider` has segments (beyond that the
    answer can't change), each wildcard segment as a name no literal equals."""
    deep = [index for index, segment in enumerate(narrower.segments) if segment == "**"]
    if len(deep) > _MOST_DEEP_WILDCARDS:
        return False
    lengths = range(1, len(wider.segments) + 2)
    for choice in itertools.product(lengths, repeat=len(deep)):
        spans = dict(zip(deep, choice, strict=True))
        parts: list[str] = []
        for index, segment in enumerate(narrower.segments):
            if segment in ("*", "**"):
                parts.extend(["\0"] * spans.get(index, 1))
            else:
                parts.append(segment)
        match = wider.match(".".join(parts))
        if match is None or match.depth != len(parts):
            return False
    return True
