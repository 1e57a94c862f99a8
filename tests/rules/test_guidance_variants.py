"""Guidance variants are data: a kind names the variant a finding needs, the shipped
definition words it, and a user or project definition can reword one variant or all of
them. A shadow is a whole file: one without variants gives every finding its main guidance,
as shadows always did."""

from __future__ import annotations

import attrs

from inwards_core import Fix, Violation
from inwards_core.adapters.in_memory import InMemoryProjectFiles, InMemoryRuleSources
from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.api import check, installed_families, load_config_text, load_rules

FAMILIES = installed_families()
CORE = {d.path.rsplit("/", 1)[-1]: d.data.decode() for d in packaged_documents(FAMILIES)}
PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain", "shop.nothing"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""
FILES = {
    "pyproject.toml": PYPROJECT,
    "shop/common/__init__.py": "",
    "shop/domain/order.py": "import requests\n",
    "shop/application/service.py": "",
    "shop/infrastructure/db.py": "",
}
PACKAGE = "INW006 shop/common/__init__.py"  # the unassigned-package variant
ENTRY = "INW006 pyproject.toml"  # the dead-entry variant

SHIPPED_PACKAGE_FIX = Fix(
    'Put "shop.common" in a layer, or list it in `ignore`.',
    (
        'If "shop.common" is part of the application, add it (or the package holding it) to '
        "the `modules` of the layer it belongs to in [tool.inwards].",
        'If it is deliberately outside the layers (tests, scripts, migrations), add "common" to '
        "`ignore` in [tool.inwards].",
    ),
)


def fixes(
    project: dict[str, str] | None = None,
    user: dict[str, str] | None = None,
    policy: str = "on",
) -> dict[str, Fix]:
    sources = InMemoryRuleSources(FAMILIES, user=user, project=project)
    rule_set = load_rules(FAMILIES, sources, user_rules=policy)
    assert rule_set.problems == ()
    report = check(load_config_text(PYPROJECT), InMemoryProjectFiles(FILES), rule_set=rule_set)
    return {f"{f.code} {f.file}": f.fix for f in report.findings}


def test_the_shipped_definition_words_each_variant() -> None:
    found = fixes()
    assert found[PACKAGE] == SHIPPED_PACKAGE_FIX
    assert found[ENTRY].summary == 'Fix or remove the entry "shop.nothing" of layer "domain".'


def test_a_verbatim_shadow_keeps_the_variants() -> None:
    """`inwards rules shadow` copies the bytes, variants included."""
    assert fixes(project={"INW006.toml": CORE["INW006.toml"]}) == fixes()


def test_a_shadow_can_reword_one_variant() -> None:
    text = CORE["INW006.toml"].replace(
        "summary = 'Put \"{target}\" in a layer, or list it in `ignore`.'",
        "summary = 'Ask the architects where \"{target}\" goes.'",
    )
    assert text != CORE["INW006.toml"]
    found = fixes(user={"INW006.toml": text})
    assert found[PACKAGE] == Fix(
        'Ask the architects where "shop.common" goes.', SHIPPED_PACKAGE_FIX.steps
    )
    assert found[ENTRY] == fixes()[ENTRY]


def test_a_shadow_without_variants_gives_every_finding_its_main_guidance() -> None:
    text = CORE["INW006.toml"].split("\n# The fix for findings about")[0] + "\n"
    assert "variants" not in text
    main = "summary = 'Put \"{target}\" in the layer it belongs to.'"
    assert main in text
    found = fixes(project={"INW006.toml": text.replace(main, 'summary = "Ours: {target}."')})
    assert found[PACKAGE].summary == "Ours: shop.common."
    assert found[ENTRY].summary == "Ours: shop.nothing."
    assert len(found[PACKAGE].steps) == len(found[ENTRY].steps) == 3


def test_guidance_only_lends_the_whole_guidance_table() -> None:
    user = (
        'code = "INW006"\nname = "unassigned-module"\nsummary = "x"\n'
        'check = "inw.unassigned-module"\n\n[guidance]\nsummary = "Main {target}."\n'
    )
    found = fixes(user={"INW006.toml": user}, policy="guidance-only")
    assert (found[PACKAGE], found[ENTRY]) == (Fix("Main shop.common."), Fix("Main shop.nothing."))
    worded = user + '\n[guidance.variants.dead-entry]\nsummary = "Entry {target}."\n'
    found = fixes(user={"INW006.toml": worded}, policy="guidance-only")
    assert (found[PACKAGE], found[ENTRY]) == (Fix("Main shop.common."), Fix("Entry shop.nothing."))


RULE = """\
code = "ACME001"
name = "no-http"
summary = "The domain talks HTTP."
check = "inw.forbidden"

[options]
modules = ["shop.domain", "shop.gone"]
forbidden = ["requests"]
"""
GUIDED = RULE + '\n[guidance]\nsummary = "Ours: {forbidden}."\n'


def test_a_generic_kind_words_the_fix_of_a_rule_without_guidance() -> None:
    found = fixes(project={"ACME001.toml": RULE})
    assert found["ACME001 shop/domain/order.py"] == Fix(
        'Keep "requests" out of "shop.domain".', ("Delete `import requests`.",)
    )
    assert found["ACME001 .inwards/rules/ACME001.toml"].summary == (
        'Fix or remove "shop.gone" in `options.modules[1]` of the rule definition.'
    )


def test_a_problem_in_the_options_keeps_the_kinds_wording_unless_a_variant_rewords_it() -> None:
    found = fixes(project={"ACME001.toml": GUIDED})
    assert found["ACME001 shop/domain/order.py"] == Fix("Ours: requests.")
    dead = found["ACME001 .inwards/rules/ACME001.toml"]
    assert dead.summary.startswith('Fix or remove "shop.gone"')
    worded = GUIDED + '\n[guidance.variants.dead-entry]\nsummary = "Drop {entry}."\n'
    found = fixes(project={"ACME001.toml": worded})
    assert found["ACME001 .inwards/rules/ACME001.toml"] == Fix("Drop shop.gone.")


def test_a_violation_names_a_variant_instead_of_wording_it() -> None:
    names = [field.name for field in attrs.fields(Violation)]
    assert names == [
        "file",
        "module",
        "span",
        "message",
        "params",
        # Lists of the project's own sentences (a shape's hints), as values, not wording.
        "step_lists",
        "severity",
        "stable_message",
        "variant",
        "fallback",
        "in_definition",
        # The imports of a chain, as data (module names and places), not wording.
        "chain",
    ]
