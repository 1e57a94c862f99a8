"""JSON Schemas (draft 2020-12) for what inwards reads and writes, built from the code.

Inputs: the `[tool.inwards]` table (`config`), a whole `pyproject.toml` holding it
(`pyproject`, for editors), and rule definition files (`definition`). Their keys, enums and
patterns come from the constants the loaders check against (`inwards_core.config.load`,
`inwards_core.rules.runtime`), and the option tables from each check kind's attrs options
class; a key the loader accepts but this module does not describe fails the build.
Outputs: the versioned JSON documents (`diagnostics`, `rules`, `rule`, `status`,
`baseline`).

The input schemas are closed (an unknown key is an error, as in the loaders). The output
schemas are open: within a version fields are only ever added, so a reader must accept
fields it does not know. `closed_schema` makes an output schema strict, for the tests that
catch a field the code writes but the schema does not describe.

The schemas use only keywords that Draft 7 validators understand as well (`$ref` into
`$defs`, `if`/`then`, `const`, `propertyNames`), so older editor plugins can use them.
Nothing here reads a file: the rule set and families come in as arguments.
"""

from __future__ import annotations

import copy
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from inwards_core.baseline import SCHEMA as BASELINE_SCHEMA
from inwards_core.baseline import json_schema as baseline_json_schema
from inwards_core.config.load import (
    LAYER_KEYS,
    RULES_KEYS,
    SEVERITY_VALUES,
    TOP_LEVEL_KEYS,
    USER_RULES_VALUES,
)
from inwards_core.config.values import DEFAULT_GENERATED
from inwards_core.model.findings import RootKind
from inwards_core.ports import RootState
from inwards_core.reporting.json import SCHEMA as DIAGNOSTICS_SCHEMA
from inwards_core.rules.kinds import CheckKind, Family, Scope
from inwards_core.rules.listing import RULES_SCHEMA
from inwards_core.rules.options import option_name
from inwards_core.rules.runtime import (
    ALWAYS_ON,
    DEFINITION_KEYS,
    GUIDANCE_KEYS,
    SHADOW_KEYS,
    USER_RULES_POLICIES,
    RuleSet,
)
from inwards_core.rules.status import STATUS_SCHEMA
from inwards_core.rules.templates import TEMPLATE_PATTERN

DIALECT = "https://json-schema.org/draft/2020-12/schema"
RULE_PAGE_SCHEMA = "inwards/rule@1"

JSON = dict[str, Any]


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
        "config": lambda: _config_schema(families, rule_set),
        "pyproject": lambda: _pyproject_schema(families, rule_set),
        "definition": lambda: _definition_schema(families),
        "diagnostics": _diagnostics_schema,
        "rules": _rules_schema,
        "rule": _rule_page_schema,
        "status": _status_schema,
        "baseline": _baseline_schema,
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


# -- patterns shared by the input schemas ---------------------------------------------

# Python identifiers, written so that Python's `re`, ECMAScript and Rust's regex all read
# them alike (no \w, no look-around). Any non-ASCII character is let through: the loader,
# not the schema, has the last word, and a schema must never refuse what the loader takes.
_IDENT = r"(?:[A-Za-z_]|[^\x00-\x7F])(?:[A-Za-z0-9_]|[^\x00-\x7F])*"
DOTTED_NAME = rf"^{_IDENT}(?:\.{_IDENT})*$"
MODULE_ENTRY = rf"^{_IDENT}(?:\.(?:{_IDENT}|\*\*?))*$"
IGNORE_ENTRY = rf"^/?{_IDENT}(?:\.{_IDENT})*$"
_GENERATED_SEGMENT = r"(?:[A-Za-z_*?]|[^\x00-\x7F])(?:[A-Za-z0-9_*?]|[^\x00-\x7F])*"
GENERATED_ENTRY = rf"^{_GENERATED_SEGMENT}(?:\.{_GENERATED_SEGMENT})*$"
ONLY_WILDCARDS = r"^[*?]+(?:\.[*?]+)*$"
# `code` is compared case-insensitively (upper-cased before CODE_PATTERN applies).
RULE_CODE = r"^[A-Za-z]{2,6}[0-9]{3}$"
RULE_NAME = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"
VERSION = r"^[0-9]+\.[0-9]+\.[0-9]+$"
SHA256 = r"^[0-9a-f]{64}$"
NOT_BLANK = r"\S"


