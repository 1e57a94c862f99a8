"""Writing a baseline: the one accepting today's error findings, its bytes, and the JSON
Schema of the document those bytes are."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from inwards_core.baseline import (
    ENTRY_KEYS,
    SCHEMA,
    TOP_KEYS,
    Baseline,
    Key,
    entry_key,
    finding_key,
)
from inwards_core.model.findings import BaselineEntry, Finding, Report, Severity


def build_baseline(findings: Iterable[Finding]) -> Baseline:
    """The baseline accepting every error among `findings` (warnings are left out)."""
    counts: dict[Key, int] = {}
    for finding in findings:
        if finding.severity is Severity.ERROR:
            key = finding_key(finding)
            counts[key] = counts.get(key, 0) + 1
    return Baseline(
        tuple(BaselineEntry(*key, count=counts[key]) for key in sorted(counts)),
    )


def baseline_of_report(report: Report) -> Baseline:
    """Today's error findings of `report`, including any an older baseline accepted."""
    return build_baseline((*report.findings, *report.baselined))


def serialise_baseline(baseline: Baseline) -> bytes:
    """Byte-stable JSON: entries sorted, one per line (so a review diff shows one line per
    accepted kind of finding), UTF-8, a trailing newline."""
    entries = sorted(baseline.entries, key=entry_key)
    lines = ["{", f'  "schema": {json.dumps(SCHEMA)},']
    if not entries:
        lines.append('  "entries": []')
    else:
        lines.append('  "entries": [')
        for number, entry in enumerate(entries):
            item = {
                "code": entry.code,
                "module": entry.module,
                "message": entry.message,
                "count": entry.count,
            }
            comma = "," if number < len(entries) - 1 else ""
            lines.append("    " + json.dumps(item, ensure_ascii=False) + comma)
        lines.append("  ]")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the document `serialise_baseline` writes and
    `parse_baseline` reads."""
    text = {"type": "string", "minLength": 1, "pattern": r"\S"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "inwards baseline",
        "description": "The error findings a project accepts (inwards-baseline.json), keyed "
        "without line numbers; written by `inwards baseline`, read by `inwards check`.",
        "type": "object",
        "required": list(TOP_KEYS),
        "additionalProperties": False,
        "properties": {
            "schema": {"const": SCHEMA},
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": list(ENTRY_KEYS),
                    "additionalProperties": False,
                    "properties": {
                        "code": {**text, "description": "The rule code, e.g. INW001."},
                        "module": {
                            **text,
                            "description": "The dotted module the finding is in, or its "
                            "project-relative POSIX file when it is in no module.",
                        },
                        "message": {
                            **text,
                            "description": "The stable form of the finding's message.",
                        },
                        "count": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "How many such findings are accepted.",
                        },
                    },
                },
            },
        },
    }
