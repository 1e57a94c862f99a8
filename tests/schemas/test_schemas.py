"""schemas/*.schema.json are built from the code; a stale file fails here.

`INWARDS_REGENERATE=1 pytest tests/schemas/test_schemas.py` rewrites them. Beyond
freshness: the input schemas never refuse what the loaders accept (a property test over
generated tables and definitions), they refuse what the loaders refuse where JSON Schema
can say it, and every output document the code builds validates against the strict form
of its schema.
"""

from __future__ import annotations

import itertools
import json
import os
import tomllib
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.api import installed_families, load_config, load_rules, prepare
from inwards_core.authoring.docgen import rule_page_document
from inwards_core.authoring.examples import Example, run_example
from inwards_core.authoring.schemas import (
    SCHEMAS,
    build_schema,
    build_schemas,
    closed_schema,
    schema_info,
    schema_text,
)
from inwards_core.baseline.matching import apply_baseline
from inwards_core.baseline.writing import build_baseline, serialise_baseline
from inwards_core.config.layers import LAYER_KEYS
from inwards_core.config.load import RULES_KEYS, TOP_LEVEL_KEYS
from inwards_core.config.values import ConfigError, RuleSettings
from inwards_core.families.inw import GENERIC_KIND_MODULES, KIND_MODULES
from inwards_core.model.findings import NotChecked, RootKind, UserDefinitionInEffect
from inwards_core.ports import RuleDocument
from inwards_core.reporting.json import report_document
from inwards_core.rules.definitions import (
    DEFINITION_KEYS,
    GUIDANCE_KEYS,
    OVERLAY_ONLY_KEYS,
    DefinitionProblem,
)
from inwards_core.rules.kinds import kinds_by_id
from inwards_core.rules.listing import rules_document
from inwards_core.rules.options import required_options
from inwards_core.rules.reading import parse_definition
from inwards_core.rules.resolver import resolve
from inwards_core.rules.selection import select
from inwards_core.rules.status import rules_status, status_document
from inwards_core.version import DISTRIBUTION
from tests.e2e.helpers import assert_valid, schema_problems

REPO = Path(__file__).resolve().parents[2]
SCHEMA_DIR = REPO / "schemas"
# The committed schemas cover the families shipped with inwards, whatever else is installed.
FAMILIES = tuple(f for f in installed_families() if f.distribution == DISTRIBUTION)
CORE = load_rules(FAMILIES)
KINDS = kinds_by_id(FAMILIES)
BUILT = build_schemas(FAMILIES, CORE)


