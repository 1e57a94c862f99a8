"""The schema of `inwards/why@1`, the document `why.Explanation.to_json` writes (`inwards
rules why --json`, and `explanation` in `inwards check --explain --format json`)."""

from __future__ import annotations

from inwards_core.model.json_schema import (
    JSON,
    ROOTS,
    SEVERITIES,
    SHA256,
    array,
    const,
    integer,
    json_object,
    nullable,
    text,
)
from inwards_core.rules.why import REASONS, WHY_SCHEMA


def _origin() -> JSON:
    return json_object(
        {
            "root": {"enum": ROOTS, "description": "The root the definition was read from."},
            "path": text("The definition's file."),
            "sha256": text("sha256 of the file's bytes.") | {"pattern": SHA256},
        },
        ["root", "path", "sha256"],
        description="A rule definition file.",
    )


def why_schema() -> JSON:
    return json_object(
        {
            "schema": const(WHY_SCHEMA),
            "code": text("The rule's code (upper case), as asked."),
            "name": text("The rule's name; empty when no usable definition has the code."),
            "inForce": nullable(_origin() | {"description": "The definition in force, if any."}),
            "enabled": nullable(
                {"type": "boolean", "description": "Whether the rule runs here; null: unknown."}
            ),
            "decidedBy": text("The key that turned it on or off (as `inwards rules` says)."),
            "severity": nullable({"enum": SEVERITIES, "description": "Its severity here."}),
            "reasons": array(
                json_object(
                    {
                        "reason": {"enum": list(REASONS), "description": "The category."},
                        "message": text("The reason, for people."),
                        "file": nullable(text("The file it applies to, if one.")),
                        "line": nullable(integer("The line in that file, if known.", 1)),
                    },
                    ["reason", "message", "file", "line"],
                ),
                "Every reason the rule reported what it did, in the order of the categories.",
            ),
            "findings": array(
                json_object(
                    {
                        "file": text("The finding's file."),
                        "line": integer("Its line.", 1),
                        "severity": {"enum": SEVERITIES, "description": "Its severity."},
                        "message": text("Its message."),
                        "definition": _origin(),
                        "overlayChain": array(
                            _origin(), "The overlay's links, lowest first (empty: whole file)."
                        ),
                    },
                    ["file", "line", "severity", "message", "definition", "overlayChain"],
                ),
                "Each finding the rule reported, and the definitions that produced it.",
            ),
        },
        ["schema", "code", "name", "inForce", "enabled", "decidedBy", "severity", "reasons"],
    )
