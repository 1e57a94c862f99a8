"""The schema of a check kind's options, read from its attrs options class: what the
option tables of `[tool.inwards.rules]` and of a rule definition's `[options]` accept."""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from inwards_core.model.json_schema import JSON
from inwards_core.rules.kinds import CheckKind, Family
from inwards_core.rules.options import DESCRIPTION, is_required, option_name, table_type


def rule_table(
    code: str,
    name: str,
    summary: str,
    kind: CheckKind,
    kinds: Mapping[str, CheckKind],
    *,
    always_on: bool = False,
) -> JSON:
    if always_on:
        return {
            "description": f"{code} ({summary}) has no options and can't be configured.",
            "not": {},
        }
    return {
        "description": f"Options of {code} {name} (check kind {kind.id}): {summary} Unset "
        "options keep the values of the rule's definition.",
        "allOf": [{"$ref": options_ref(kind.id)}],
    }


def kinds_by_id(families: Sequence[Family]) -> dict[str, CheckKind]:
    return {kind.id: kind for family in families for kind in family.kinds}


def options_ref(kind_id: str) -> str:
    return f"#/$defs/options.{kind_id}"


def kind_option_defs(kinds: Mapping[str, CheckKind]) -> dict[str, JSON]:
    return {f"options.{kind_id}": _options_object(kinds[kind_id]) for kind_id in sorted(kinds)}


def _options_object(kind: CheckKind) -> JSON:
    """The options of a kind, from its attrs options class. No option is required here:
    `[tool.inwards.rules.<name>]` is merged over the definition's own options."""
    options_type = kind.options_type
    hints = typing.get_type_hints(options_type)
    docs = [" ".join(doc.split()) for doc in _class_docs(options_type)]
    properties: dict[str, JSON] = {}
    for field in attrs.fields(options_type):
        properties[option_name(field.name)] = _option_schema(kind, field, hints[field.name])
    text = " ".join([f"The options of the check kind {kind.id}: {kind.summary}", *docs])
    return {
        "type": "object",
        "description": text,
        "properties": properties,
        "additionalProperties": False,
    }


def _value_schema(tp: Any) -> JSON | None:
    """The JSON Schema of an option's type, as `inwards_core.rules.options` reads it."""
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    origin = typing.get_origin(tp)
    if origin is typing.Literal and typing.get_args(tp) == (False,):
        return {"const": False}  # `X | Literal[False]`: false turns the option off
    item_type = table_type(tp)
    if item_type is not None:
        return {"type": "array", "items": _table_schema(item_type)}
    if origin is tuple:  # the parser takes an array of strings for any tuple
        return {"type": "array", "items": {"type": "string"}}
    if origin in (types.UnionType, typing.Union):
        # None can't be written in TOML: `X | None` is X, or left out.
        choices = [_value_schema(a) for a in typing.get_args(tp) if a is not type(None)]
        known = [c for c in choices if c is not None]
        if len(known) == 1:
            return known[0]
        return {"anyOf": known} if known else None
    return None  # a type the parser doesn't take: left to it


def _table_schema(item_type: type[Any]) -> JSON:
    """One table of an array-of-tables option: its keys, as an options class's fields."""
    hints = typing.get_type_hints(item_type)
    properties: dict[str, JSON] = {}
    required: list[str] = []
    for field in attrs.fields(item_type):
        name = option_name(field.name)
        schema: JSON = dict(_value_schema(hints[field.name]) or {})
        text = _option_text(item_type, name)
        if text:
            schema["description"] = text
        if is_required(field):
            required.append(name)
            if schema.get("type") == "array":
                schema["minItems"] = 1
        properties[name] = schema
    table: JSON = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        table["required"] = required
    return table


def _class_docs(options_type: type[Any]) -> list[str]:
    """The docstrings of an options class and its bases, without attrs' generated ones."""
    docs = []
    for cls in options_type.__mro__:
        doc = (cls.__doc__ or "").strip()
        if cls is not object and doc and not doc.startswith(cls.__name__ + "("):
            docs.append(doc)
    return docs


def _option_text(options_type: type[Any], name: str) -> str | None:
    """What the options class's docstring says of `name`: the first sentence naming it in
    backquotes (family authors can be more precise with `option(description=...)`)."""
    for doc in _class_docs(options_type):
        for sentence in re.split(r"(?<=\.)\s+", " ".join(doc.split())):
            if f"`{name}`" in sentence:
                return sentence
    return None


def _is_factory(value: Any) -> bool:
    # attrs.Factory is typed as a function, so isinstance() can't be used on it.
    return hasattr(value, "factory") and hasattr(value, "takes_self")


def _option_schema(kind: CheckKind, field: attrs.Attribute[Any], tp: Any) -> JSON:
    name = option_name(field.name)
    schema: JSON = dict(_value_schema(tp) or {})
    described = field.metadata.get(DESCRIPTION)
    required = is_required(field)
    if isinstance(described, str) and described:
        text = described
    else:
        text = _option_text(kind.options_type, name) or f"Option `{name}` of {kind.id}."
    if required:
        text += " A definition naming this kind must set it."
    schema["description"] = text
    if required and schema.get("type") == "array":
        schema["minItems"] = 1
    default = field.default
    if not required and default is not attrs.NOTHING and not _is_factory(default):
        plain = list(default) if isinstance(default, tuple) else default
        if plain is not None:
            schema["default"] = plain
    return schema
