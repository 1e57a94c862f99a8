"""Building blocks of inwards' JSON Schemas (draft 2020-12, readable by Draft 7 validators):
the patterns and small constructors every schema uses, and the parts of shared values
(a definition's origin, the user definitions in effect). Each document's schema lives beside
the code that writes it; the registry of them all is `inwards_core.authoring.schemas`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from inwards_core.model.findings import RootKind, Severity

DIALECT = "https://json-schema.org/draft/2020-12/schema"

JSON = dict[str, Any]

# `code` is compared case-insensitively (upper-cased before CODE_PATTERN applies).
RULE_CODE = r"^[A-Za-z]{2,6}[0-9]{3}$"

# A code or the start of one, as select, extend-select and ignore take them: `INW`, `FAPI0`.
RULE_CODE_OR_PREFIX = r"^(?:[A-Za-z]{1,6}|[A-Za-z]{2,6}[0-9]{1,3})$"

RULE_NAME = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"

VERSION = r"^[0-9]+\.[0-9]+\.[0-9]+$"

SHA256 = r"^[0-9a-f]{64}$"


def const(value: str) -> JSON:
    return {"const": value, "description": "The name and version of this document's format."}


def integer(description: str, minimum: int = 0) -> JSON:
    return {"type": "integer", "minimum": minimum, "description": description}


def text(description: str) -> JSON:
    return {"type": "string", "description": description}


def nullable(schema: JSON) -> JSON:
    described = {k: v for k, v in schema.items() if k != "description"}
    result: JSON = {"anyOf": [described, {"type": "null"}]}
    if "description" in schema:
        result["description"] = schema["description"]
    return result


def array(items: JSON, description: str) -> JSON:
    return {"type": "array", "items": items, "description": description}


def json_object(properties: Mapping[str, JSON], required: Iterable[str] = (), **extra: Any) -> JSON:
    schema: JSON = {"type": "object"}
    if "description" in extra:
        schema["description"] = extra.pop("description")
    required = list(required)
    if required:
        schema["required"] = required
    schema["properties"] = dict(properties)
    schema.update(extra)
    return schema


ROOTS = [root.value for root in RootKind]

SEVERITIES = [severity.value for severity in Severity]

USER_EFFECTS = ["new", "shadows core", "shadows org", "guidance only"]


def user_definitions() -> JSON:
    return array(
        json_object(
            {
                "code": text("The rule's code."),
                "effect": {
                    "enum": USER_EFFECTS,
                    "description": "What the user definition does here: a new rule, a "
                    "shadow of a core or org rule, or only its guidance "
                    '(user-rules = "guidance-only").',
                },
                "path": text("The user definition's file."),
            },
            ["code", "effect", "path"],
        ),
        "User rule definitions in effect: results on one machine can differ from CI's "
        "because of them.",
    )


def origin(**extra: JSON) -> JSON:
    return json_object(
        {
            **extra,
            "root": {"enum": ROOTS, "description": "The root the definition was read from."},
            "path": text(
                "The definition's file: relative to the installed package for core, absolute "
                "or relative to the project otherwise."
            ),
            "sha256": text("sha256 of the file's bytes.") | {"pattern": SHA256},
            "family": text(
                "The code prefix of the rule family that ships it, as in INW001 (core only)."
            ),
            "distribution": text(
                "The distribution that ships it (core, and org from a rule pack)."
            ),
            "version": text("That distribution's version (core, and org from a rule pack)."),
        },
        ["root", "path", "sha256", *extra],
        description="Where a rule definition comes from.",
    )
