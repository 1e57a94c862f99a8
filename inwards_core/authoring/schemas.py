"""The registry of inwards' JSON Schemas (draft 2020-12): which there are, and building any
of them from the code, for `inwards schema NAME`, the committed `schemas/` and the tests.

Inputs (closed: an unknown key is an error, as in the loaders): the `[tool.inwards]` table
(`config`) and a whole `pyproject.toml` holding it (`pyproject`), in `config_schema.py`;
rule definition files (`definition`), in `definition_schema.py`. Outputs (open: within a
version fields are only ever added, so a reader must accept fields it does not know), each
beside the code that writes the document: `diagnostics` (`reporting/diagnostics_schema.py`),
`rules` and `status` (`rules/listing_schema.py`, `rules/status_schema.py`), `why`
(`rules/why_schema.py`), `stats` (`reporting/agent_stats_schema.py`), `rule`
(`authoring/rule_page_schema.py`) and `baseline` (`baseline.py`). `closed_schema` makes an
output schema strict, for the tests that catch a field the code writes but the schema does
not describe. Nothing here reads a file: the rule set and families come in as arguments.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from inwards_core.authoring.config_schema import config_schema, pyproject_schema
from inwards_core.authoring.definition_schema import definition_schema
from inwards_core.authoring.rule_page_schema import RULE_PAGE_SCHEMA, rule_page_schema
from inwards_core.baseline import SCHEMA as BASELINE_SCHEMA
from inwards_core.baseline.writing import json_schema as baseline_json_schema
from inwards_core.model.json_schema import DIALECT, JSON
from inwards_core.reporting.agent_stats import SCHEMA as STATS_SCHEMA
from inwards_core.reporting.agent_stats_schema import stats_schema
from inwards_core.reporting.diagnostics_schema import diagnostics_schema
from inwards_core.reporting.json import SCHEMA as DIAGNOSTICS_SCHEMA
from inwards_core.rules.kinds import Family
from inwards_core.rules.listing import RULES_SCHEMA
from inwards_core.rules.listing_schema import rules_schema
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.status import STATUS_SCHEMA
from inwards_core.rules.status_schema import status_schema
from inwards_core.rules.why import WHY_SCHEMA
from inwards_core.rules.why_schema import why_schema


@attrs.frozen
class SchemaInfo:
    """One schema `inwards schema NAME` prints and `schemas/<file>` holds. `document` is
    the `schema` field of the JSON documents it describes (empty for inputs)."""

    name: str
    file: str
    title: str
    describes: str
    document: str = ""


SCHEMAS = (
    SchemaInfo(
        "config",
        "config.schema.json",
        "[tool.inwards]",
        "the [tool.inwards] table of pyproject.toml",
    ),
    SchemaInfo(
        "pyproject",
        "pyproject.schema.json",
        "pyproject.toml with [tool.inwards]",
        "a whole pyproject.toml: [tool.inwards] checked, every other table left open "
        "(for Taplo / Even Better TOML)",
    ),
    SchemaInfo(
        "definition",
        "definition.schema.json",
        "inwards rule definition",
        "a rule definition file (<CODE>.toml in a rule root)",
    ),
    SchemaInfo(
        "diagnostics",
        "diagnostics.schema.json",
        DIAGNOSTICS_SCHEMA,
        "the output of `inwards check --format json`",
        DIAGNOSTICS_SCHEMA,
    ),
    SchemaInfo(
        "rules",
        "rules.schema.json",
        RULES_SCHEMA,
        "the output of `inwards rules --json`",
        RULES_SCHEMA,
    ),
    SchemaInfo(
        "rule",
        "rule.schema.json",
        RULE_PAGE_SCHEMA,
        "the output of `inwards rule CODE --json`",
        RULE_PAGE_SCHEMA,
    ),
    SchemaInfo(
        "status",
        "status.schema.json",
        STATUS_SCHEMA,
        "the output of `inwards status --json`",
        STATUS_SCHEMA,
    ),
    SchemaInfo(
        "baseline",
        "baseline.schema.json",
        BASELINE_SCHEMA,
        "the baseline file inwards-baseline.json (`inwards baseline`)",
        BASELINE_SCHEMA,
    ),
    SchemaInfo(
        "why",
        "why.schema.json",
        WHY_SCHEMA,
        "the output of `inwards rules why CODE --json` (and `explanation` in `inwards check "
        "--explain CODE --format json`)",
        WHY_SCHEMA,
    ),
    SchemaInfo(
        "stats",
        "stats.schema.json",
        STATS_SCHEMA,
        "the output of `inwards stats --format json` (how recent coding-agent sessions went)",
        STATS_SCHEMA,
    ),
)


def schema_info(name: str) -> SchemaInfo | None:
    """The schema called `name`, or whose documents carry `name` as their `schema` field
    (`inwards/diagnostics@1`); case-insensitive."""
    wanted = name.strip().lower()
    return next((s for s in SCHEMAS if wanted in (s.name, s.document.lower())), None)


def build_schemas(families: Sequence[Family], rule_set: RuleSet) -> dict[str, JSON]:
    """Every schema by name. `families` give the check kinds a definition may name and
    their options; `rule_set` the rules whose option tables `[tool.inwards.rules]` takes
    by name (the core rules of those families)."""
    return {info.name: build_schema(info.name, families, rule_set) for info in SCHEMAS}


def build_schema(name: str, families: Sequence[Family], rule_set: RuleSet) -> JSON:
    info = schema_info(name)
    if info is None:
        raise KeyError(name)
    builders: dict[str, Callable[[], JSON]] = {
        "config": lambda: config_schema(families, rule_set),
        "pyproject": lambda: pyproject_schema(families, rule_set),
        "definition": lambda: definition_schema(families),
        "diagnostics": diagnostics_schema,
        "rules": rules_schema,
        "rule": rule_page_schema,
        "status": status_schema,
        "baseline": _baseline_schema,
        "why": why_schema,
        "stats": stats_schema,
    }
    return _document(info, builders[info.name]())


def schema_text(schema: Mapping[str, Any]) -> str:
    """A schema as committed under `schemas/`: two-space indent, UTF-8, final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def closed_schema(schema: Mapping[str, Any]) -> JSON:
    """A copy of `schema` in which every object type that lists its `properties` (and says
    nothing of other keys) admits no other key: the strict form the tests validate real
    output against, so a field the code writes but the schema lacks is caught. Conditions
    (`if`, `not`) are left as they are: closing them would change what they test."""
    result = copy.deepcopy(dict(schema))

    def close(node: Any) -> None:
        if isinstance(node, dict):
            if (
                node.get("type") == "object"
                and "properties" in node
                and "additionalProperties" not in node
                and "patternProperties" not in node
            ):
                node["additionalProperties"] = False
            for key, value in node.items():
                if key not in ("if", "not"):
                    close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(result)
    return result


def _document(info: SchemaInfo, body: JSON) -> JSON:
    head: JSON = {
        "$schema": DIALECT,
        "$id": f"urn:inwards:schema:{info.name}",
        "title": info.title,
    }
    if "description" not in body:
        head["description"] = f"The JSON Schema of {info.describes}."
    return {**head, **body}


def _baseline_schema() -> JSON:
    # The baseline module describes its own strict reader; only the head is ours.
    schema = baseline_json_schema()
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id", "title")}
