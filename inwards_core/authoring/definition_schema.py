"""The schema of a rule definition file (`definition`): its keys come from the constants
`inwards_core.rules.reading` checks against, its `[options]` from each kind's options
class."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inwards_core.authoring.config_schema import NOT_BLANK, described
from inwards_core.authoring.option_schemas import kind_option_defs, kinds_by_id, options_ref
from inwards_core.config.load import SEVERITY_VALUES
from inwards_core.model.json_schema import JSON, RULE_CODE, RULE_NAME
from inwards_core.rules.definitions import (
    DEFINITION_KEYS,
    GUIDANCE_KEYS,
    OVERLAY_FORBIDDEN_KEYS,
    OVERLAY_ONLY_KEYS,
    OVERLAY_TABLE_KEYS,
    SHADOW_KEYS,
    VARIANT_KEYS,
)
from inwards_core.rules.kinds import CheckKind, Family
from inwards_core.rules.options import required_options
from inwards_core.rules.templates import TEMPLATE_PATTERN


def _definition_properties(kinds: Mapping[str, CheckKind]) -> dict[str, JSON]:
    string = {"type": "string"}
    template = string | {"pattern": TEMPLATE_PATTERN}
    return {
        "code": {
            "type": "string",
            "description": "The rule's code: 2-6 letters and 3 digits (ACME001), the same as "
            "the file's name (ACME001.toml). A new rule needs a prefix that no installed "
            "family owns.",
            "pattern": RULE_CODE,
        },
        "name": {
            "type": "string",
            "description": "The rule's name, kebab-case and unique among the active rules; "
            "[tool.inwards.rules.<name>] sets its options. A shadow keeps the name of the "
            "definition it shadows.",
            "pattern": RULE_NAME,
        },
        "summary": {
            "type": "string",
            "description": "One line: what the rule reports. Without it, the check kind's "
            "own summary.",
            "pattern": NOT_BLANK,
        },
        "check": {
            "type": "string",
            "description": "The check kind that does the work, <family>.<kind>: "
            + ", ".join(sorted(kinds))
            + ", or a kind of another installed family.",
            "pattern": NOT_BLANK,
        },
        "default": {
            "enum": ["on", "opt-in"],
            "description": '"on": the rule runs unless [tool.inwards.rules] turns it off; '
            '"opt-in": it runs only when selected.',
            "default": "on",
        },
        "severity": {
            "enum": list(SEVERITY_VALUES),
            "description": "The severity of its findings, unless [tool.inwards.rules.severity] "
            "changes it. Only errors fail a check.",
            "default": "error",
        },
        "suppressible": {
            "type": "boolean",
            "description": 'Whether an inline `# inwards: ignore[CODE] reason="..."` comment '
            "may hide a finding of this rule.",
            "default": True,
        },
        "always-on": {
            "type": "boolean",
            "description": "true: [tool.inwards.rules] can't turn the rule off, change its "
            "severity or set its options. A shadow of an always-on rule stays always on; it "
            "can't say `always-on = false`.",
            "default": False,
        },
        "options": {
            "type": "object",
            "description": "The options of the check kind named in `check`; which keys it "
            "takes depends on the kind.",
        },
        "guidance": {
            "type": "object",
            "description": "The fix printed under each finding, for people and coding agents. "
            "`{name}` placeholders are filled in from the finding (each kind's page lists "
            "them); `{{` and `}}` write a brace, and no other field is allowed. Without it, "
            "the kind's own short fix is shown.",
            "properties": described(
                {
                    "summary": template | {"description": "One line: what to do."},
                    "steps": {
                        "type": "array",
                        "description": "Numbered steps.",
                        "items": template,
                    },
                    "docs": string
                    | {
                        "description": "A URL of a page about the rule, shown under each "
                        "finding (and SARIF's helpUri); a relative path is shown as written. "
                        "Without it findings point at `inwards rule CODE`."
                    },
                    "variants": {
                        "type": "object",
                        "description": "The fix for variants of the findings that the kind "
                        "names (the shipped definitions word them), by name: "
                        "[guidance.variants.<name>]. A "
                        "variant's summary or steps replace the main ones for those findings; "
                        "what it leaves out comes from the main guidance. A finding whose "
                        "variant is not here gets the main guidance.",
                        "propertyNames": {"pattern": RULE_NAME},
                        "additionalProperties": {
                            "type": "object",
                            "properties": described(
                                {
                                    "summary": template | {"description": "One line: what to do."},
                                    "steps": {
                                        "type": "array",
                                        "description": "Numbered steps.",
                                        "items": template,
                                    },
                                },
                                VARIANT_KEYS,
                                "[guidance.variants.<name>]",
                            ),
                            "additionalProperties": False,
                        },
                    },
                },
                GUIDANCE_KEYS,
                "[guidance]",
            ),
            "additionalProperties": False,
        },
        "description": {
            "type": "string",
            "description": "A longer account of the rule, in Markdown, shown by "
            "`inwards rule CODE`.",
        },
        "shadow": {
            "type": "object",
            "description": "Written by `inwards rules shadow`: the definition this file was "
            "copied from. When the base changes (an upgrade), the shadow is reported as stale.",
            "required": ["sha256"],
            "properties": described(
                {
                    "root": string | {"description": "The root of the base: core or user."},
                    "distribution": string
                    | {"description": "The distribution that shipped the base (core)."},
                    "version": string | {"description": "Its version."},
                    "sha256": {
                        "type": "string",
                        "description": "The sha256 of the base's bytes.",
                        "minLength": 1,
                    },
                    "path": string | {"description": "The base's path."},
                },
                SHADOW_KEYS,
                "[shadow]",
            ),
            "additionalProperties": False,
        },
    }


def definition_schema(families: Sequence[Family]) -> JSON:
    kinds = kinds_by_id(families)
    rules: list[JSON] = []
    # A kind of an installed family must be one that family registers (a typo is caught);
    # a kind of a family not installed here is left to the run that has it.
    namespaces = sorted({kind_id.split(".", 1)[0] for kind_id in kinds if "." in kind_id})
    for namespace in namespaces:
        known = sorted(k for k in kinds if k.split(".", 1)[0] == namespace)
        rules.append(
            {
                "if": {
                    "properties": {"check": {"type": "string", "pattern": f"^{namespace}\\."}},
                    "required": ["check"],
                },
                "then": {"properties": {"check": {"enum": known}}},
            }
        )
    for kind_id in sorted(kinds):
        required = required_options(kinds[kind_id].options_type)
        options: JSON = {"$ref": options_ref(kind_id)}
        then: JSON = {"properties": {"options": options}}
        if required:
            then["properties"]["options"] = {"allOf": [options, {"required": list(required)}]}
            then["required"] = ["options"]
        rules.append(
            {
                "if": {"properties": {"check": {"const": kind_id}}, "required": ["check"]},
                "then": then,
            }
        )
    overlay_keys = [
        k for k in (*DEFINITION_KEYS, *OVERLAY_ONLY_KEYS) if k not in OVERLAY_FORBIDDEN_KEYS
    ]
    return {
        "description": "One rule definition: a TOML file named <CODE>.toml in a rule root "
        "(shipped with a family, an organisation rule pack, $XDG_CONFIG_HOME/inwards/rules, "
        "or <project>/.inwards/rules). A whole definition in a higher root with the same code "
        'replaces the lower one as a whole; an overlay (`overlays = "CODE"` or an '
        "[overlay] table) changes only the fields it gives of the definition below it.",
        "type": "object",
        "properties": {
            **described(_definition_properties(kinds), DEFINITION_KEYS, "a definition"),
            **_overlay_properties(),
        },
        "additionalProperties": False,
        "if": {"anyOf": [{"required": ["overlays"]}, {"required": ["overlay"]}]},
        "then": {"propertyNames": {"enum": overlay_keys}},
        "else": {
            "required": ["code", "name", "check"],
            "propertyNames": {"enum": list(DEFINITION_KEYS)},
        },
        "allOf": rules,
        "$defs": kind_option_defs(kinds),
    }


def _overlay_properties() -> dict[str, JSON]:
    """The keys only an overlay has. Its other keys are a definition's, each optional;
    `[options]` may also hold `extend-<option>` arrays (appended to `<option>`)."""
    string = {"type": "string"}
    dotted = {"type": "array", "items": {"type": "string", "minLength": 1}}
    return described(
        {
            "overlays": {
                "type": "string",
                "description": "The code of the rule this file changes: the file's own name. "
                "Only the fields given here change; the rest follow the definition below.",
                "pattern": RULE_CODE,
            },
            "overlay": {
                "type": "object",
                "description": "Written by `inwards rules shadow CODE --overlay`: the "
                "definition below when the overlay was written, so an upstream change to a "
                "field it sets or unsets is reported as a conflict.",
                "properties": described(
                    {
                        "code": string | {"description": "The rule's code (as `overlays`)."},
                        "root": string | {"description": "The root of the base."},
                        "distribution": string
                        | {"description": "The distribution that shipped the base (core)."},
                        "version": string | {"description": "Its version."},
                        "path": string | {"description": "The base's path."},
                        "sha256": string
                        | {"description": "The table_digest of the base's (merged) table."},
                        "was": {
                            "type": "object",
                            "description": "The base's value of each field the overlay sets "
                            'or unsets, by dotted key ("options.forbidden").',
                        },
                        "was-absent": dotted
                        | {"description": "The fields it sets or unsets that the base lacked."},
                    },
                    OVERLAY_TABLE_KEYS,
                    "[overlay]",
                ),
                "additionalProperties": False,
            },
            "unset": dotted
            | {
                "description": "Fields removed from the definition below, by dotted key "
                '("options.forbidden", "guidance.steps"), before the fields given here are '
                "merged.",
            },
        },
        OVERLAY_ONLY_KEYS,
        "an overlay",
    )