def _any_case(code: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in code)


def _always_on_pattern() -> str:
    return "^(?:" + "|".join(_any_case(code) for code in sorted(ALWAYS_ON)) + ")$"


def _strings(pattern: str | None = None, description: str = "") -> JSON:
    item: JSON = {"type": "string"}
    if pattern:
        item["pattern"] = pattern
    schema: JSON = {"type": "array", "items": item}
    if description:
        schema["description"] = description
    return schema


# -- [tool.inwards] ---------------------------------------------------------------------

_MODULE_ENTRY_TEXT = (
    'a module prefix ("shop.domain", which covers everything below it) or a selector '
    '("shop.*.domain": "*" is one segment, "**" one or more; it starts with a literal '
    "top-level package)"
)
_LIBRARY_TEXT = (
    'import names ("sqlalchemy", "http.client"), each covering its submodules; not '
    'distribution names ("PyYAML") and not globs'
)


def _top_level_properties() -> dict[str, JSON]:
    # One entry per key `inwards_core.config.load` accepts; a key missing here fails the build.
    return {
        "root": {
            "type": "string",
            "description": "The directory module names are computed from, relative to the "
            'directory of this pyproject.toml: with root = "src", src/shop/x.py is the '
            "module shop.x. It must stay inside that directory.",
            "default": ".",
            "pattern": NOT_BLANK,
            "allOf": [
                {"not": {"pattern": r"^(?:[/\\]|[A-Za-z]:)"}},
                {"not": {"pattern": r"(?:^|[/\\])\.\.(?:[/\\]|$)"}},
            ],
        },
        "layers": {
            "type": "array",
            "description": "The layers, innermost first. An element is a layer table, or an "
            "array of two or more layer tables: sibling layers of one rank, which may not "
            "import each other. A module may import its own layer and every layer listed "
            "before it.",
            "minItems": 1,
            "items": {
                "anyOf": [
                    {"$ref": "#/$defs/layer"},
                    {
                        "type": "array",
                        "description": "Sibling layers of one rank.",
                        "minItems": 2,
                        "items": {"$ref": "#/$defs/layer"},
                    },
                ]
            },
        },
        "ignore": _strings(
            IGNORE_ENTRY,
            "Code that is outside the layers on purpose, by module name. A name matches whole "
            'segments anywhere ("migrations" covers shop.orders.migrations); a leading "/" '
            'anchors it at the top level ("/tests"). Imports from layered code into ignored '
            "code are still checked.",
        )
        | {"default": []},
        "generated": {
            **_strings(
                None,
                "Modules a build step writes, which count as existing even when the files "
                'are absent. "*" and "?" match within one segment; a pattern matches whole '
                "segments anywhere. An empty array turns the default off.",
            ),
            "items": {
                "type": "string",
                "pattern": GENERATED_ENTRY,
                "not": {"pattern": ONLY_WILDCARDS},
            },
            "default": list(DEFAULT_GENERATED),
        },
        "namespace-packages": _strings(
            DOTTED_NAME,
            "Namespace packages that installed distributions extend: any module directly "
            "inside them counts as existing.",
        )
        | {"default": []},
        "required-version": {
            "type": "string",
            "description": "The oldest inwards (MAJOR.MINOR.PATCH) that may check this "
            "project; an older one stops with a configuration error.",
            "pattern": VERSION,
        },
        "user-rules": {
            "enum": list(USER_RULES_VALUES),
            "description": "How much of each user's own rule root ($XDG_CONFIG_HOME/inwards/"
            'rules) this project takes: "on" everything, "guidance-only" only the [guidance] '
            'of definitions that shadow a lower one, "off" nothing. --isolated leaves the '
            "user root out for one run.",
            "default": "on",
        },
        "rules": {"$ref": "#/$defs/rules"},
    }


