"""Guidance templates: only plain `{name}` fields the kind declares, found when a definition
is read; filling only substitutes names."""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import inwards_core.engine as engine
from inwards_cli.definition_files import new_definition_text
from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.api import installed_families, load_rules
from inwards_core.authoring.examples import run_example
from inwards_core.families.inw import GENERIC_KIND_MODULES, KIND_MODULES
from inwards_core.model.findings import RootKind
from inwards_core.ports import RuleDocument
from inwards_core.rules.definitions import DefinitionProblem, RuleDefinition
from inwards_core.rules.kinds import COMMON_GUIDANCE_PARAMS, CheckKind
from inwards_core.rules.reading import parse_definition
from inwards_core.rules.resolver import resolve
from inwards_core.rules.templates import fill_template, template_problem
from tests.distributions import needs_tidy
from tests.e2e.helpers import REPO
from tests.schemas.test_doc_examples import BLOCKS, kind_of

NAMES = ("statement", "module", "file")


@pytest.mark.parametrize(
    "template",
    [
        "",
        "plain text",
        "Delete `{statement}` in {module} ({file}).",
        "{{literal}} and {{ and }}",
        "{{{statement}}}",
    ],
)
def test_plain_fields_and_escaped_braces_are_allowed(template: str) -> None:
    assert template_problem(template, NAMES, "inw.forbidden") is None


@pytest.mark.parametrize(
    ("template", "why"),
    [
        ("{statement:>300000000}", "`{statement:>300000000}` has a format spec"),
        ("{statement!r}", "`{statement!r}` has a conversion"),
        ("{statement.__class__.__init__.__doc__}", "reads an attribute or an item"),
        ("{statement[0]}", "reads an attribute or an item"),
        ("{0}", "`{0}` is a positional field"),
        ("{}", "`{}` is a positional field"),
        ("{ statement }", "is not a parameter name"),
        ("{password}", "`{password}` is not a parameter of inw.forbidden; it gives {file}, "),
        ("open { brace", "has a `{` that opens no field"),
        ("{statement", "has a `{` that opens no field"),
        ("close } brace", "has a `}` that closes no field"),
        ("{x:{y}}", "has a `{` that opens no field"),
    ],
)
def test_anything_else_is_a_problem(template: str, why: str) -> None:
    problem = template_problem(template, NAMES, "inw.forbidden")
    assert problem is not None and why in problem, problem


def test_a_long_bad_field_is_quoted_cut() -> None:
    problem = template_problem("{" + "a." * 5000 + "}", NAMES, "k")
    assert problem is not None and len(problem) < 300


def test_filling_substitutes_names_only() -> None:
    params = {"statement": "import x", "module": "shop.a"}
    assert fill_template("Delete `{statement}` in {module}.", params) == (
        "Delete `import x` in shop.a."
    )
    assert fill_template("{{statement}} {unknown} {statement", params) == (
        "{statement} {unknown} {statement"
    )
    # Nothing but a lookup: no spec, no attribute, no item is ever evaluated.
    for odd in ("{statement:>300000000}", "{statement.__class__}", "{statement[0]}", "{0}"):
        assert fill_template(odd, params) == odd
    # A value is not read again as a template.
    assert fill_template("{statement}", {"statement": "{module}"}) == "{module}"


def test_filling_and_checking_are_linear() -> None:
    big = "{statement} {{x}} " * 100_000 + "{" * 100_000
    started = time.process_time()
    fill_template(big, {"statement": "s"})
    template_problem(big, NAMES, "k")
    template_problem("{" + "a" * 1_000_000, NAMES, "k")
    assert time.process_time() - started < 2


# -- at load time, per root ----------------------------------------------------------------

FAMILIES = installed_families()
BAD_RULE = """\
code = "ACME001"
name = "acme"
summary = "s"
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["requests"]

[guidance]
summary = "Fine: {forbidden}."
steps = [
  "One.",
  "Two {statement}.",
  "{statement.__class__.__init__.__doc__}",
]
"""


def test_a_bad_template_in_the_project_root_blocks_naming_file_line_and_key() -> None:
    rule_set = load_rules(
        FAMILIES, InMemoryRuleSources(FAMILIES, project={"ACME001.toml": BAD_RULE})
    )
    (problem,) = rule_set.errors
    assert (problem.root, problem.path, problem.line) == (
        RootKind.PROJECT,
        ".inwards/rules/ACME001.toml",
        15,
    )
    assert problem.key == "guidance.steps[2]"
    assert "reads an attribute or an item" in problem.message
    assert rule_set.by_code("ACME001") is None


