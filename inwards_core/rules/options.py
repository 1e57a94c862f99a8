"""A kind's options: declaring them (`option`), and turning a TOML options table into the
kind's attrs options class, strictly.

Option names are the attrs field names with `_` written as `-` (`allow_libraries` is
`allow-libraries`). Supported field types: str, int, bool, tuple[str, ...], `X | None` of
those, `int | Literal[False]` and `str | Literal[False]` (TOML `false` turns the option
off; `true` is refused; a `check` sees only the int or str), and tuple[T, ...] of an attrs
class T: an array of tables, each read as T's fields are, with the same rules
(`deny = [{ modules = [...], libraries = [...] }]`). Unknown keys, wrong types, values
their `check` rejects and missing required options raise `OptionsError` naming the key
(`deny[0].libraries`).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from inwards_core.config.problems import closest, type_name


class OptionsError(ValueError):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


def option_name(field_name: str) -> str:
    return field_name.replace("_", "-")


# The metadata of an options field that inwards reads (`option` writes it).
CHECK = "check"  # a function of the converted value: a message (reads after the key) or None
REQUIRED = "required"  # a definition naming the kind must give it, not empty
# The project must give it, not empty, where it turns the rule on (a core definition of an
# opt-in rule can't know the project's modules).
NEEDED_WHEN_ON = "needed-when-on"
DESCRIPTION = "description"  # the option's text in the schemas
# A method of an options class that judges options together (`exhaustive` needs
# `containers`): `(option name, message)` for the first problem, or None.
CHECK_TOGETHER = "check_together"

OptionCheck = Callable[[Any], str | None]


def option(
    default: Any = (),
    *,
    check: OptionCheck | None = None,
    required: bool = False,
    needed_when_on: bool = False,
    description: str = "",
) -> Any:
    """A field of a kind's options class with what inwards enforces and documents.

    `check` validates the converted value beyond its type; `required`: a definition that
    names the kind must set the option to something not empty (`has no `name`: this
    option is required.` otherwise); `description` is the option's text in the schemas
    (without it, the sentence of the class docstring that names the option in backquotes).
    """
    metadata: dict[str, Any] = {REQUIRED: required, NEEDED_WHEN_ON: needed_when_on}
    if check is not None:
        metadata[CHECK] = check
    if description:
        metadata[DESCRIPTION] = description
    return attrs.field(default=default, metadata=metadata)


def is_required(field: attrs.Attribute[Any]) -> bool:
    """A required option: marked `required`, or a field without a default."""
    return bool(field.metadata.get(REQUIRED)) or field.default is attrs.NOTHING


def needed_when_on(options_type: type[Any]) -> tuple[str, ...]:
    """The options a project that turns the rule on must set (`option(needed_when_on=True)`)."""
    return tuple(
        option_name(f.name) for f in attrs.fields(options_type) if f.metadata.get(NEEDED_WHEN_ON)
    )


def required_options(options_type: type[Any]) -> tuple[str, ...]:
    """The options a definition naming a kind with these options must set."""
    return tuple(option_name(f.name) for f in attrs.fields(options_type) if is_required(f))


def table_type(tp: Any) -> type[Any] | None:
    """The attrs class of each table when `tp` is `tuple[T, ...]` of one, else None."""
    if typing.get_origin(tp) is not tuple:
        return None
    item = typing.get_args(tp)[0]
    return item if isinstance(item, type) and attrs.has(item) else None


def _is_false_literal(tp: Any) -> bool:
    return typing.get_origin(tp) is typing.Literal and typing.get_args(tp) == (False,)


def _describe(tp: Any) -> str:
    if _is_false_literal(tp):
        return "false"
    if tp is str:
        return "a string"
    if tp is bool:
        return "true or false"
    if tp is int:
        return "an integer"
    origin = typing.get_origin(tp)
    if table_type(tp) is not None:
        return "a list of tables"
    if origin is tuple:
        return "a list of strings"
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_describe(a) for a in typing.get_args(tp) if a is not type(None))
    return str(tp)


def _convert(tp: Any, value: Any, key: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        for arg in typing.get_args(tp):
            if arg is type(None):
                continue
            try:
                return _convert(arg, value, key)
            except OptionsError:
                continue
        raise OptionsError(key, _wrong_type(tp, value))
    if _is_false_literal(tp):
        if value is False:
            return value
    elif tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is str:
        if isinstance(value, str):
            return value
    elif origin is tuple and isinstance(value, list | tuple) and table_type(tp) is not None:
        return _tables(table_type(tp), value, key)
    elif origin is tuple and isinstance(value, list | tuple):
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise OptionsError(f"{key}[{index}]", f"must be a string, not {type_name(item)}.")
        return tuple(value)
    raise OptionsError(key, _wrong_type(tp, value))


def _wrong_type(tp: Any, value: Any) -> str:
    if value is True and any(_is_false_literal(arg) for arg in typing.get_args(tp)):
        # `true` is not "on with a default": the option needs its value, or false for off.
        return f"must be {_describe(tp)}, not true (give the value, or false to turn it off)."
    return f"must be {_describe(tp)}, not {type_name(value)}."


def _tables(item_type: Any, value: list[Any] | tuple[Any, ...], key: str) -> tuple[Any, ...]:
    tables = []
    for index, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise OptionsError(f"{key}[{index}]", f"must be a table, not {type_name(item)}.")
        tables.append(parse_options(item_type, item, f"{key}[{index}]", entry=True))
    return tuple(tables)


def known_options(options_type: type[Any]) -> tuple[str, ...]:
    return tuple(option_name(f.name) for f in attrs.fields(options_type))


_RESOLVED: dict[type[Any], tuple[dict[str, attrs.Attribute[Any]], dict[str, Any]]] = {}


def _fields_and_hints(
    options_type: type[Any],
) -> tuple[dict[str, attrs.Attribute[Any]], dict[str, Any]]:
    # Resolving string annotations costs more than the parse itself; classes don't change.
    found = _RESOLVED.get(options_type)
    if found is None:
        fields = {option_name(f.name): f for f in attrs.fields(options_type)}
        found = _RESOLVED[options_type] = (fields, typing.get_type_hints(options_type))
    return found


def parse_options(
    options_type: type[Any], table: Mapping[str, Any], key_prefix: str, *, entry: bool = False
) -> Any:
    """Build `options_type` from `table`; every problem names `key_prefix.<option>`.
    `entry`: the table is one entry of an option's array of tables, whose fields are keys."""
    fields, hints = _fields_and_hints(options_type)
    noun = "key" if entry else "option"
    values: dict[str, Any] = {}
    for name, value in table.items():
        field = fields.get(name)
        if field is None:
            known = ", ".join(sorted(fields)) or "none"
            close = closest(name, tuple(sorted(fields)))
            hint = f' Did you mean "{close}"?' if close else ""
            raise OptionsError(
                f"{key_prefix}.{name}", f"is not {_article(noun)}.{hint} Known {noun}s: {known}."
            )
        converted = _convert(hints[field.name], value, f"{key_prefix}.{name}")
        validator = field.metadata.get(CHECK)
        if validator is not None and not _turned_off(hints[field.name], converted):
            message = validator(converted)
            if message:
                raise OptionsError(f"{key_prefix}.{name}", message)
        values[field.name] = converted
    try:
        options = options_type(**values)
    except TypeError as error:  # a field without a default is missing
        raise OptionsError(key_prefix, str(error)) from error
    for field in fields.values():
        if field.metadata.get(REQUIRED) and not getattr(options, field.name):
            message = f"has no `{option_name(field.name)}`: this {noun} is required."
            raise OptionsError(key_prefix, message)
    together = getattr(options, CHECK_TOGETHER, None)
    problem = together() if callable(together) else None
    if problem is not None:
        key, message = problem
        raise OptionsError(f"{key_prefix}.{key}", message)
    return options


def _turned_off(tp: Any, value: Any) -> bool:
    """`false` given to an `X | Literal[False]` option: off, so its `check` has nothing to judge."""
    return value is False and any(_is_false_literal(arg) for arg in typing.get_args(tp))


def _article(noun: str) -> str:
    return f"a {noun}" if noun == "key" else f"an {noun}"


def options_to_data(options: Any) -> dict[str, Any]:
    """Options back to TOML-shaped data (for `rules` and docs)."""
    return {
        option_name(f.name): _data(getattr(options, f.name)) for f in attrs.fields(type(options))
    }


def _data(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_data(item) for item in value]
    if attrs.has(type(value)):
        return options_to_data(value)
    return value