@pytest.mark.parametrize("info", SCHEMAS, ids=[s.name for s in SCHEMAS])
def test_committed_schema_is_fresh(info) -> None:  # type: ignore[no-untyped-def]
    path = SCHEMA_DIR / info.file
    text = schema_text(BUILT[info.name])
    if os.environ.get("INWARDS_REGENERATE"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run INWARDS_REGENERATE=1 pytest {__file__}"
    assert path.read_text(encoding="utf-8") == text, (
        f"{path} is stale: run INWARDS_REGENERATE=1 pytest tests/schemas/test_schemas.py"
    )


def test_schemas_folder_holds_exactly_the_schemas() -> None:
    committed = {p.name for p in SCHEMA_DIR.iterdir() if p.name != "README.md"}
    assert committed == {info.file for info in SCHEMAS}


@pytest.mark.parametrize("name", sorted(BUILT))
def test_every_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = BUILT[name]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator.check_schema(closed_schema(schema))
    # Refs resolve: validating anything walks into every $ref it meets.
    assert isinstance(list(jsonschema.Draft202012Validator(schema).iter_errors({})), list)


def test_schema_names_and_document_names_both_find_a_schema() -> None:
    assert schema_info("Diagnostics") is schema_info("inwards/diagnostics@1")
    assert schema_info("inwards/rules@1") is not None
    assert schema_info("inwards/rules@2") is None
    assert schema_info("nonsense") is None


# -- [tool.inwards] ---------------------------------------------------------------------


def test_config_schema_describes_every_key_the_loader_takes() -> None:
    config = BUILT["config"]
    assert tuple(config["properties"]) == TOP_LEVEL_KEYS
    assert tuple(config["$defs"]["layer"]["properties"]) == LAYER_KEYS
    rules = config["$defs"]["rules"]["properties"]
    assert tuple(rules)[: len(RULES_KEYS)] == RULES_KEYS
    # Each shipped rule's option table, keyed by name, with its kind's options.
    for rule in CORE.rules:
        assert rule.name in rules, rule.name
    forbidden_options = config["$defs"]["options.inw.forbidden"]["properties"]
    assert set(forbidden_options) == {
        "modules",
        "forbidden",
        "allow",
        "indirect",
        "ignore-imports",
        "unmatched-ignore",
        "type-checking",
        "dynamic",
        "missing-modules",
        "as-packages",
    }
    assert forbidden_options["indirect"] == {
        "type": "boolean",
        # The sentence of the options class docstring that names the option.
        "description": "`indirect` also reports chains through other first-party modules "
        "(shortest per pair).",
        "default": False,
    }
    # Option descriptions come from the options class's docstring, or its field metadata.
    assert forbidden_options["allow"]["description"] == (
        '`allow` exempts imports: `"importer -> target"` permits one pair, a bare name takes '
        "that entry out of `forbidden`."
    )
    for key, value in config["properties"].items():
        assert value.get("description") or value.get("$ref"), key


def test_pyproject_schema_checks_only_tool_inwards() -> None:
    document = {
        "project": {"name": "x", "anything": [1, 2]},
        "tool": {
            "ruff": {"line-length": 100},
            "inwards": {"layers": [{"name": "a", "modules": []}]},
        },
    }
    assert schema_problems(document, "pyproject") == []
    document["tool"]["inwards"]["bogus"] = 1  # type: ignore[index]
    assert schema_problems(document, "pyproject") == [
        "$.tool.inwards: Additional properties are not allowed ('bogus' was unexpected)"
    ]


def loader_accepts(table: Any) -> bool:
    try:
        prepare(load_config(table), CORE)
    except ConfigError:
        return False
    return True


def schema_accepts(table: Any) -> bool:
    return not schema_problems(table, "config")


def layer(name: str = "domain", modules: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "modules": ["shop.domain"] if modules is None else modules, **extra}


VALID_CONFIGS = [
    {"layers": [layer()]},
    {
        "root": "src",
        "required-version": "0.0.1",
        "ignore": ["/tests", "migrations"],
        "generated": ["*_pb2", "_version", "acme.*.gen_?"],
        "namespace-packages": ["google.cloud"],
        "user-rules": "guidance-only",
        "layers": [
            layer(**{"deny-libraries": []}),
            [layer("in", ["shop.a.*"]), layer("out", ["shop.**.out"], **{"allow-libraries": []})],
            layer("boot", ["shop.bootstrap"], **{"extend-deny-libraries": ["requests"]}),
        ],
        "rules": {
            "select": ["INW001", "inw005"],
            "extend-select": ["INW011"],
            "ignore": ["INW006"],
            "severity": {"INW010": "warning"},
            "dynamic-import": {"report-unreadable": False, "modules": ["shop.domain"]},
            "layer-dependency": {"modules": ["shop.*.domain"]},
        },
    },
    {"layers": [layer(modules=[])], "generated": []},
    {"layers": [layer("domäne", ["schöp.domäne"])]},
    {"layers": [layer()], "rules": {"select": ["INW0", "fapi"], "ignore": ["INW01", "INW"]}},
]

INVALID_CONFIGS = {
    "no layers": {},
    "empty layers": {"layers": []},
    "unknown key": {"layers": [layer()], "bogus": 1},
    "root absolute": {"layers": [layer()], "root": "/srv/app"},
    "root escapes": {"layers": [layer()], "root": "src/../.."},
    "root blank": {"layers": [layer()], "root": "  "},
    "layer without modules": {"layers": [{"name": "domain"}]},
    "layer with a bar": {"layers": [layer("a|b")]},
    "unknown layer key": {"layers": [layer(libraries=["x"])]},
    "group of one": {"layers": [[layer()]]},
    "nested group": {"layers": [[layer(), [layer("x")]]]},
    "path entry": {"layers": [layer(modules=["shop/domain"])]},
    "empty segment": {"layers": [layer(modules=["shop..domain"])]},
    "partial wildcard": {"layers": [layer(modules=["shop.dom*"])]},
    "wildcard first": {"layers": [layer(modules=["*.domain"])]},
    "distribution name": {"layers": [layer(**{"deny-libraries": ["python-dateutil"]})]},
    "ignore glob": {"layers": [layer()], "ignore": ["tests/*"]},
    "generated only wildcards": {"layers": [layer()], "generated": ["*.?"]},
    "generated brackets": {"layers": [layer()], "generated": ["x_[ab]"]},
    "version": {"layers": [layer()], "required-version": "1.2"},
    "user-rules": {"layers": [layer()], "user-rules": "sometimes"},
    "empty select": {"layers": [layer()], "rules": {"select": []}},
    "code pattern": {"layers": [layer()], "rules": {"extend-select": ["INW0001"]}},
    "ignore INW000": {"layers": [layer()], "rules": {"ignore": ["inw000"]}},
    "re-level INW000": {"layers": [layer()], "rules": {"severity": {"INW000": "warning"}}},
    "severity value": {"layers": [layer()], "rules": {"severity": {"INW001": "fatal"}}},
    "unknown option": {"layers": [layer()], "rules": {"layer-dependency": {"modulez": []}}},
    "option type": {"layers": [layer()], "rules": {"dynamic-import": {"report-unreadable": 1}}},
    "options of INW000": {"layers": [layer()], "rules": {"unsupported-encoding": {}}},
    "rules key not a table": {"layers": [layer()], "rules": {"selct": ["INW001"]}},
    "rule name not kebab": {"layers": [layer()], "rules": {"Layer_Dependency": {}}},
}


@pytest.mark.parametrize("table", VALID_CONFIGS)
def test_valid_configurations_pass_the_loader_and_the_schema(table: dict[str, Any]) -> None:
    assert loader_accepts(table)
    assert schema_problems(table, "config") == []


@pytest.mark.parametrize("table", INVALID_CONFIGS.values(), ids=INVALID_CONFIGS.keys())
def test_invalid_configurations_fail_the_loader_and_the_schema(table: dict[str, Any]) -> None:
    assert not loader_accepts(table)
    assert schema_problems(table, "config")


def mostly(draw: st.DrawFn, valid: list[Any], invalid: list[Any]) -> Any:
    """Usually a valid value, sometimes one the loader refuses: the property below needs
    plenty of accepted tables, and the odd refused one keeps the schema honest."""
    return draw(st.sampled_from(invalid if draw(st.integers(0, 11)) == 0 else valid))


def some(draw: st.DrawFn, valid: list[Any], invalid: list[Any], most: int = 2) -> list[Any]:
    return [mostly(draw, valid, invalid) for _ in range(draw(st.integers(0, most)))]


MODULE_ENTRIES = (
    ["shop.domain", "shop.*.api", "shop.**", "ä.b", "shop"],
    ["*.x", "shop..x", "shop/x", "1shop", " x"],
)
LIBRARIES = (
    ["sqlalchemy", "http.client", "yaml", "_private"],
    ["python-dateutil", "a..b", "*", ""],
)


@st.composite
def layers(draw: st.DrawFn) -> Any:
    names = itertools.chain(
        ["domain", "app", "adapters", "boot"], (f"l{n}" for n in itertools.count())
    )
    prefixes = itertools.chain(
        ["shop.domain", "shop.app", "shop.*.api", "shop.**.out", "shop.boot"],
        (f"pkg{n}" for n in itertools.count()),
    )

    def one() -> dict[str, Any]:
        table: dict[str, Any] = {}
        if draw(st.integers(0, 15)):
            table["name"] = mostly(draw, [next(names)], ["", " ", "a|b", 5, "domain"])
        if draw(st.integers(0, 15)):
            table["modules"] = [next(prefixes)] if draw(st.booleans()) else []
            table["modules"] += (
                some(draw, *MODULE_ENTRIES, most=1) if draw(st.integers(0, 3)) == 0 else []
            )
        for key in ("allow-libraries", "deny-libraries", "extend-deny-libraries"):
            if draw(st.integers(0, 3)) == 0:
                table[key] = some(draw, *LIBRARIES)
        if draw(st.integers(0, 30)) == 0:
            table["bogus"] = True
        return table

    elements: list[Any] = []
    for _ in range(draw(st.integers(0 if draw(st.integers(0, 20)) == 0 else 1, 4))):
        if draw(st.integers(0, 4)) == 0:
            size = draw(st.integers(2, 3)) if draw(st.integers(0, 10)) else draw(st.integers(0, 1))
            elements.append([one() for _ in range(size)])
        else:
            elements.append(one())
    return elements


OPTION_VALUES = st.one_of(
    st.booleans(),
    st.integers(-1, 3),
    st.sampled_from(["", "shop.domain", "x"]),
    st.lists(st.sampled_from(MODULE_ENTRIES[0] + MODULE_ENTRIES[1]), max_size=2),
)
RULE_NAMES = sorted(r.name for r in CORE.rules if r.code != "INW000")
CODES = ([*sorted(CORE.codes), "inw005", "Inw011"], ["ACME001", "INW1", "", "INW999"])
# Code prefixes select, extend-select and ignore take (not severity).
PREFIXES = ["INW", "inw0", "INW01", "FAPI"]


@st.composite
def rule_tables(draw: st.DrawFn) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if draw(st.integers(0, 3)) == 0:
        rules["select"] = some(draw, CODES[0] + PREFIXES, CODES[1], most=2) or ["INW001"]
    for key in ("extend-select", "ignore"):
        if draw(st.integers(0, 3)) == 0:
            valid = [c for c in CODES[0] if c != "INW000"] + PREFIXES
            codes = some(draw, valid, ["INW000", *CODES[1]])
            rules[key] = codes
    if draw(st.integers(0, 3)) == 0:
        rules["severity"] = {
            mostly(draw, [c for c in CODES[0] if c != "INW000"], ["INW000", "ACME001"]): mostly(
                draw, ["error", "warning"], ["info", 1]
            )
            for _ in range(draw(st.integers(0, 2)))
        }
    for _ in range(draw(st.integers(0, 2))):
        name = mostly(draw, RULE_NAMES, ["unsupported-encoding", "not-a-rule", "Bad_Name"])
        rule = CORE.by_name(name)
        fields = (
            [f.name.replace("_", "-") for f in attrs.fields(rule.kind.options_type)] if rule else []
        )
        table: dict[str, Any] = {}
        for _ in range(draw(st.integers(0, 2))):
            option = mostly(draw, fields or ["modules"], ["modulez"])
            if option == "modules":
                table[option] = some(draw, *MODULE_ENTRIES)
            elif option == "report-unreadable":
                table[option] = mostly(draw, [True, False], [1, "yes"])
            else:
                table[option] = draw(OPTION_VALUES)
        rules[name] = table if draw(st.integers(0, 20)) else []
    return rules


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    table: dict[str, Any] = {}
    if draw(st.integers(0, 20)):
        table["layers"] = draw(layers())
    choices: dict[str, tuple[list[Any], list[Any]]] = {
        "root": (
            [".", "src", "a/b", "./src", "src/"],
            ["", " ", "/abs", "../x", "a/../b", "C:/x", 3],
        ),
        "required-version": (["0.1.0", "0.0.1", "0.0.0"], ["1.2", "99.0.0", 1, "0.1.0rc1"]),
        "user-rules": (["on", "off", "guidance-only"], ["maybe", True]),
    }
    for key, (valid, invalid) in choices.items():
        if draw(st.integers(0, 3)) == 0:
            table[key] = mostly(draw, valid, invalid)
    lists: dict[str, tuple[list[Any], list[Any]]] = {
        "ignore": (["tests", "/tests", "x.y", "migrations"], ["/", "a b", "1x", "tests/*"]),
        "generated": (
            ["*_pb2", "_version", "x.*", "é_?", "gen?.*"],
            ["*", "*.?", "a[b]", "", "1abc"],
        ),
        "namespace-packages": (["google.cloud", "acme"], ["a..b", "1a", "a-b"]),
    }
    for key, (valid, invalid) in lists.items():
        if draw(st.integers(0, 3)) == 0:
            table[key] = some(draw, valid, invalid)
    if draw(st.integers(0, 2)) == 0:
        table["rules"] = draw(rule_tables())
    if draw(st.integers(0, 2)) == 0:
        table["contexts"] = draw(context_tables())
    if draw(st.integers(0, 3)) == 0:
        table["cycles"] = some(draw, ["modules", "contexts"], ["module", 1, "contexts"])
    if draw(st.integers(0, 2)) == 0:
        table["shape"] = draw(shape_tables())
    if draw(st.integers(0, 3)) == 0:
        table["names"] = [
            {
                "pattern": mostly(draw, ["test_*", "x.py", "api/"], ["", "a/b", "[z-a]", 1]),
                "only-in": some(draw, ["shop.tests", "shop.*.tests"], ["", "sh*p"])
                or mostly(draw, [["shop"]], [[]]),
            }
            for _ in range(draw(st.integers(0, 2)))
        ]
    if draw(st.integers(0, 30)) == 0:
        table["bogus"] = 1
    return table


MEMBER_PATTERNS = (
    ["x", "x/", "x.py", "x.pyi", "*.py", "test_*", "[a-f]?", "é"],
    ["", "a/b", "x.txt", "[z-a]", "[a", " x", "a\\b"],
)


@st.composite
def shape_tables(draw: st.DrawFn) -> list[Any]:
    selectors = ["shop.orders", "shop.*", "shop.**", "other.*.api", "x"]
    shapes: list[Any] = []
    for index in range(draw(st.integers(0, 3))):
        shape: dict[str, Any] = {
            "packages": some(draw, selectors[index:], ["*.x", "shop.or*", "", *selectors], 2)
            or mostly(draw, [[selectors[index]]], [[]])
        }
        for key in ("allow", "require", "forbid"):
            if draw(st.integers(0, 2)) == 0:
                shape[key] = some(draw, *MEMBER_PATTERNS)
        if draw(st.integers(0, 3)) == 0:
            shape["extra"] = mostly(draw, ["error", "warning"], ["info", 1])
        if draw(st.integers(0, 3)) == 0:
            shape["hints"] = {
                mostly(draw, ["helpers", "misc.py"], ["x*", "a/b"]): mostly(
                    draw, ["utils", "tools.py"], ["", 1]
                )
            }
        elif draw(st.integers(0, 3)) == 0:
            shape["hints"] = some(
                draw, ["Shared code goes into shop.kernel.", "a -> {b}"], ["", " ", 1]
            )
        shapes.append(shape)
    return shapes


@st.composite
def context_tables(draw: st.DrawFn) -> list[Any]:
    names = ["orders", "billing", "ä"]
    contexts: list[Any] = []
    for index in range(draw(st.integers(0, 3))):
        context: dict[str, Any] = {
            "name": mostly(draw, [names[index]], ["", " ", 1, names[0]]),
            "modules": some(draw, [f"shop.{names[index]}"], ["shop.*", "shop", "", "a..b"], 2)
            or mostly(draw, [[f"shop.{names[index]}"]], [[]]),
        }
        if draw(st.integers(0, 2)) == 0:
            context["public"] = some(
                draw,
                [f"shop.{names[index]}.api", f"=shop.{names[index]}"],
                ["=", "shop.other", "shop.*", f"=shop.{names[index]}"],
            )
        if draw(st.integers(0, 2)) == 0:
            context["depends-on"] = some(draw, names[:index] or names[1:], [names[index], "x", 1])
        if draw(st.integers(0, 20)) == 0:
            context["bogus"] = 1
        contexts.append(context)
    return contexts


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs())
def test_the_config_schema_never_refuses_what_the_loader_accepts(table: dict[str, Any]) -> None:
    if loader_accepts(table):
        assert schema_problems(table, "config") == [], table