def test_a_bad_template_in_the_user_root_warns_and_the_core_rule_stays() -> None:
    core = next(d for d in packaged_documents(FAMILIES) if d.path.endswith("INW001.toml"))
    shadow = core.data.decode().replace("{target_layer}", "{target_layer:>300000000}", 1)
    rule_set = load_rules(FAMILIES, InMemoryRuleSources(FAMILIES, user={"INW001.toml": shadow}))
    assert rule_set.errors == ()
    (warning,) = rule_set.warnings()
    assert warning.startswith("<user>/INW001.toml:10:1: guidance.summary: ")
    assert "has a format spec" in warning and warning.endswith("(this user definition is not used)")
    rule = rule_set.by_code("INW001")
    assert rule is not None and rule.origin.root is RootKind.CORE


def test_a_core_definition_with_a_bad_template_blocks() -> None:
    core = next(d for d in packaged_documents(FAMILIES) if d.path.endswith("INW020.toml"))
    broken = RuleDocument(RootKind.CORE, core.path, core.data.replace(b"{error}", b"{error!s}"))
    parsed = parse_definition(broken, {k.id: (f, k) for f in FAMILIES for k in f.kinds})
    assert isinstance(parsed, DefinitionProblem) and parsed.blocking
    assert parsed.key == "guidance.steps[0]"


# -- what ships and what the docs show still loads -----------------------------------------


def _definition_files() -> Iterator[Path]:
    yield from sorted((REPO / ".inwards" / "rules").glob("*.toml"))
    yield from sorted(REPO.glob("examples/*/.inwards/rules/*.toml"))


def _assert_each_loads(paths: Iterable[Path]) -> None:
    kinds = {kind.id: (family, kind) for family in FAMILIES for kind in family.kinds}
    for path in paths:
        parsed = parse_definition(
            RuleDocument(RootKind.PROJECT, path.name, path.read_bytes()), kinds
        )
        assert not isinstance(parsed, DefinitionProblem), parsed.render()


def test_every_shipped_example_and_repository_definition_loads() -> None:
    kinds = {kind.id: (family, kind) for family in FAMILIES for kind in family.kinds}
    for document in packaged_documents(FAMILIES):
        parsed = parse_definition(document, kinds)
        assert not isinstance(parsed, DefinitionProblem), parsed.render()
    paths = [*_definition_files()]
    assert len(paths) > 3
    _assert_each_loads(paths)


@needs_tidy  # its definitions name its own check kinds
def test_the_tidy_familys_definitions_load() -> None:
    paths = sorted(REPO.glob("tests/families/inwards-rules-tidy/inwards_rules_tidy/**/*.toml"))
    assert paths
    _assert_each_loads(paths)


DOC_DEFINITIONS = [
    # a definition of the example family's own kinds (docs/writing-a-family.md) needs that family
    pytest.param(
        where,
        block,
        id=where,
        marks=[needs_tidy] if tomllib.loads(block)["check"].startswith("tidy.") else [],
    )
    for where, block in BLOCKS
    if kind_of(block) == "definition"
]


@pytest.mark.parametrize(("where", "block"), DOC_DEFINITIONS)
def test_every_definition_in_the_docs_loads(where: str, block: str) -> None:
    kinds = {kind.id: (family, kind) for family in FAMILIES for kind in family.kinds}
    code = tomllib.loads(block)["code"]
    parsed = parse_definition(RuleDocument(RootKind.PROJECT, f"{code}.toml", block.encode()), kinds)
    assert not isinstance(parsed, DefinitionProblem), f"{where}: {parsed.render()}"


@pytest.mark.parametrize("kind", [k for f in FAMILIES for k in f.kinds], ids=lambda k: k.id)
def test_rules_new_writes_guidance_that_loads(kind: CheckKind) -> None:
    text = new_definition_text("ACME001", "acme-rule", kind, "")
    rule_set = resolve(
        [
            *packaged_documents(FAMILIES),
            RuleDocument(RootKind.PROJECT, "ACME001.toml", text.encode()),
        ],
        FAMILIES,
    )
    # The options' placeholders may need filling in (inw.layers wants two layers); the
    # guidance must load as written.
    assert [p for p in rule_set.problems if not p.key.startswith("options")] == []
    if kind.id != "inw.layers":
        assert rule_set.problems == ()
        assert rule_set.by_code("ACME001") is not None


