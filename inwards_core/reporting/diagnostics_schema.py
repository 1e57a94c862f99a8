"""The schema of `inwards/diagnostics@1`, the document `reporting/json.py` writes."""

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
    text,
    user_definitions,
)
from inwards_core.reporting.json import SCHEMA as DIAGNOSTICS_SCHEMA
from inwards_core.rules.why_schema import why_schema


def _diagnostic() -> JSON:
    position = "1-based"
    return json_object(
        {
            "code": text("The rule's code, such as INW001.") | {"pattern": RULE_CODE},
            "rule": text("The rule's name.") | {"pattern": RULE_NAME},
            "severity": {"enum": SEVERITIES, "description": "Only errors fail a check."},
            "origin": {
                "enum": ROOTS,
                "description": "The root of the rule definition that produced the finding.",
            },
            "file": text(
                "The file, as a POSIX path relative to the directory inwards ran in "
                "(pyproject.toml for findings about the configuration)."
            ),
            "module": nullable(text("The module's dotted name; null when the file is none.")),
            "line": integer(f"Where the finding starts: line, {position}.", 1),
            "column": integer(f"Where the finding starts: column, {position}.", 1),
            "endLine": integer(f"Where it ends: line, {position}.", 1),
            "endColumn": integer(f"Where it ends: column, {position}, exclusive.", 1),
            "message": text("What is wrong, in one or more sentences."),
            "fix": json_object(
                {
                    "summary": text("What to do, in one line."),
                    "steps": array({"type": "string"}, "Numbered steps, in order."),
                },
                ["summary", "steps"],
                description="How to fix it, from the rule definition's guidance.",
            ),
            "docs": text(
                "Where to read about the rule: the `docs` of its definition as written (a "
                "URL, or a path in the project for a team's own rule), else the command that "
                "prints its page offline, `inwards rule CODE`."
            ),
            "chain": array(
                json_object(
                    {
                        "module": text("The module that imports."),
                        "imports": text("What it imports (the module the step reaches)."),
                        "file": text("Its file, as `file` above."),
                        "line": integer(f"The imported name's line, {position}.", 1),
                        "column": integer(f"Its column, {position}.", 1),
                        "endLine": integer(f"Where it ends: line, {position}.", 1),
                        "endColumn": integer(f"Where it ends: column, {position}, exclusive.", 1),
                    },
                    ["module", "imports", "file", "line", "column", "endLine", "endColumn"],
                    description="One import of the chain.",
                ),
                "Only for a finding about a chain of imports (a cycle, an indirect route): "
                "each import of it, in order, where it stands. The message words the same "
                "chain.",
            ),
        },
        [
            "code",
            "rule",
            "severity",
            "origin",
            "file",
            "module",
            "line",
            "column",
            "endLine",
            "endColumn",
            "message",
            "fix",
            "docs",
        ],
        description="One finding.",
    )


def overlay_link() -> JSON:
    """One file of an overlay chain."""
    return json_object(
        {
            "root": {"enum": ROOTS, "description": "The root the file was read from."},
            "path": text("The file, as the run names it."),
            "sha256": text("sha256 of the file's bytes.") | {"pattern": SHA256},
        },
        ["root", "path", "sha256"],
    )


def _overlays() -> JSON:
    return array(
        json_object(
            {
                "code": text("The rule's code.") | {"pattern": RULE_CODE},
                "chain": array(
                    overlay_link(),
                    "The files merged into the definition in force, lowest root first: the "
                    "whole definition at the bottom, then each overlay over it.",
                ),
                "conflicts": integer(
                    "Fields the overlays set or unset whose upstream value changed since "
                    "they were written (each is a warning of the run)."
                ),
            },
            ["code", "chain", "conflicts"],
        ),
        "Rules whose definition in force is an overlay (only when there are some).",
    )


def _baseline_entry(description: str) -> JSON:
    return json_object(
        {
            "code": text("The rule's code.") | {"pattern": RULE_CODE},
            "module": text("The module of the findings (their file when they have no module)."),
            "message": text(
                "The stable form of the message: without line numbers or parts that change "
                "with unrelated configuration."
            ),
            "count": integer("How many such findings are accepted.", 1),
        },
        ["code", "module", "message", "count"],
        description=description,
    )