# -- rule definitions -------------------------------------------------------------------


def test_definition_schema_describes_every_definition_key() -> None:
    schema = BUILT["definition"]
    assert tuple(schema["properties"]) == (*DEFINITION_KEYS, *OVERLAY_ONLY_KEYS)
    checks = {rule["if"]["properties"]["check"].get("const") for rule in schema["allOf"]}
    assert set(KINDS) <= checks


def test_required_options_come_from_the_options_classes() -> None:
    assert required_options(KINDS["inw.forbidden"][1].options_type) == ("modules", "forbidden")
    assert required_options(KINDS["inw.layers"][1].options_type) == ("layers",)
    assert required_options(KINDS["inw.dynamic-import"][1].options_type) == ()


def definition_text(table: dict[str, Any]) -> str:
    return tomlkit.dumps(table)


def loader_accepts_definition(table: dict[str, Any]) -> bool:
    code = table.get("code") if isinstance(table.get("code"), str) else "ACME001"
    document = RuleDocument(
        RootKind.PROJECT, f".inwards/rules/{code}.toml", definition_text(table).encode()
    )
    return not isinstance(parse_definition(document, KINDS), DefinitionProblem)


def definition(**changes: Any) -> dict[str, Any]:
    table: dict[str, Any] = {
        "code": "ACME001",
        "name": "no-http-in-domain",
        "summary": "The domain talks HTTP.",
        "check": "inw.forbidden",
        "options": {"modules": ["shop.domain"], "forbidden": ["requests"]},
    }
    for key, value in changes.items():
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value
    return table


