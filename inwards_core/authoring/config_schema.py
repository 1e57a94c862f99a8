"""The schemas of the `[tool.inwards]` table (`config`) and of a whole `pyproject.toml` that
holds it (`pyproject`, for editors). Keys, enums and patterns come from the constants the
loader checks against (`inwards_core.config.load` and `.layers`); a key the loader accepts
but this module does not describe fails the build."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from inwards_core.authoring.option_schemas import kind_option_defs, kinds_by_id, rule_table
from inwards_core.authoring.structure_schema import structure_defs, structure_properties
from inwards_core.authoring.template_schema import (
    TEMPLATE_KEY,
    template_def,
    template_properties,
    template_table_properties,
)
from inwards_core.config.layers import LAYER_KEYS
from inwards_core.config.load import (
    AGENT_SUPPRESSIONS_VALUES,
    ON_COLLISION_VALUES,
    RULES_KEYS,
    SEVERITY_VALUES,
    TOP_LEVEL_KEYS,
    USER_RULES_VALUES,
)
from inwards_core.config.template_reading import TEMPLATE_KEYS
from inwards_core.config.values import DEFAULT_ESCALATE_AFTER, DEFAULT_GENERATED
from inwards_core.model.json_schema import (
    JSON,
    RULE_CODE,
    RULE_CODE_OR_PREFIX,
    RULE_NAME,
    VERSION,
)
from inwards_core.rules.kinds import Family
from inwards_core.rules.rule_set import RuleSet

# Python identifiers, written so that Python's `re`, ECMAScript and Rust's regex all read
# them alike (no \w, no look-around). Any non-ASCII character is let through: the loader,
# not the schema, has the last word, and a schema must never refuse what the loader takes.
IDENT = r"(?:[A-Za-z_]|[^\x00-\x7F])(?:[A-Za-z0-9_]|[^\x00-\x7F])*"

DOTTED_NAME = rf"^{IDENT}(?:\.{IDENT})*$"

MODULE_ENTRY = rf"^{IDENT}(?:\.(?:{IDENT}|\*\*?))*$"

IGNORE_ENTRY = rf"^/?{IDENT}(?:\.{IDENT})*$"

_GENERATED_SEGMENT = r"(?:[A-Za-z_*?]|[^\x00-\x7F])(?:[A-Za-z0-9_*?]|[^\x00-\x7F])*"

GENERATED_ENTRY = rf"^{_GENERATED_SEGMENT}(?:\.{_GENERATED_SEGMENT})*$"

ONLY_WILDCARDS = r"^[*?]+(?:\.[*?]+)*$"

NOT_BLANK = r"\S"


def any_case(code: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in code)


def always_on_pattern(codes: Iterable[str]) -> str:
    return "^(?:" + "|".join(any_case(code) for code in sorted(codes)) + ")$"


def strings(pattern: str | None = None, description: str = "") -> JSON:
    item: JSON = {"type": "string"}
    if pattern:
        item["pattern"] = pattern
    schema: JSON = {"type": "array", "items": item}
    if description:
        schema["description"] = description
    return schema


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
        "ignore": strings(
            IGNORE_ENTRY,
            "Code that is outside the layers on purpose, by module name. A name matches whole "
            'segments anywhere ("migrations" covers shop.orders.migrations); a leading "/" '
            'anchors it at the top level ("/tests"). Imports from layered code into ignored '
            "code are still checked.",
        )
        | {"default": []},
        "generated": {
            **strings(
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
        "namespace-packages": strings(
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
        "on-collision": {
            "enum": list(ON_COLLISION_VALUES),
            "description": "What happens when a project rule definition replaces a user "
            "definition of the same code with another intent (another check kind, a lower "
            'severity, opt-in over on, or another name for a code no family owns): "warn" '
            'prints a warning and the project\'s is in force, "error" stops the run (exit 2), '
            '"ignore" says nothing (inwards status still lists it).',
            "default": "warn",
        },
        "escalate-after": {
            "type": "integer",
            "minimum": 1,
            "description": "How many times the coding-agent hooks (inwards hook claude-code) "
            "block the same finding, or the Stop gate blocks in one turn, before they stop "
            "blocking and tell the agent to stop working around it and ask the user.",
            "default": DEFAULT_ESCALATE_AFTER,
        },
        "agent-suppressions": {
            "enum": list(AGENT_SUPPRESSIONS_VALUES),
            "description": 'Whether the coding-agent hooks honour an inline "# inwards: '
            'ignore[...]" comment the agent added during its session: "deny" counts only the '
            'suppressions there when the session started, "allow" counts every one. inwards '
            "check always honours them.",
            "default": "deny",
        },
        "rules": {"$ref": "#/$defs/rules"},
        "diagrams": {
            **strings(
                None,
                "Files holding architecture diagrams that the diagram rules (INW017-INW019) "
                "check against this configuration: Markdown, Mermaid or PlantUML, each a path "
                'or a glob relative to the directory of this pyproject.toml ("*" and "?" '
                'within a name, "[seq]" one character of a set, "**" any number of '
                'directories). Only blocks marked "%% inwards: layers|contexts" (Mermaid) or '
                '"\' inwards: layers|contexts" (PlantUML) are read.',
            ),
            "items": {
                "type": "string",
                "pattern": NOT_BLANK,
                "allOf": [
                    {"not": {"pattern": r"^(?:/|[A-Za-z]:)"}},
                    {"not": {"pattern": r"\\"}},
                    {"not": {"pattern": r"(?:^|/)\.\.(?:/|$)"}},
                ],
            },
            "default": [],
        },
        **template_properties(),
        **structure_properties(),
    }


def _layer_properties() -> dict[str, JSON]:
    return {
        "name": {
            "type": "string",
            "description": 'The layer\'s name, used in messages: unique, without "|".',
            "pattern": r"^[^|]*[^|\s][^|]*$",
        },
        "modules": strings(
            MODULE_ENTRY,
            f"What the layer owns: each entry is {_MODULE_ENTRY_TEXT}. May be empty.",
        ),
        "allow-libraries": strings(
            DOTTED_NAME,
            "Makes the layer an allowlist for third-party libraries: only these may be "
            f"imported (the standard library stays allowed unless denied). Entries are "
            f"{_LIBRARY_TEXT}.",
        ),
        "deny-libraries": strings(
            DOTTED_NAME,
            "Libraries, standard library included, that the layer may not import; on the "
            f"innermost layer this replaces the default deny list. Entries are {_LIBRARY_TEXT}.",
        ),
        "extend-deny-libraries": strings(
            DOTTED_NAME,
            f"Libraries added to the deny list in force for the layer. Entries are "
            f"{_LIBRARY_TEXT}.",
        ),
        "template": TEMPLATE_KEY,
    }


def _rules_properties(always_on_codes: Sequence[str]) -> dict[str, JSON]:
    """`always_on_codes`: the rules whose definitions say `always-on = true`, which
    `ignore` and `severity` can't name."""
    code = {"type": "string", "pattern": RULE_CODE_OR_PREFIX}
    ignored: JSON = dict(code)
    levelled: JSON = {"pattern": RULE_CODE}
    always_on = ""
    if always_on_codes:
        not_always_on = {"not": {"pattern": always_on_pattern(always_on_codes)}}
        ignored, levelled = ignored | not_always_on, levelled | not_always_on
        always_on = f" {', '.join(sorted(always_on_codes))} can't be turned off."
    return {
        "select": {
            "type": "array",
            "description": "Only these rules report: codes, such as INW001, or code "
            "prefixes, such as FAPI or INW0 (every rule whose code starts so, less those that "
            "need an option not given). Leave it out to keep the rules that are on by default.",
            "minItems": 1,
            "items": code,
        },
        "extend-select": {
            "type": "array",
            "description": "Rules to turn on besides those on by default (opt-in rules): "
            "codes or code prefixes, as in select.",
            "items": code,
        },
        "ignore": {
            "type": "array",
            "description": "Rules to turn off, by code or code prefix (a prefix leaves the "
            "always-on rules on); this wins over select and extend-select." + always_on,
            "items": ignored,
        },
        "severity": {
            "type": "object",
            "description": 'The severity of a rule, by code: "error" or "warning". Warnings '
            "never change the exit status.",
            "propertyNames": levelled,
            "additionalProperties": {"enum": list(SEVERITY_VALUES)},
        },
    }