def diagnostics_schema() -> JSON:
    count = "How many"
    return json_object(
        {
            "schema": const(DIAGNOSTICS_SCHEMA),
            "summary": json_object(
                {
                    "filesChecked": integer("How many files were checked."),
                    "violations": integer(
                        f"{count} errors were reported (not suppressed or "
                        "accepted by the baseline)."
                    ),
                    "warnings": integer(f"{count} warnings were reported."),
                    "durationMs": {
                        "type": "number",
                        "minimum": 0,
                        "description": "How long the check took, in milliseconds; the only "
                        "part of the document that differs between identical runs.",
                    },
                    "suppressed": integer(f"{count} findings inline comments hid (only when > 0)."),
                    "omitted": integer(
                        f"{count} findings --max-diagnostics left out (only with it)."
                    ),
                    "baselined": integer(
                        f"{count} findings the baseline accepted (with a baseline)."
                    ),
                    "resolved": integer(
                        f"{count} baselined findings are fixed since the baseline was written "
                        "(whole-project runs with a baseline)."
                    ),
                },
                ["filesChecked", "violations", "warnings", "durationMs"],
                description="Counts for the whole run.",
            ),
            "notChecked": array(
                json_object(
                    {
                        "path": text("The path, relative to the directory inwards ran in."),
                        "message": text("Why it was not checked."),
                    },
                    ["path", "message"],
                ),
                "Paths that were named or found but not checked (only when there are some).",
            ),
            "notes": array(
                {"type": "string"},
                "Notes for people: configuration warnings, whole-project checks skipped with "
                "PATHS (only when there are some).",
            ),
            "ruleSet": json_object(
                {
                    "fingerprint": text(
                        "sha256 of the active definitions, their kinds' versions and the "
                        "inwards version: it changes whenever the rules that ran change."
                    )
                    | {"pattern": SHA256},
                    "userDefinitions": user_definitions(),
                    "overlays": _overlays(),
                },
                ["fingerprint", "userDefinitions"],
                description="The effective rule set.",
            ),
            "baselineFile": text(
                "The baseline that was read, relative to the directory inwards ran in "
                "(only when there is one)."
            ),
            "baselineResolved": array(
                _baseline_entry("A baseline entry that matched fewer findings than it accepts."),
                "Baseline entries fixed since the baseline was written, so it can shrink "
                "(whole-project runs with a baseline).",
            ),
            "configs": array(
                json_object(
                    {
                        "config": text(
                            "The configuration file, relative to the directory inwards ran in."
                        ),
                        "checked": {
                            "type": "boolean",
                            "description": "false when the configuration has errors (they "
                            "went to standard error) and its part was not checked.",
                        },
                        "filesChecked": integer("How many files this configuration checked."),
                        "violations": integer(f"{count} errors it reported."),
                        "warnings": integer(f"{count} warnings it reported."),
                        "exitCode": integer("The exit status a check of it alone would have."),
                        "baselineFile": text("The baseline it read (only when there is one)."),
                        "baselined": integer(
                            f"{count} findings its baseline accepted (with a baseline)."
                        ),
                    },
                    ["config", "checked", "exitCode"],
                ),
                "At a uv workspace root: one entry per configuration that ran (each member "
                "with its own [tool.inwards], the root's for the rest), sorted by path. The "
                "summary and the diagnostics are those of every part together; paths are "
                "relative to the directory inwards ran in.",
            ),
            "diagnostics": array(
                _diagnostic(),
                "The findings, sorted by file and position; whole-project findings last. "
                "Suppressed and baselined findings are counted in the summary, not listed.",
            ),
            "explanation": why_schema()
            | {
                "description": "With `inwards check --explain CODE`: why that rule reported "
                "what it did (an `inwards/why@1` document, as `inwards rules why --json`)."
            },
        },
        ["schema", "summary", "diagnostics"],
        description="What `inwards check --format json` prints, and what `Report.to_json()` "
        "returns in Python (each of its diagnostics is a `Finding.to_json()`). Fields are only "
        "ever added within a version: ignore the ones you don't know.",
    )