def test_every_shipped_definition_is_valid() -> None:
    for document in packaged_documents(FAMILIES):
        assert_valid(tomllib.loads(document.data.decode()), "definition")


VALID_DEFINITIONS = [
    definition(),
    definition(
        default="opt-in",
        severity="warning",
        suppressible=False,
        description="Longer.",
        guidance={
            "summary": "Do {statement} {{x}}.",
            "steps": ["One.", "Two."],
            "docs": "https://x",
        },
        shadow={"root": "core", "distribution": "d", "version": "1", "sha256": "ab", "path": "p"},
    ),
    definition(code="acme002", check="inw.layers", options={"layers": ["a.x", "a.y | a.z"]}),
    definition(check="inw.dynamic-import", options=None),
    definition(summary=None),  # the kind's summary stands in
]

INVALID_DEFINITIONS = {
    "unknown key": definition(extra=1),
    "blank summary": definition(summary="  "),
    "bad code": definition(code="AC1"),
    "bad name": definition(name="No_Http"),
    "misspelt kind": definition(check="inw.forbiden"),
    "default": definition(default="off"),
    "severity": definition(severity="fatal"),
    "suppressible": definition(suppressible="yes"),
    "options not a table": definition(options=["x"]),
    "required option missing": definition(options={"modules": ["shop.domain"]}),
    "required option empty": definition(options={"modules": [], "forbidden": ["x"]}),
    "options missing": definition(options=None),
    "unknown option": definition(options={"modules": ["a"], "forbidden": ["b"], "alow": []}),
    "option type": definition(options={"modules": ["a"], "forbidden": ["b"], "indirect": "yes"}),
    "guidance key": definition(guidance={"summery": "x"}),
    "guidance steps": definition(guidance={"steps": "one"}),
    "guidance format spec": definition(guidance={"summary": "{statement:>300000000}"}),
    "guidance attribute": definition(guidance={"steps": ["{statement.__class__}"]}),
    "guidance lone brace": definition(guidance={"steps": ["a { b"]}),
    "shadow without sha256": definition(shadow={"root": "core"}),
    "shadow key": definition(shadow={"sha256": "ab", "when": "now"}),
}