# -- every parameter a kind fills is declared ----------------------------------------------


def _kind_modules() -> list[ModuleType]:
    modules: list[ModuleType] = [*KIND_MODULES, *GENERIC_KIND_MODULES]
    try:
        from inwards_rules_tidy import tidy001_star_import, tidy002_import_fanout
    except ImportError:  # the third-party test family is optional here
        return modules
    return [*modules, tidy001_star_import, tidy002_import_fanout]


def test_every_param_a_kind_fills_in_its_examples_is_declared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    filled: dict[str, set[str]] = {}
    kinds: dict[str, CheckKind] = {}
    original = engine.to_finding

    def recording(rule, violation, **options):  # type: ignore[no-untyped-def]
        kinds[rule.rule.kind.id] = rule.rule.kind
        filled.setdefault(rule.rule.kind.id, set()).update(violation.params)
        return original(rule, violation, **options)

    monkeypatch.setattr(engine, "to_finding", recording)
    for module in _kind_modules():
        for example in module.KIND.examples():
            run_example(example)
    assert len(filled) >= 12, sorted(filled)  # most kinds report in their examples
    for kind_id, names in sorted(filled.items()):
        declared = kinds[kind_id].guidance_names()
        assert names <= declared, f"{kind_id} fills undeclared {sorted(names - declared)}"
    assert set(COMMON_GUIDANCE_PARAMS) == {"file", "module"}


# -- guidance variants: templates under the same rules, a variant per kind's finding --------

VARIANTS = """\
code = "ACME001"
name = "acme"
summary = "s"
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["requests"]

[guidance]
summary = "Main: {forbidden}."
steps = ["Main step."]

[guidance.variants.dead-entry]
steps = ["Fix {entry}."]
"""


def _parsed(text: str) -> RuleDefinition | DefinitionProblem:
    kinds = {kind.id: (family, kind) for family in FAMILIES for kind in family.kinds}
    return parse_definition(RuleDocument(RootKind.PROJECT, "ACME001.toml", text.encode()), kinds)


def test_a_variant_replaces_what_it_words_and_takes_the_rest_from_the_main_guidance() -> None:
    parsed = _parsed(VARIANTS)
    assert isinstance(parsed, RuleDefinition), parsed
    guidance = parsed.guidance
    assert guidance.texts("dead-entry") == ("Main: {forbidden}.", ("Fix {entry}.",))
    assert guidance.texts("") is None and guidance.texts("other") is None


@pytest.mark.parametrize(
    ("table", "key", "why"),
    [
        ('[guidance.variants.x]\nsteps = ["{entry:>9}"]', "guidance.variants.x.steps[0]", "spec"),
        ('[guidance.variants.x]\nsummary = "{password}"', "guidance.variants.x.summary", "not a"),
        ("[guidance.variants.x]\nsumary = 'a'", "guidance.variants.x.sumary", "variant key"),
        ("[guidance.variants.x]\nsteps = 'a'", "guidance.variants.x.steps", "list of strings"),
        ("[guidance.variants.Odd_Name]\nsteps = []", "guidance.variants.Odd_Name", "kebab-case"),
        ("[guidance]\nvariants = 3", "guidance.variants", "must be a table"),
        ("[guidance.variants]\nx = 3", "guidance.variants.x", "must be a table"),
    ],
)
def test_a_bad_variant_is_a_problem_naming_its_key(table: str, key: str, why: str) -> None:
    text = VARIANTS.split("[guidance]")[0] + table + "\n"
    parsed = _parsed(text)
    assert isinstance(parsed, DefinitionProblem)
    assert parsed.key == key and why in parsed.message, parsed.render()
    assert parsed.line is not None


def _filled_token_by_token(template: str, params: dict[str, str]) -> str:
    """fill_template as first written: one substitution per token, no parts kept."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        name = match.group(1)
        return str(params[name]) if name is not None and name in params else token

    return re.sub(r"\{\{|\}\}|\{([^{}]*)\}|[{}]", replace, template)


@settings(max_examples=500, deadline=None)
@given(
    template=st.text(alphabet="{}ab_x .:!", max_size=40),
    values=st.dictionaries(st.sampled_from(["a", "b", "ab", "x_"]), st.text("{}ab", max_size=5)),
)
def test_filling_from_kept_parts_is_filling_token_by_token(
    template: str, values: dict[str, str]
) -> None:
    assert fill_template(template, values) == _filled_token_by_token(template, values)