def _layer_properties() -> dict[str, JSON]:
    return {
        "name": {
            "type": "string",
            "description": 'The layer\'s name, used in messages: unique, without "|".',
            "pattern": r"^[^|]*[^|\s][^|]*$",
        },
        "modules": _strings(
            MODULE_ENTRY,
            f"What the layer owns: each entry is {_MODULE_ENTRY_TEXT}. May be empty.",
        ),
        "allow-libraries": _strings(
            DOTTED_NAME,
            "Makes the layer an allowlist for third-party libraries: only these may be "
            f"imported (the standard library stays allowed unless denied). Entries are "
            f"{_LIBRARY_TEXT}.",
        ),
        "deny-libraries": _strings(
            DOTTED_NAME,
            "Libraries, standard library included, that the layer may not import; on the "
            f"innermost layer this replaces the default deny list. Entries are {_LIBRARY_TEXT}.",
        ),
        "extend-deny-libraries": _strings(
            DOTTED_NAME,
            f"Libraries added to the deny list in force for the layer. Entries are "
            f"{_LIBRARY_TEXT}.",
        ),
    }


def _rules_properties() -> dict[str, JSON]:
    always_on = _always_on_pattern()
    code = {"type": "string", "pattern": RULE_CODE}
    return {
        "select": {
            "type": "array",
            "description": "Only these rules report (codes, such as INW001). Leave it out to "
            "keep the rules that are on by default.",
            "minItems": 1,
            "items": code,
        },
        "extend-select": {
            "type": "array",
            "description": "Rules to turn on besides those on by default (opt-in rules).",
            "items": code,
        },
        "ignore": {
            "type": "array",
            "description": "Rules to turn off; this wins over select and extend-select. "
            f"{', '.join(sorted(ALWAYS_ON))} can't be turned off.",
            "items": {**code, "not": {"pattern": always_on}},
        },
        "severity": {
            "type": "object",
            "description": 'The severity of a rule, by code: "error" or "warning". Warnings '
            "never change the exit status.",
            "propertyNames": {"pattern": RULE_CODE, "not": {"pattern": always_on}},
            "additionalProperties": {"enum": list(SEVERITY_VALUES)},
        },
    }


def _described(properties: Mapping[str, JSON], keys: Iterable[str], where: str) -> dict[str, JSON]:
    """`properties` in the order of `keys` (the loader's own list): a key the loader takes
    but this module doesn't describe, or the other way round, fails here."""
    keys = tuple(keys)
    missing = [k for k in keys if k not in properties]
    extra = [k for k in properties if k not in keys]
    if missing or extra:
        raise LookupError(
            f"the schema of {where} is out of step with the loader: "
            f"undescribed keys {missing}, keys the loader does not take {extra}"
        )
    return {key: properties[key] for key in keys}


def _config_parts(families: Sequence[Family], rule_set: RuleSet) -> tuple[JSON, dict[str, JSON]]:
    """The `[tool.inwards]` schema body and the `$defs` it refers to."""
    rules_properties = _described(_rules_properties(), RULES_KEYS, "[tool.inwards.rules]")
    kinds = _kinds(families)
    for rule in sorted(rule_set.rules, key=lambda r: r.name):
        rules_properties[rule.name] = _rule_table(
            rule.code, rule.name, rule.definition.summary, rule.kind, kinds
        )
    defs: dict[str, JSON] = {
        "layer": {
            "type": "object",
            "description": "One layer: its name and the modules it owns, and optionally the "
            "libraries it may or may not use.",
            "required": ["name", "modules"],
            "properties": _described(_layer_properties(), LAYER_KEYS, "a layer table"),
            "additionalProperties": False,
        },
        "rules": {
            "type": "object",
            "description": "Which rules run and how: select, extend-select, ignore, severity, "
            "and a table of options per rule, keyed by the rule's name "
            "([tool.inwards.rules.layer-dependency]). The options of your own rules' tables "
            "are checked when inwards runs.",
            "properties": rules_properties,
            "propertyNames": {"pattern": RULE_NAME},
            "additionalProperties": {
                "type": "object",
                "description": "Options for a rule defined in a user or project rule root, "
                "keyed by its name.",
            },
        },
    }
    defs.update(_kind_option_defs(kinds))
    body: JSON = {
        "type": "object",
        "description": "The configuration of inwards, an architecture linter for Python: "
        "the layers of the project, innermost first, and which rules check them.",
        "required": ["layers"],
        "properties": _described(_top_level_properties(), TOP_LEVEL_KEYS, "[tool.inwards]"),
        "additionalProperties": False,
    }
    return body, defs


