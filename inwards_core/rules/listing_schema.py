"""The schema of `inwards/rules@1`, the document `rules/listing.py` writes."""

from __future__ import annotations

from inwards_core.model.json_schema import (
    JSON,
    ROOTS,
    RULE_CODE,
    RULE_NAME,
    SEVERITIES,
    SHA256,
    array,
    const,
    integer,
    json_object,
    nullable,
    origin,
    text,
)
from inwards_core.rules.listing import RULES_SCHEMA
from inwards_core.rules.resolver import USER_RULES_POLICIES


def _problem() -> JSON:
    return json_object(
        {
            "root": {"enum": ROOTS, "description": "The root of the file."},
            "path": text("The file."),
            "line": nullable(integer("The line, when known.", 1)),
            "key": text("The dotted key, or empty."),
            "message": text("What is wrong."),
            "blocking": {
                "type": "boolean",
                "description": "True when it stops a check (project and core roots); user-root "
                "problems only warn, and the lower definition stays in force.",
            },
        },
        ["root", "path", "line", "key", "message", "blocking"],
        description="A rule definition that can't be used.",
    )


def rules_schema() -> JSON:
    return json_object(
        {
            "schema": const(RULES_SCHEMA),
            "fingerprint": text("sha256 of the effective rule set.") | {"pattern": SHA256},
            "userRules": {
                "enum": list(USER_RULES_POLICIES),
                "description": "The project's user-rules policy.",
            },
            "rules": array(
                json_object(
                    {
                        "code": text("The rule's code.") | {"pattern": RULE_CODE},
                        "name": text("The rule's name.") | {"pattern": RULE_NAME},
                        "summary": text("What the rule reports."),
                        "kind": text("The check kind of its definition."),
                        "enabled": {"type": "boolean", "description": "Whether it runs here."},
                        "decidedBy": text(
                            'What decided whether it runs: "default", "opt-in", "always on", '
                            '"rules.select", "rules.extend-select", "rules.ignore", '
                            '"not in rules.select", or the keys of the template rules entries '
                            'that turn it on ("templates.<name>.rules.<role>.<rule>", '
                            "joined by commas)."
                        ),
                        "severity": {"enum": SEVERITIES, "description": "Its severity here."},
                        "severityDecidedBy": text(
                            'What decided the severity: "default", "rules.severity" or the '
                            "key of the template rules entry that sets it."
                        ),
                        "default": {
                            "enum": ["on", "opt-in"],
                            "description": "Its definition's default state.",
                        },
                        "origin": origin(),
                        "shadows": array(
                            origin(), "The lower definitions it shadows, highest first."
                        ),
                        "guidanceFrom": nullable(
                            origin()
                            | {
                                "description": "The user definition whose guidance it uses "
                                '(user-rules = "guidance-only"), or null.'
                            }
                        ),
                        "stale": nullable(
                            text("Why its shadow is stale (its base has changed), or null.")
                        ),
                        "overlayChain": array(
                            json_object(
                                {
                                    "root": {"enum": ROOTS, "description": "The file's root."},
                                    "path": text("The file."),
                                    "sha256": text("sha256 of its bytes.") | {"pattern": SHA256},
                                },
                                ["root", "path", "sha256"],
                            ),
                            "When the definition in force is an overlay, the files merged into "
                            "it, lowest root first (the whole definition at the bottom); empty "
                            "otherwise.",
                        ),
                    },
                    [
                        "code",
                        "name",
                        "summary",
                        "kind",
                        "enabled",
                        "decidedBy",
                        "severity",
                        "severityDecidedBy",
                        "default",
                        "origin",
                        "shadows",
                        "guidanceFrom",
                        "stale",
                    ],
                ),
                "One row per rule code, with the definition in force.",
            ),
            "ignoredByPolicy": array(
                origin(code=text("The rule's code.") | {"pattern": RULE_CODE}),
                "User definitions the user-rules policy left out.",
            ),
            "problems": array(_problem(), "Rule definitions that can't be used."),
        },
        ["schema", "fingerprint", "userRules", "rules", "ignoredByPolicy", "problems"],
        description="What `inwards rules --json` prints: every rule, whether it runs and why, "
        "and where its definition comes from.",
    )
