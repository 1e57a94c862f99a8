"""The schema of `inwards/stats@1`, the document `agent_stats.stats_document` writes
(`inwards stats --format json`)."""

from __future__ import annotations

from inwards_core.model.json_schema import (
    JSON,
    ROOTS,
    array,
    const,
    integer,
    json_object,
    nullable,
    text,
)
from inwards_core.reporting.agent_stats import SCHEMA


def _latency(description: str) -> JSON:
    return json_object(
        {
            "runs": integer("How many hook runs were measured."),
            "p50": nullable({"type": "number", "minimum": 0, "description": "The median, ms."}),
            "p95": nullable(
                {"type": "number", "minimum": 0, "description": "The 95th percentile, ms."}
            ),
        },
        ["runs", "p50", "p95"],
        description=description,
    )


def stats_schema() -> JSON:
    rate = {"type": "number", "minimum": 0}
    return json_object(
        {
            "schema": const(SCHEMA),
            "sessions": integer("How many agent sessions the logs hold."),
            "hookRuns": integer("How many hook runs they logged (a tool call counted once)."),
            "fixedWithinOneRetry": json_object(
                {
                    "reported": integer("Violations a PostToolUse check blocked (each once)."),
                    "fixed": integer("Of those, how many were gone at the next edit of the file."),
                    "noRetry": integer("Of those, how many files were not edited again."),
                    "rate": nullable(
                        rate | {"maximum": 1, "description": "fixed / (reported - noRetry)."}
                    ),
                },
                ["reported", "fixed", "noRetry", "rate"],
                description="Violations fixed within one retry.",
            ),
            "violationsPer1000Lines": json_object(
                {
                    "violations": integer("Distinct violations new in the sessions' edits."),
                    "linesAdded": integer("The lines the sessions' edits added."),
                    "rate": nullable(rate | {"description": "violations * 1000 / linesAdded."}),
                },
                ["violations", "linesAdded", "rate"],
                description="Violations per 1,000 lines the agent added.",
            ),
            "hookLatencyMs": _latency("Every hook run's time, inside the run.")
            | {
                "properties": {
                    **_latency("")["properties"],
                    "byEvent": {
                        "type": "object",
                        "description": "The same per hook event.",
                        "additionalProperties": _latency("One event's runs."),
                    },
                },
                "required": ["runs", "p50", "p95", "byEvent"],
            },
            "rejectedSuppressions": integer(
                'Suppressions the agent added that agent-suppressions = "deny" did not count.'
            ),
            "topRules": array(
                json_object(
                    {
                        "code": text("The rule's code."),
                        "origin": {
                            "enum": ROOTS,
                            "description": "The root the rule's definition comes from.",
                        },
                        "violations": integer("Distinct new violations of the rule.", 1),
                    },
                    ["code", "origin", "violations"],
                ),
                "The rules that fired most, most first (at most 10).",
            ),
        },
        [
            "schema",
            "sessions",
            "hookRuns",
            "fixedWithinOneRetry",
            "violationsPer1000Lines",
            "hookLatencyMs",
            "rejectedSuppressions",
            "topRules",
        ],
    )