def _config_schema(families: Sequence[Family], rule_set: RuleSet) -> JSON:
    body, defs = _config_parts(families, rule_set)
    return {**body, "$defs": defs}


def _pyproject_schema(families: Sequence[Family], rule_set: RuleSet) -> JSON:
    body, defs = _config_parts(families, rule_set)
    return {
        "description": "A whole pyproject.toml in which only [tool.inwards] is checked; "
        "every other table is left open. Point Taplo or Even Better TOML at it.",
        "type": "object",
        "properties": {
            "tool": {
                "type": "object",
                "properties": {"inwards": {"$ref": "#/$defs/tool-inwards"}},
                "additionalProperties": True,
            }
        },
        "additionalProperties": True,
        "$defs": {"tool-inwards": body, **defs},
    }


def _rule_table(
    code: str, name: str, summary: str, kind: CheckKind, kinds: Mapping[str, CheckKind]
) -> JSON:
    if code in ALWAYS_ON:
        return {
            "description": f"{code} ({summary}) has no options and can't be configured.",
            "not": {},
        }
    return {
        "description": f"Options of {code} {name} (check kind {kind.id}): {summary} Unset "
        "options keep the values of the rule's definition.",
        "allOf": [{"$ref": _options_ref(kind.id)}],
    }


# -- check kinds and their options ------------------------------------------------------


def _kinds(families: Sequence[Family]) -> dict[str, CheckKind]:
    return {kind.id: kind for family in families for kind in family.kinds}


def _options_ref(kind_id: str) -> str:
    return f"#/$defs/options.{kind_id}"


def _kind_option_defs(kinds: Mapping[str, CheckKind]) -> dict[str, JSON]:
    return {f"options.{kind_id}": _options_object(kinds[kind_id]) for kind_id in sorted(kinds)}


def _options_object(kind: CheckKind) -> JSON:
    """The options of a kind, from its attrs options class. No option is required here:
    `[tool.inwards.rules.<name>]` is merged over the definition's own options."""
    options_type = kind.options_type
    hints = typing.get_type_hints(options_type)
    docs = [" ".join(doc.split()) for doc in _class_docs(options_type)]
    properties: dict[str, JSON] = {}
    for field in attrs.fields(options_type):
        properties[option_name(field.name)] = _option_schema(kind, field, hints[field.name])
    text = " ".join([f"The options of the check kind {kind.id}: {kind.summary}", *docs])
    return {
        "type": "object",
        "description": text,
        "properties": properties,
        "additionalProperties": False,
    }


def required_options(kind: CheckKind) -> tuple[str, ...]:
    """Options a definition naming `kind` must set: fields without a default, or marked
    `metadata={"required": True}`."""
    return tuple(
        option_name(field.name)
        for field in attrs.fields(kind.options_type)
        if field.metadata.get("required") or field.default is attrs.NOTHING
    )


def _value_schema(tp: Any) -> JSON | None:
    """The JSON Schema of an option's type, as `inwards_core.rules.options` reads it."""
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    origin = typing.get_origin(tp)
    if origin is tuple:  # the parser takes an array of strings for any tuple
        return {"type": "array", "items": {"type": "string"}}
    if origin in (types.UnionType, typing.Union):
        # None can't be written in TOML: `X | None` is X, or left out.
        choices = [_value_schema(a) for a in typing.get_args(tp) if a is not type(None)]
        known = [c for c in choices if c is not None]
        if len(known) == 1:
            return known[0]
        return {"anyOf": known} if known else None
    return None  # a type the parser doesn't take: left to it


def _class_docs(options_type: type[Any]) -> list[str]:
    """The docstrings of an options class and its bases, without attrs' generated ones."""
    docs = []
    for cls in options_type.__mro__:
        doc = (cls.__doc__ or "").strip()
        if cls is not object and doc and not doc.startswith(cls.__name__ + "("):
            docs.append(doc)
    return docs


def _option_text(options_type: type[Any], name: str) -> str | None:
    """What the options class's docstring says of `name`: the first sentence naming it in
    backquotes (family authors can be more precise with `metadata={"description": ...}`)."""
    for doc in _class_docs(options_type):
        for sentence in re.split(r"(?<=\.)\s+", " ".join(doc.split())):
            if f"`{name}`" in sentence:
                return sentence
    return None


