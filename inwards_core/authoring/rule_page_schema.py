"""The schema of `inwards/rule@1`, the rule page `authoring/docgen.py` writes
(`inwards rule CODE --json`)."""

from __future__ import annotations

from inwards_core.model.json_schema import (
    JSON,
    RULE_CODE,
    RULE_NAME,
    SEVERITIES,
    array,
    const,
    json_object,
    nullable,
    origin,
    text,
)
from inwards_core.rules.kinds import Scope

RULE_PAGE_SCHEMA = "inwards/rule@1"


def rule_page_schema() -> JSON:
    section = json_object(
        {
            "id": text(
                "A stable id: what-it-does, why-is-this-bad, how-to-fix, limitations, "
                "options, guidance, examples, or the slug of another heading."
            ),
            "title": text("The section's heading."),
            "markdown": text("The section's text, in Markdown."),
        },
        ["id", "title", "markdown"],
    )
    return json_object(
        {
            "schema": const(RULE_PAGE_SCHEMA),
            "code": text("The rule's code.") | {"pattern": RULE_CODE},
            "name": text("The rule's name.") | {"pattern": RULE_NAME},
            "summary": text("What the rule reports, in one line."),
            "description": text("The definition's longer description (often empty)."),
            "kind": text("The check kind."),
            "default": {"enum": ["on", "opt-in"], "description": "The default state."},
            "severity": {"enum": SEVERITIES, "description": "The definition's severity."},
            "suppressible": {
                "type": "boolean",
                "description": "Whether inline comments may hide its findings.",
            },
            "scope": {
                "enum": [scope.value for scope in Scope],
                "description": '"file": runs on every checked file; "project": only on '
                'whole-project runs; "review": after suppressions, on their verdicts.',
            },
            "origin": origin(),
            "shadows": array(origin(), "The lower definitions it shadows, highest first."),
            "guidanceFrom": nullable(
                origin() | {"description": "The user definition lending its guidance, or null."}
            ),
            "options": {
                "type": "object",
                "description": "The options as the definition sets them (the kind's defaults "
                "for the others).",
            },
            "guidance": json_object(
                {
                    "summary": text("What to do, in one line."),
                    "steps": array({"type": "string"}, "Numbered steps."),
                    "docs": text(
                        "The definition's `docs` as written (a URL of a page about the rule), "
                        "or empty."
                    ),
                },
                ["summary", "steps", "docs"],
                description="The fix printed under each finding (with {placeholders}).",
            ),
            "full": {
                "type": "boolean",
                "description": "True when the sections are the whole page (--full), with "
                "examples and their real output.",
            },
            "sections": array(section, "The page, section by section, in order."),
        },
        [
            "schema",
            "code",
            "name",
            "summary",
            "description",
            "kind",
            "default",
            "severity",
            "suppressible",
            "scope",
            "origin",
            "shadows",
            "guidanceFrom",
            "options",
            "guidance",
            "full",
            "sections",
        ],
        description="What `inwards rule CODE --json` prints: a rule's documentation page, "
        "as the installed package and the rule roots have it.",
    )
