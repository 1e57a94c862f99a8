"""The schema of `[tool.inwards.templates.<name>]` and of the `template` key of a layer,
context or shape entry (`inwards_core.config.templates`). Keys come from the loader's
constants; `config_schema.described` checks them against its list like every other key."""

from __future__ import annotations

from inwards_core.config.template_reading import RULE_LEVELS
from inwards_core.model.json_schema import JSON

# Identifiers as in `config_schema.IDENT` (kept apart to import nothing from it).
_IDENT = r"(?:[A-Za-z_]|[^\x00-\x7F])(?:[A-Za-z0-9_]|[^\x00-\x7F])*"
_RELATIVE = rf"{_IDENT}(?:\.{_IDENT})*"
RELATIVE_NAME = rf"^{_RELATIVE}$"
ROLE_ENTRY = rf"^\s*{_RELATIVE}\s*(?:\|\s*{_RELATIVE}\s*)*$"

TEMPLATE_KEY: JSON = {
    "type": "string",
    "description": "The name of a [tool.inwards.templates.<name>] table this entry is "
    "expanded from, before anything else reads the configuration.",
}


def template_properties() -> dict[str, JSON]:
    """The top-level key this module describes."""
    return {
        "templates": {
            "type": "object",
            "description": "Named templates that layer, context and shape entries expand from "
            '(template = "<name>"): the roles of a layer entry, the public modules of a '
            "context, the members of a shape, and rules turned on per role.",
            "additionalProperties": {"$ref": "#/$defs/template"},
        }
    }


def template_def() -> JSON:
    """The `template` table's schema, without its properties."""
    return {
        "type": "object",
        "description": "One template. A layer entry that names it becomes one layer per role "
        "(<entry>.<role>, owning <module>.<role>); a context gains <module>.<public>; a shape "
        "takes the members it doesn't list itself.",
        "additionalProperties": False,
    }


def _strings(description: str, pattern: str | None = None) -> JSON:
    item: JSON = {"type": "string"} if pattern is None else {"type": "string", "pattern": pattern}
    return {"type": "array", "description": description, "items": item}


def template_table_properties() -> dict[str, JSON]:
    setting: JSON = {
        "description": 'true turns the rule on; "error" or "warning" also sets its severity; '
        "a table sets its options (not modules, which the template fills).",
        "anyOf": [
            {"const": True},
            {"enum": list(RULE_LEVELS)},
            {"type": "object", "not": {"required": ["modules"]}},
        ],
    }
    return {
        "roles": _strings(
            "The roles, innermost first: each a module below the entry's modules, such as "
            '"domain" or "adapters.db"; "api | cli" makes sibling roles of one rank.',
            ROLE_ENTRY,
        )
        | {"minItems": 1},
        "public": _strings(
            'For a context: the modules below each of its modules that are public, such as "api".',
            RELATIVE_NAME,
        ),
        "allow": _strings(
            "For a shape: the members allowed, as in [[tool.inwards.shape]] allow; the first "
            "segment of each role is allowed too."
        ),
        "require": _strings("For a shape: the members required, as in a shape's require."),
        "forbid": _strings("For a shape: the members forbidden, as in a shape's forbid."),
        "extra": {
            "enum": list(RULE_LEVELS),
            "description": "For a shape: the severity of a member allow doesn't cover.",
        },
        "hints": {
            "description": "For a shape: a table of member names, each with the name the team "
            "uses instead, or an array of sentences, each a step of the fix.",
            "oneOf": [
                {"type": "object", "additionalProperties": {"type": "string"}},
                {"type": "array", "items": {"type": "string"}},
            ],
        },
        "rules": {
            "type": "object",
            "description": "Rules turned on for the modules of a role (in every layer that "
            "uses the template), by role and then by rule name. The rule's own "
            "[tool.inwards.rules.<name>] table and rules.severity win over these.",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": setting,
            },
        },
    }