@pytest.mark.parametrize("table", VALID_DEFINITIONS)
def test_valid_definitions_pass_the_loader_and_the_schema(table: dict[str, Any]) -> None:
    assert loader_accepts_definition(table)
    assert schema_problems(table, "definition") == []


@pytest.mark.parametrize("table", INVALID_DEFINITIONS.values(), ids=INVALID_DEFINITIONS.keys())
def test_invalid_definitions_fail_the_loader_and_the_schema(table: dict[str, Any]) -> None:
    assert not loader_accepts_definition(table)
    assert schema_problems(table, "definition")


def test_a_kind_of_a_family_not_installed_is_left_to_the_run_that_has_it() -> None:
    table = definition(check="acme.thing", options={"anything": 1})
    assert schema_problems(table, "definition") == []
    assert not loader_accepts_definition(table)  # here: no such family


@st.composite
def option_tables(draw: st.DrawFn, kind_id: str) -> dict[str, Any]:
    kind = KINDS[kind_id][1] if kind_id in KINDS else None
    fields = {f.name.replace("_", "-"): f for f in attrs.fields(kind.options_type)} if kind else {}
    table: dict[str, Any] = {}
    for name in fields:
        required = name in required_options(kind.options_type) if kind else False
        if (required and draw(st.integers(0, 15))) or draw(st.integers(0, 2)) == 0:
            if name == "layers":
                table[name] = mostly(
                    draw, [["a.x", "a.y"], ["a.x", "a.y | a.z", "a.w"]], [["a.x"], []]
                )
            elif "bool" in str(fields[name].type):
                table[name] = mostly(draw, [True, False], ["yes", 1])
            elif name == "allow":
                table[name] = some(draw, ["shop.a -> requests", "django.utils"], ["a ->", 3])
            else:
                table[name] = some(draw, *MODULE_ENTRIES) or (["shop"] if required else [])
    if draw(st.integers(0, 15)) == 0:
        table["bogus"] = 1
    return table