def _is_factory(value: Any) -> bool:
    # attrs.Factory is typed as a function, so isinstance() can't be used on it.
    return hasattr(value, "factory") and hasattr(value, "takes_self")


def _option_schema(kind: CheckKind, field: attrs.Attribute[Any], tp: Any) -> JSON:
    name = option_name(field.name)
    schema: JSON = dict(_value_schema(tp) or {})
    described = field.metadata.get("description")
    required = bool(field.metadata.get("required")) or field.default is attrs.NOTHING
    if isinstance(described, str) and described:
        text = described
    else:
        text = _option_text(kind.options_type, name) or f"Option `{name}` of {kind.id}."
    if required:
        text += " A definition naming this kind must set it."
    schema["description"] = text
    if required and schema.get("type") == "array":
        schema["minItems"] = 1
    default = field.default
    if not required and default is not attrs.NOTHING and not _is_factory(default):
        plain = list(default) if isinstance(default, tuple) else default
        if plain is not None:
            schema["default"] = plain
    return schema


# -- rule definition files --------------------------------------------------------------


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
            "description": "One line: what the rule reports.",
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
            "properties": _described(
                {
                    "summary": template | {"description": "One line: what to do."},
                    "steps": {
                        "type": "array",
                        "description": "Numbered steps.",
                        "items": template,
                    },
                    "docs": string | {"description": "A link or path to more documentation."},
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
            "properties": _described(
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


def _definition_schema(families: Sequence[Family]) -> JSON:
    kinds = _kinds(families)
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
        required = required_options(kinds[kind_id])
        options: JSON = {"$ref": _options_ref(kind_id)}
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
    return {
        "description": "One rule definition: a TOML file named <CODE>.toml in a rule root "
        "(shipped with a family, $XDG_CONFIG_HOME/inwards/rules, or <project>/.inwards/"
        "rules). A definition in a higher root with the same code replaces the lower one as "
        "a whole.",
        "type": "object",
        "required": ["code", "name", "summary", "check"],
        "properties": _described(_definition_properties(kinds), DEFINITION_KEYS, "a definition"),
        "additionalProperties": False,
        "allOf": rules,
        "$defs": _kind_option_defs(kinds),
    }


# -- output documents -------------------------------------------------------------------


def _const(value: str) -> JSON:
    return {"const": value, "description": "The name and version of this document's format."}


def _int(description: str, minimum: int = 0) -> JSON:
    return {"type": "integer", "minimum": minimum, "description": description}


def _text(description: str) -> JSON:
    return {"type": "string", "description": description}


def _nullable(schema: JSON) -> JSON:
    described = {k: v for k, v in schema.items() if k != "description"}
    result: JSON = {"anyOf": [described, {"type": "null"}]}
    if "description" in schema:
        result["description"] = schema["description"]
    return result


def _array(items: JSON, description: str) -> JSON:
    return {"type": "array", "items": items, "description": description}


def _object(properties: Mapping[str, JSON], required: Iterable[str] = (), **extra: Any) -> JSON:
    schema: JSON = {"type": "object"}
    if "description" in extra:
        schema["description"] = extra.pop("description")
    required = list(required)
    if required:
        schema["required"] = required
    schema["properties"] = dict(properties)
    schema.update(extra)
    return schema


_ROOTS = [root.value for root in RootKind]
_SEVERITIES = list(SEVERITY_VALUES)
_USER_EFFECTS = ["new", "shadows core", "guidance only"]


def _user_definitions() -> JSON:
    return _array(
        _object(
            {
                "code": _text("The rule's code."),
                "effect": {
                    "enum": _USER_EFFECTS,
                    "description": "What the user definition does here: a new rule, a "
                    'shadow of a core rule, or only its guidance (user-rules = "guidance-only").',
                },
                "path": _text("The user definition's file."),
            },
            ["code", "effect", "path"],
        ),
        "User rule definitions in effect: results on one machine can differ from CI's "
        "because of them.",
    )


def _diagnostic() -> JSON:
    position = "1-based"
    return _object(
        {
            "code": _text("The rule's code, such as INW001.") | {"pattern": RULE_CODE},
            "rule": _text("The rule's name.") | {"pattern": RULE_NAME},
            "severity": {"enum": _SEVERITIES, "description": "Only errors fail a check."},
            "origin": {
                "enum": _ROOTS,
                "description": "The root of the rule definition that produced the finding.",
            },
            "file": _text(
                "The file, as a POSIX path relative to the directory inwards ran in "
                "(pyproject.toml for findings about the configuration)."
            ),
            "module": _nullable(_text("The module's dotted name; null when the file is none.")),
            "line": _int(f"Where the finding starts: line, {position}.", 1),
            "column": _int(f"Where the finding starts: column, {position}.", 1),
            "endLine": _int(f"Where it ends: line, {position}.", 1),
            "endColumn": _int(f"Where it ends: column, {position}, exclusive.", 1),
            "message": _text("What is wrong, in one or more sentences."),
            "fix": _object(
                {
                    "summary": _text("What to do, in one line."),
                    "steps": _array({"type": "string"}, "Numbered steps, in order."),
                },
                ["summary", "steps"],
                description="How to fix it, from the rule definition's guidance.",
            ),
            "docs": _text("The rule's documentation (a link or a path)."),
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


def _baseline_entry(description: str) -> JSON:
    return _object(
        {
            "code": _text("The rule's code.") | {"pattern": RULE_CODE},
            "module": _text("The module of the findings (their file when they have no module)."),
            "message": _text(
                "The stable form of the message: without line numbers or parts that change "
                "with unrelated configuration."
            ),
            "count": _int("How many such findings are accepted.", 1),
        },
        ["code", "module", "message", "count"],
        description=description,
    )


def _diagnostics_schema() -> JSON:
    count = "How many"
    return _object(
        {
            "schema": _const(DIAGNOSTICS_SCHEMA),
            "summary": _object(
                {
                    "filesChecked": _int("How many files were checked."),
                    "violations": _int(
                        f"{count} errors were reported (not suppressed or "
                        "accepted by the baseline)."
                    ),
                    "warnings": _int(f"{count} warnings were reported."),
                    "durationMs": {
                        "type": "number",
                        "minimum": 0,
                        "description": "How long the check took, in milliseconds; the only "
                        "part of the document that differs between identical runs.",
                    },
                    "suppressed": _int(f"{count} findings inline comments hid (only when > 0)."),
                    "omitted": _int(f"{count} findings --max-diagnostics left out (only with it)."),
                    "baselined": _int(f"{count} findings the baseline accepted (with a baseline)."),
                    "resolved": _int(
                        f"{count} baselined findings are fixed since the baseline was written "
                        "(whole-project runs with a baseline)."
                    ),
                },
                ["filesChecked", "violations", "warnings", "durationMs"],
                description="Counts for the whole run.",
            ),
            "notChecked": _array(
                _object(
                    {
                        "path": _text("The path, relative to the directory inwards ran in."),
                        "message": _text("Why it was not checked."),
                    },
                    ["path", "message"],
                ),
                "Paths that were named or found but not checked (only when there are some).",
            ),
            "notes": _array(
                {"type": "string"},
                "Notes for people: configuration warnings, whole-project checks skipped with "
                "PATHS (only when there are some).",
            ),
            "ruleSet": _object(
                {
                    "fingerprint": _text(
                        "sha256 of the active definitions, their kinds' versions and the "
                        "inwards version: it changes whenever the rules that ran change."
                    )
                    | {"pattern": SHA256},
                    "userDefinitions": _user_definitions(),
                },
                ["fingerprint", "userDefinitions"],
                description="The effective rule set.",
            ),
            "baselineFile": _text(
                "The baseline that was read, relative to the directory inwards ran in "
                "(only when there is one)."
            ),
            "baselineResolved": _array(
                _baseline_entry("A baseline entry that matched fewer findings than it accepts."),
                "Baseline entries fixed since the baseline was written, so it can shrink "
                "(whole-project runs with a baseline).",
            ),
            "diagnostics": _array(
                _diagnostic(),
                "The findings, sorted by file and position; whole-project findings last. "
                "Suppressed and baselined findings are counted in the summary, not listed.",
            ),
        },
        ["schema", "summary", "diagnostics"],
        description="What `inwards check --format json` prints. Fields are only ever added "
        "within a version: ignore the ones you don't know.",
    )


def _origin(**extra: JSON) -> JSON:
    return _object(
        {
            **extra,
            "root": {"enum": _ROOTS, "description": "The root the definition was read from."},
            "path": _text(
                "The definition's file: relative to the installed package for core, absolute "
                "or relative to the project otherwise."
            ),
            "sha256": _text("sha256 of the file's bytes.") | {"pattern": SHA256},
            "distribution": _text("The distribution that ships it (core only)."),
            "version": _text("That distribution's version (core only)."),
        },
        ["root", "path", "sha256", *extra],
        description="Where a rule definition comes from.",
    )


def _problem() -> JSON:
    return _object(
        {
            "root": {"enum": _ROOTS, "description": "The root of the file."},
            "path": _text("The file."),
            "line": _nullable(_int("The line, when known.", 1)),
            "key": _text("The dotted key, or empty."),
            "message": _text("What is wrong."),
            "blocking": {
                "type": "boolean",
                "description": "True when it stops a check (project and core roots); user-root "
                "problems only warn, and the lower definition stays in force.",
            },
        },
        ["root", "path", "line", "key", "message", "blocking"],
        description="A rule definition that can't be used.",
    )


def _rules_schema() -> JSON:
    return _object(
        {
            "schema": _const(RULES_SCHEMA),
            "fingerprint": _text("sha256 of the effective rule set.") | {"pattern": SHA256},
            "userRules": {
                "enum": list(USER_RULES_POLICIES),
                "description": "The project's user-rules policy.",
            },
            "rules": _array(
                _object(
                    {
                        "code": _text("The rule's code.") | {"pattern": RULE_CODE},
                        "name": _text("The rule's name.") | {"pattern": RULE_NAME},
                        "summary": _text("What the rule reports."),
                        "kind": _text("The check kind of its definition."),
                        "enabled": {"type": "boolean", "description": "Whether it runs here."},
                        "decidedBy": _text(
                            'What decided whether it runs: "default", "opt-in", "always on", '
                            '"rules.select", "rules.extend-select", "rules.ignore" or '
                            '"not in rules.select".'
                        ),
                        "severity": {"enum": _SEVERITIES, "description": "Its severity here."},
                        "severityDecidedBy": _text(
                            'What decided the severity: "default" or "rules.severity".'
                        ),
                        "default": {
                            "enum": ["on", "opt-in"],
                            "description": "Its definition's default state.",
                        },
                        "origin": _origin(),
                        "shadows": _array(
                            _origin(), "The lower definitions it shadows, highest first."
                        ),
                        "guidanceFrom": _nullable(
                            _origin()
                            | {
                                "description": "The user definition whose guidance it uses "
                                '(user-rules = "guidance-only"), or null.'
                            }
                        ),
                        "stale": _nullable(
                            _text("Why its shadow is stale (its base has changed), or null.")
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
            "ignoredByPolicy": _array(
                _origin(code=_text("The rule's code.") | {"pattern": RULE_CODE}),
                "User definitions the user-rules policy left out.",
            ),
            "problems": _array(_problem(), "Rule definitions that can't be used."),
        },
        ["schema", "fingerprint", "userRules", "rules", "ignoredByPolicy", "problems"],
        description="What `inwards rules --json` prints: every rule, whether it runs and why, "
        "and where its definition comes from.",
    )


def _rule_page_schema() -> JSON:
    section = _object(
        {
            "id": _text(
                "A stable id: what-it-does, why-is-this-bad, how-to-fix, limitations, "
                "options, guidance, examples, or the slug of another heading."
            ),
            "title": _text("The section's heading."),
            "markdown": _text("The section's text, in Markdown."),
        },
        ["id", "title", "markdown"],
    )
    return _object(
        {
            "schema": _const(RULE_PAGE_SCHEMA),
            "code": _text("The rule's code.") | {"pattern": RULE_CODE},
            "name": _text("The rule's name.") | {"pattern": RULE_NAME},
            "summary": _text("What the rule reports, in one line."),
            "description": _text("The definition's longer description (often empty)."),
            "kind": _text("The check kind."),
            "default": {"enum": ["on", "opt-in"], "description": "The default state."},
            "severity": {"enum": _SEVERITIES, "description": "The definition's severity."},
            "suppressible": {
                "type": "boolean",
                "description": "Whether inline comments may hide its findings.",
            },
            "scope": {
                "enum": [scope.value for scope in Scope],
                "description": '"file": runs on every checked file; "project": only on '
                'whole-project runs; "review": after suppressions, on their verdicts.',
            },
            "origin": _origin(),
            "shadows": _array(_origin(), "The lower definitions it shadows, highest first."),
            "guidanceFrom": _nullable(
                _origin() | {"description": "The user definition lending its guidance, or null."}
            ),
            "options": {
                "type": "object",
                "description": "The options as the definition sets them (the kind's defaults "
                "for the others).",
            },
            "guidance": _object(
                {
                    "summary": _text("What to do, in one line."),
                    "steps": _array({"type": "string"}, "Numbered steps."),
                    "docs": _text("A link or path to more documentation."),
                },
                ["summary", "steps", "docs"],
                description="The fix printed under each finding (with {placeholders}).",
            ),
            "full": {
                "type": "boolean",
                "description": "True when the sections are the whole page (--full), with "
                "examples and their real output.",
            },
            "sections": _array(section, "The page, section by section, in order."),
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


def _status_schema() -> JSON:
    codes = {"type": "array", "items": {"type": "string"}}
    return _object(
        {
            "schema": _const(STATUS_SCHEMA),
            "roots": _array(
                _object(
                    {
                        "root": {"enum": _ROOTS, "description": "Which root."},
                        "location": _text("Where it is (a directory, or the packages)."),
                        "state": {
                            "enum": [state.value for state in RootState],
                            "description": "Whether it was found and read.",
                        },
                        "note": _text("A note on its state, or empty."),
                        "warning": _text("A warning about it, or empty."),
                        "definitions": _int("How many of its definitions are in use."),
                        "shadowing": {
                            "type": "object",
                            "description": "The codes its definitions shadow, by lower root.",
                            "propertyNames": {"enum": _ROOTS},
                            "additionalProperties": codes,
                        },
                        "new": codes | {"description": "Codes no lower root defines."},
                        "problems": _array({"type": "string"}, "Its unusable definitions."),
                        "digest": _text(
                            "sha256 over its definition files (and for core, the families' "
                            "versions)."
                        ),
                        "changedSinceLastCheck": _nullable(
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
                        "new",
                        "problems",
                        "digest",
                        "changedSinceLastCheck",
                    ],
                ),
                "The core, user and project roots.",
            ),
            "families": _array(
                _object(
                    {
                        "prefix": _text("The code prefix the family owns."),
                        "distribution": _text("The distribution that ships it."),
                        "version": _text("Its version."),
                        "kinds": _int("How many check kinds it registers."),
                        "rules": _int("How many core definitions it ships."),
                    },
                    ["prefix", "distribution", "version", "kinds", "rules"],
                ),
                "The installed rule families.",
            ),
            "totals": _object(
                {
                    "active": _int("Rules that run."),
                    "shadowed": _int("Definitions a higher root shadows."),
                    "optInOff": codes | {"description": "Opt-in rules not turned on."},
                    "disabledByConfig": codes
                    | {"description": "Rules [tool.inwards.rules] turns off."},
                    "ignoredByPolicy": codes
                    | {"description": "User definitions the user-rules policy leaves out."},
                },
                ["active", "shadowed", "optInOff", "disabledByConfig", "ignoredByPolicy"],
                description="The effective totals.",
            ),
            "staleShadows": _array(
                _object(
                    {
                        "code": _text("The rule's code."),
                        "root": {"enum": _ROOTS, "description": "The shadow's root."},
                        "path": _text("The shadow's file."),
                        "message": _text("What changed."),
                    },
                    ["code", "root", "path", "message"],
                ),
                "Shadows whose base has changed since they were copied.",
            ),
            "userRules": {
                "enum": list(USER_RULES_POLICIES),
                "description": "The project's user-rules policy.",
            },
            "userDefinitions": _user_definitions(),
            "fingerprint": _text("sha256 of the effective rule set.") | {"pattern": SHA256},
            "configProblems": _array(
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
        ],
        description="What `inwards status --json` prints: the rule roots and what each "
        "contributes.",
    )


def _baseline_schema() -> JSON:
    # The baseline module describes its own strict reader; only the head is ours.
    schema = baseline_json_schema()
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id", "title")}
