"""The schemas of the keys that describe the project's structure beyond its layers:
`contexts` and `cycles` (`inwards_core.config.contexts`), `shape` and `names`
(`inwards_core.config.shapes`). Keys and values come from the
loader's constants; `config_schema` checks them against its lists like every other key."""

from __future__ import annotations

from inwards_core.config.contexts import CONTEXT_KEYS, CYCLES_VALUES
from inwards_core.config.shapes import EXTRA_VALUES, NAMES_KEYS, SHAPE_KEYS
from inwards_core.config.values import DEFAULT_CYCLES
from inwards_core.model.json_schema import JSON

# Identifiers as in `config_schema.IDENT` (kept apart to import nothing from it).
_IDENT = r"(?:[A-Za-z_]|[^\x00-\x7F])(?:[A-Za-z0-9_]|[^\x00-\x7F])*"
DOTTED_NAME = rf"^{_IDENT}(?:\.{_IDENT})*$"
PUBLIC_ENTRY = rf"^=?{_IDENT}(?:\.{_IDENT})*$"
SELECTOR = rf"^{_IDENT}(?:\.(?:{_IDENT}|\*\*?))*$"
# A member pattern: a name without path separators or dots, then "/", ".py", ".pyi" or
# nothing. Brackets and spaces are the loader's to judge.
MEMBER_PATTERN = r"^[^/\\.]+(?:/|\.pyi?)?$"
MEMBER_NAME = r"^[^/\\.*?\[]+(?:/|\.pyi?)?$"
_SELECTOR_TEXT = (
    '"a.b" is the package itself, "a.*" each package one level below it, "a.**" every '
    "package below it; a selector starts with a literal top-level package"
)
_PATTERN_TEXT = (
    'fnmatch patterns of member names: "name" a module or subpackage, "name/" a '
    'subpackage only, "name.py" a module only'
)


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
        "shape": {
            "type": "array",
            "description": "Package shapes (INW007, INW008): the direct members the packages "
            "a selector names may, must and must not hold. The first entry whose selector "
            "names a package is its shape.",
            "items": {"$ref": "#/$defs/shape"},
        },
        "names": {
            "type": "array",
            "description": "Name rules (INW007): members named like a pattern may stand only "
            "in the packages listed.",
            "items": {"$ref": "#/$defs/names"},
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
    shape: JSON = {
        "type": "object",
        "description": "One package shape: the packages it names and their direct members.",
        "required": ["packages"],
        "additionalProperties": False,
    }
    names: JSON = {
        "type": "object",
        "description": "One name rule: members named like pattern stand only in only-in.",
        "required": ["pattern", "only-in"],
        "additionalProperties": False,
    }
    return {
        "context": (context, CONTEXT_KEYS, _context_properties()),
        "shape": (shape, SHAPE_KEYS, _shape_properties()),
        "names": (names, NAMES_KEYS, _names_properties()),
    }


def _patterns(description: str) -> JSON:
    return {
        "type": "array",
        "description": description,
        "items": {"type": "string", "pattern": MEMBER_PATTERN},
    }


def _shape_properties() -> dict[str, JSON]:
    return {
        "packages": {
            "type": "array",
            "description": f"Package selectors: {_SELECTOR_TEXT}.",
            "minItems": 1,
            "items": {"type": "string", "pattern": SELECTOR},
        },
        "allow": _patterns(
            f"The members a package may hold, as {_PATTERN_TEXT}; __init__ and the "
            "required members are always allowed. Without allow, any member is."
        ),
        "require": _patterns(f"The members a package must hold (INW008), as {_PATTERN_TEXT}."),
        "forbid": _patterns(f"The members a package must not hold, as {_PATTERN_TEXT}."),
        "extra": {
            "enum": list(EXTRA_VALUES),
            "description": "The severity of a member that allow doesn't cover.",
            "default": "error",
        },
        "hints": {
            "description": "A table of member names, each with the name the team uses "
            'instead ({ helpers = "utils" }): the fix of a refused member suggests it first. '
            'Or an array of sentences (["Shared code goes into shop.kernel."]), each a step '
            "of that fix, as written.",
            "oneOf": [
                {
                    "type": "object",
                    "propertyNames": {"pattern": MEMBER_NAME},
                    "additionalProperties": {"type": "string", "pattern": MEMBER_NAME},
                },
                {"type": "array", "items": {"type": "string", "pattern": r"\S"}},
            ],
        },
        "template": {
            "type": "string",
            "description": "The name of a [tool.inwards.templates.<name>] table whose shape "
            "keys this entry takes when it doesn't set them.",
        },
    }


def _names_properties() -> dict[str, JSON]:
    return {
        "pattern": {
            "type": "string",
            "description": f"One member pattern, as in a shape: {_PATTERN_TEXT}.",
            "pattern": MEMBER_PATTERN,
        },
        "only-in": {
            "type": "array",
            "description": f"The packages where such members may stand, as selectors: "
            f"{_SELECTOR_TEXT}.",
            "minItems": 1,
            "items": {"type": "string", "pattern": SELECTOR},
        },
    }


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