@st.composite
def definitions(draw: st.DrawFn) -> dict[str, Any]:
    table: dict[str, Any] = {}
    check = mostly(draw, sorted(KINDS), ["inw.nope", "acme.thing", "", 3])
    values: dict[str, tuple[list[Any], list[Any]]] = {
        "code": (["ACME001", "acme001", "Acme001"], ["AC1", "TOOLONGX001", 7, "INW500"]),
        "name": (["a-rule", "rule2", "x"], ["A-Rule", "a--rule", "", "-a"]),
        "summary": (["Something.", "x"], ["", " ", 3]),
        "default": (["on", "opt-in"], ["off", True]),
        "severity": (["error", "warning"], ["info"]),
        "suppressible": ([True, False], ["yes"]),
        "description": (["", "Text."], [1]),
    }
    for key, (valid, invalid) in values.items():
        wanted = key in ("code", "name", "summary") or draw(st.integers(0, 2)) == 0
        if wanted and draw(st.integers(0, 20)):
            table[key] = mostly(draw, valid, invalid)
    if draw(st.integers(0, 20)):
        table["check"] = check
    if draw(st.integers(0, 5)):
        table["options"] = draw(option_tables(str(check)))
    if draw(st.integers(0, 2)) == 0:
        table["guidance"] = {
            key: mostly(draw, ["Do it.", ""] if key != "steps" else [["a", "b"], []], [3, ["x", 1]])
            for key in draw(
                st.lists(
                    st.sampled_from(
                        [*GUIDANCE_KEYS, *(["extra"] if draw(st.integers(0, 10)) == 0 else [])]
                    ),
                    unique=True,
                )
            )
        }
    if draw(st.integers(0, 3)) == 0:
        table["shadow"] = {
            key: mostly(draw, ["core", "abc"], [1])
            for key in [
                "sha256",
                *draw(
                    st.lists(
                        st.sampled_from(["root", "path", "version", "x"]), unique=True, max_size=2
                    )
                ),
            ]
            if key != "x" or draw(st.integers(0, 5)) == 0
        }
        if draw(st.integers(0, 10)) == 0:
            table["shadow"].pop("sha256")
    return table


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(definitions())
def test_the_definition_schema_never_refuses_what_the_loader_accepts(table: dict[str, Any]) -> None:
    if loader_accepts_definition(table):
        assert schema_problems(table, "definition") == [], table