def described(properties: Mapping[str, JSON], keys: Iterable[str], where: str) -> dict[str, JSON]:
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
    always_on = [rule.code for rule in rule_set.rules if rule.always_on]
    rules_properties = described(_rules_properties(always_on), RULES_KEYS, "[tool.inwards.rules]")
    kinds = kinds_by_id(families)
    for rule in sorted(rule_set.rules, key=lambda r: r.name):
        rules_properties[rule.name] = rule_table(
            rule.code,
            rule.name,
            rule.definition.summary,
            rule.kind,
            kinds,
            always_on=rule.always_on,
        )
    defs: dict[str, JSON] = {
        "layer": {
            "type": "object",
            "description": "One layer: its name and the modules it owns, and optionally the "
            "libraries it may or may not use.",
            "required": ["name", "modules"],
            "properties": described(_layer_properties(), LAYER_KEYS, "a layer table"),
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
    defs["template"] = template_def() | {
        "properties": described(template_table_properties(), TEMPLATE_KEYS, "a template table")
    }
    for name, (table, keys, properties) in structure_defs().items():
        defs[name] = table | {"properties": described(properties, keys, f"a {name} table")}
    defs.update(kind_option_defs(kinds))
    body: JSON = {
        "type": "object",
        "description": "The configuration of inwards, an architecture linter for Python: "
        "the layers of the project, innermost first, and which rules check them.",
        "required": ["layers"],
        "properties": described(_top_level_properties(), TOP_LEVEL_KEYS, "[tool.inwards]"),
        "additionalProperties": False,
    }
    return body, defs


def config_schema(families: Sequence[Family], rule_set: RuleSet) -> JSON:
    body, defs = _config_parts(families, rule_set)
    return {**body, "$defs": defs}


def pyproject_schema(families: Sequence[Family], rule_set: RuleSet) -> JSON:
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
