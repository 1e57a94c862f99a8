"""The schema of `inwards/status@1`, the document `rules/status.py` writes."""

from __future__ import annotations

from inwards_core.model.json_schema import (
    JSON,
    ROOTS,
    SHA256,
    array,
    const,
    integer,
    json_object,
    nullable,
    text,
    user_definitions,
)
from inwards_core.ports import RootState
from inwards_core.rules.collisions import COLLISION_REASONS, ON_COLLISION_POLICIES
from inwards_core.rules.overlay_conflicts import CONFLICT_KINDS
from inwards_core.rules.resolver import USER_RULES_POLICIES
from inwards_core.rules.status import STATUS_SCHEMA


def status_schema() -> JSON:
    codes = {"type": "array", "items": {"type": "string"}}
    return json_object(
        {
            "schema": const(STATUS_SCHEMA),
            "roots": array(
                json_object(
                    {
                        "root": {"enum": ROOTS, "description": "Which root."},
                        "location": text("Where it is (a directory, or the packages)."),
                        "state": {
                            "enum": [state.value for state in RootState],
                            "description": "Whether it was found and read.",
                        },
                        "note": text("A note on its state, or empty."),
                        "warning": text("A warning about it, or empty."),
                        "definitions": integer("How many of its definitions are in use."),
                        "shadowing": {
                            "type": "object",
                            "description": "The codes its whole-file definitions shadow, by "
                            "lower root.",
                            "propertyNames": {"enum": ROOTS},
                            "additionalProperties": codes,
                        },
                        "overlaying": {
                            "type": "object",
                            "description": "The codes its overlays change field by field, by "
                            "the root of the definition directly below.",
                            "propertyNames": {"enum": ROOTS},
                            "additionalProperties": codes,
                        },
                        "new": codes | {"description": "Codes no lower root defines."},
                        "problems": array({"type": "string"}, "Its unusable definitions."),
                        "digest": text(
                            "sha256 over its definition files (and for core, the families' "
                            "versions)."
                        ),
                        "changedSinceLastCheck": nullable(
                            {
                                "type": "boolean",
                                "description": "Whether the digest changed since the last "
                                "check here; null when no check recorded one.",
                            }
                        ),
                    },
                    [
                        "root",
                        "location",
                        "state",
                        "note",
                        "warning",
                        "definitions",
                        "shadowing",
                        "overlaying",
                        "new",
                        "problems",
                        "digest",
                        "changedSinceLastCheck",
                    ],
                ),
                "The core, org, user and project roots.",
            ),
            "families": array(
                json_object(
                    {
                        "prefix": text("The code prefix the family owns."),
                        "distribution": text("The distribution that ships it."),
                        "version": text("Its version."),
                        "kinds": integer("How many check kinds it registers."),
                        "rules": integer("How many core definitions it ships."),
                    },
                    ["prefix", "distribution", "version", "kinds", "rules"],
                ),
                "The installed rule families.",
            ),
            "totals": json_object(
                {
                    "active": integer("Rules that run."),
                    "shadowed": integer("Definitions a higher root shadows."),
                    "optInOff": codes | {"description": "Opt-in rules not turned on."},
                    "disabledByConfig": codes
                    | {"description": "Rules [tool.inwards.rules] turns off."},
                    "ignoredByPolicy": codes
                    | {"description": "User definitions the user-rules policy leaves out."},
                },
                ["active", "shadowed", "optInOff", "disabledByConfig", "ignoredByPolicy"],
                description="The effective totals.",
            ),
            "staleShadows": array(
                json_object(
                    {
                        "code": text("The rule's code."),
                        "root": {"enum": ROOTS, "description": "The shadow's root."},
                        "path": text("The shadow's file."),
                        "message": text("What changed."),
                    },
                    ["code", "root", "path", "message"],
                ),
                "Shadows whose base has changed since they were copied.",
            ),
            "userRules": {
                "enum": list(USER_RULES_POLICIES),
                "description": "The project's user-rules policy.",
            },
            "userDefinitions": user_definitions(),
            "fingerprint": text("sha256 of the effective rule set.") | {"pattern": SHA256},
            "rulePacks": array(
                json_object(
                    {
                        "name": text("Its `inwards.rule_packs` entry-point name."),
                        "distribution": text("The distribution that ships it."),
                        "version": text("That distribution's version."),
                        "location": text("The folder of definitions it names."),
                        "rules": integer("Its definitions in the org root (void ones aside)."),
                    },
                    ["name", "distribution", "version", "location", "rules"],
                ),
                "The installed organisation rule packs (the org root, with INWARDS_ORG_RULES_DIR).",
            ),
            "orgDefinitions": array(
                json_object(
                    {
                        "code": text("The rule's code."),
                        "effect": {
                            "enum": ["new", "shadows core"],
                            "description": "A new rule, or a shadow of a core rule.",
                        },
                        "path": text("The org definition's file."),
                    },
                    ["code", "effect", "path"],
                ),
                "Organisation rule definitions in force (from rule packs or "
                "INWARDS_ORG_RULES_DIR): they come from the environment, not the project.",
            ),
            "collisions": collisions_schema(),
            "overlayConflicts": array(
                json_object(
                    {
                        "code": text("The rule's code."),
                        "root": {"enum": ROOTS, "description": "The overlay's root."},
                        "path": text("The overlay's file."),
                        "line": nullable(integer("The line of the field in it.", 1)),
                        "key": text("The field, as a dotted path (options.deny)."),
                        "kind": {"enum": list(CONFLICT_KINDS), "description": "What changed."},
                        "was": {"description": "Its value upstream when the overlay was written."},
                        "now": {"description": "Its value upstream now (null: absent)."},
                        "ours": {"description": "The overlay's value (null: it unsets it)."},
                        "message": text("The warning, as check prints it."),
                    },
                    ["code", "root", "path", "line", "key", "kind", "was", "now", "ours"],
                ),
                "Fields overlays set or unset whose upstream value changed since they were "
                "written (each a warning).",
            ),
            "configProblems": array(
                {"type": "string"},
                "What is wrong in [tool.inwards.rules] against these rules (unknown codes or "
                "names, options a kind rejects), one line each with file, line and key.",
            ),
        },
        [
            "schema",
            "roots",
            "families",
            "totals",
            "staleShadows",
            "userRules",
            "userDefinitions",
            "fingerprint",
            "collisions",
        ],
        description="What `inwards status --json` prints: the rule roots and what each "
        "contributes.",
    )


def collisions_schema() -> JSON:
    """The `collisions` of `inwards/status@1` (`status.collisions_document`)."""

    def file(what: str) -> JSON:
        return json_object(
            {
                "path": text(f"The {what} definition's file."),
                "sha256": text("sha256 of its bytes.") | {"pattern": SHA256},
            },
            ["path", "sha256"],
            description=f"The {what} definition.",
        )

    return array(
        json_object(
            {
                "code": text("The rule's code."),
                "reasons": array(
                    {"enum": list(COLLISION_REASONS)},
                    "The definition keys they differ on: another check kind, a stricter "
                    "user severity or default, another name (codes no family owns).",
                ),
                "details": array({"type": "string"}, "Each reason with both values."),
                "project": file("project (in force)"),
                "user": file("user (shadowed)"),
                "policy": {
                    "enum": list(ON_COLLISION_POLICIES),
                    "description": "The project's [tool.inwards] on-collision.",
                },
            },
            ["code", "reasons", "details", "project", "user", "policy"],
        ),
        "Project definitions that replace a user definition of the same code with another "
        "intent, under any on-collision policy.",
    )