# -- output documents, built in-process -------------------------------------------------


def kind_examples() -> list[Example]:
    modules = (*KIND_MODULES, *GENERIC_KIND_MODULES)
    return [e for module in modules for e in module.KIND.examples()]


@pytest.mark.parametrize("example", kind_examples(), ids=lambda e: e.title)
def test_diagnostics_of_every_example_are_valid(example: Example) -> None:
    report = run_example(example, CORE)
    assert_valid(report_document(report), "diagnostics")


def test_diagnostics_with_every_optional_field_are_valid() -> None:
    bad = next(e for e in kind_examples() if not e.good and not e.definitions)
    report = run_example(bad, CORE)
    assert report.errors
    report = attrs.evolve(
        report,
        not_checked=(NotChecked("elsewhere.py", "elsewhere.py is outside the project."),),
        notes=("a note",),
        rule_set_fingerprint="0" * 64,
        user_definitions=(UserDefinitionInEffect("INW001", "/home/me/INW001.toml", "new"),),
    )
    # A baseline that accepts every error, plus one entry fixed since.
    baseline = build_baseline(report.findings)
    stale = attrs.evolve(baseline.entries[0], module="gone", count=2)
    baselined = apply_baseline(
        report, attrs.evolve(baseline, entries=(*baseline.entries, stale)), file="b.json"
    )
    assert baselined.baselined and baselined.baseline_resolved
    document = report_document(baselined, max_diagnostics=0)
    for field in ("baselined", "resolved", "omitted"):
        assert field in document["summary"]
    for field in ("notChecked", "notes", "ruleSet", "baselineFile", "baselineResolved"):
        assert field in document
    assert_valid(document, "diagnostics")
    assert_valid(json.loads(serialise_baseline(baseline)), "baseline")


def test_the_strict_form_catches_a_field_the_schema_does_not_describe() -> None:
    report = run_example(next(e for e in kind_examples() if not e.good), CORE)
    document = report_document(report)
    document["diagnostics"][0]["confidence"] = "high"
    assert schema_problems(document, "diagnostics") == [
        "$.diagnostics[0]: Additional properties are not allowed ('confidence' was unexpected)"
    ]
    # The published schema is open: fields are only ever added within a version.
    assert schema_problems(document, "diagnostics", strict=False) == []


