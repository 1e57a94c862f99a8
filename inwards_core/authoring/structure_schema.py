"""The schemas of the keys that describe the project's structure beyond its layers:
`contexts` and `cycles` (`inwards_core.config.contexts`). Keys and values come from the
loader's constants; `config_schema` checks them against its lists like every other key."""

from __future__ import annotations

from inwards_core.config.contexts import CONTEXT_KEYS, CYCLES_VALUES
from inwards_core.config.values import DEFAULT_CYCLES
from inwards_core.model.json_schema import JSON

# Identifiers as in `config_schema.IDENT` (kept apart to import nothing from it).
_IDENT = r"(?:[A-Za-z_]|[^\x00-\x7F])(?:[A-Za-z0-9_]|[^\x00-\x7F])*"
DOTTED_NAME = rf"^{_IDENT}(?:\.{_IDENT})*$"
PUBLIC_ENTRY = rf"^=?{_IDENT}(?:\.{_IDENT})*$"


def structure_properties() -> dict[str, JSON]:
    """The top-level keys this module describes, by name."""
    return {
        "contexts": {
            "type": "array",
            "description": "Bounded contexts (or vertical slices): the module prefixes each "
            "owns, its public modules, and the contexts it may import. They add to the "
            "layers; with contexts declared every file of the project is read.",
            "items": {"$ref": "#/$defs/context"},
        },
        "cycles": {
            "type": "array",
            "description": 'Which import cycles INW004 reports: "modules" (between modules), '
            '"contexts" (between contexts), both, or none ([]).',
            "items": {"enum": list(CYCLES_VALUES)},
            "uniqueItems": True,
            "default": list(DEFAULT_CYCLES),
        },
    }


def structure_defs() -> dict[str, tuple[JSON, tuple[str, ...], dict[str, JSON]]]:
    """The `$defs` of the tables: name -> (the table's schema without its properties, the
    loader's keys, the properties)."""
    context: JSON = {
        "type": "object",
        "description": "One bounded context: its name, the module prefixes it owns (the "
        "longest prefix of any context owns a module), its public modules and the contexts "
        "it may import directly.",
        "required": ["name", "modules"],
        "additionalProperties": False,
    }
    return {"context": (context, CONTEXT_KEYS, _context_properties())}


def _context_properties() -> dict[str, JSON]:
    return {
        "name": {
            "type": "string",
            "description": "The context's name, used in messages and in depends-on; unique.",
            "pattern": r"\S",
        },
        "modules": {
            "type": "array",
            "description": 'Literal module prefixes the context owns ("shop.orders" owns '
            "everything below it); no wildcards. A prefix belongs to one context.",
            "minItems": 1,
            "items": {"type": "string", "pattern": DOTTED_NAME},
        },
        "public": {
            "type": "array",
            "description": "The modules other code may import from this context, as prefixes "
            'it owns; a leading "=" makes an entry exact ("=shop.orders": the package '
            "facade alone). Without it, no module of the context is public.",
            "items": {"type": "string", "pattern": PUBLIC_ENTRY},
        },
        "depends-on": {
            "type": "array",
            "description": "The contexts this one may import, by name: direct, neither "
            "transitive nor mutual.",
            "items": {"type": "string"},
            "uniqueItems": True,
        },
        "template": {
            "type": "string",
            "description": "The name of a [tool.inwards.templates.<name>] table to expand "
            "this context from.",
        },
    }