USER_SHADOW = (
    'code = "INW011"\nname = "dynamic-import"\nsummary = "Mine."\ncheck = "inw.dynamic-import"\n'
    '[guidance]\nsummary = "Ask the team."\n'
)


@pytest.mark.parametrize("policy", ["on", "guidance-only", "off"])
def test_rules_and_status_documents_are_valid(policy: str) -> None:
    sources = InMemoryRuleSources(
        FAMILIES,
        user={"INW011.toml": USER_SHADOW, "ACME002.toml": USER_SHADOW.replace("INW011", "ACME002")},
        project={
            "ACME001.toml": definition_text(definition()),
            "ACME003.toml": "code = 'ACME003'\n",
        },
    )
    rule_set = resolve(sources.documents(), FAMILIES, user_rules=policy, roots=sources.roots())
    assert rule_set.problems
    active = select(rule_set, RuleSettings(ignore=("INW006",)))
    assert_valid(rules_document(rule_set, active), "rules")
    status = rules_status(
        rule_set,
        sources.roots(),
        sources.documents(),
        active,
        previous_digests={"core": "x"},
        inwards_version="0.1.0",
    )
    assert_valid(status_document(status), "status")


@pytest.mark.parametrize("full", [False, True])
def test_rule_pages_of_every_shipped_rule_are_valid(full: bool) -> None:
    for rule in CORE.rules:
        document = rule_page_document(rule, CORE, full=full)
        assert_valid(document, "rule")
        ids = [section["id"] for section in document["sections"]]
        assert "options" in ids and "guidance" in ids
        assert ("examples" in ids) is full


def test_installed_families_add_their_options(tmp_path: Path) -> None:
    """`inwards schema` builds from every installed family: a family's rule names and
    kinds appear in the config and definition schemas (the committed ones hold inwards')."""
    everything = installed_families()
    schema = build_schema("config", everything, load_rules(everything))
    names = {r.name for r in load_rules(everything).rules}
    assert names <= set(schema["$defs"]["rules"]["properties"])
    kinds = {k.id for f in everything for k in f.kinds}
    assert {f"options.{k}" for k in kinds} <= set(schema["$defs"])


@attrs.frozen
class _FanoutOptions:
    """`limit`: how many modules a module may import."""

    limit: int = attrs.field(default=10, metadata={"description": "The most imports allowed."})
    names: tuple[str, ...] = attrs.field(default=(), metadata={"required": True})
    strict: bool | None = None
    ratio: float = 0.5


def _no_findings(model: Any, options: Any) -> list[Any]:
    return []


def test_a_third_party_kind_gets_its_options_from_its_class() -> None:
    from inwards_core.rules.kinds import CheckKind, Family

    kind = CheckKind("acme.fanout", "Too many imports.", _FanoutOptions, _no_findings)
    family = Family("ACME", (kind,), "acme.definitions", "acme-rules", "1.0")
    schema = build_schema("definition", (family,), CORE)
    options = schema["$defs"]["options.acme.fanout"]
    assert options["properties"] == {
        "limit": {"type": "integer", "description": "The most imports allowed.", "default": 10},
        "names": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Option `names` of acme.fanout. A definition naming this kind must "
            "set it.",
            "minItems": 1,
        },
        "strict": {"type": "boolean", "description": "Option `strict` of acme.fanout."},
        # A type the options parser doesn't take is left to it.
        "ratio": {"description": "Option `ratio` of acme.fanout.", "default": 0.5},
    }
    definition_of = {
        "code": "ACME001",
        "name": "fanout",
        "summary": "x",
        "check": "acme.fanout",
        "options": {"limit": 3},
    }
    validator = jsonschema.Draft202012Validator(schema)
    assert [e.message for e in validator.iter_errors(definition_of)] == [
        "'names' is a required property"
    ]
    definition_of["options"] = {"names": ["a"], "limit": "3"}
    assert [e.message for e in validator.iter_errors(definition_of)] == [
        "'3' is not of type 'integer'"
    ]
    definition_of["check"] = "acme.fanot"
    assert "'acme.fanot' is not one of ['acme.fanout']" in [
        e.message for e in validator.iter_errors(definition_of)
    ]
