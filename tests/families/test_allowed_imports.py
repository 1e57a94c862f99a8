"""`allow` on inw.independence, inw.layers and inw.protected: imports a rule lets through."""

from __future__ import annotations

import pytest

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles, InMemoryRuleSources
from inwards_core.api import check, installed_families, load_config_text, load_rules

FAMILIES = installed_families()
CONFIG = '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n'
KINDS = {
    "inw.independence": 'modules = ["shop.a", "shop.b"]\nindirect = true\n',
    "inw.layers": 'layers = ["shop.a", "shop.b"]\nindirect = true\n',
    "inw.protected": 'modules = ["shop.b"]\n',
}
# shop.a.x imports shop.b directly; shop.a.y reaches it through shop.mid.
FILES = {
    "shop/a/x.py": "import shop.b.inner\n",
    "shop/a/y.py": "import shop.mid\n",
    "shop/mid.py": "import shop.b.inner\n",
    "shop/b/inner.py": "",
}


def _run(kind: str, allow: str) -> list[Finding]:
    definition = (
        f'code = "ACME001"\nname = "acme"\nsummary = "s"\ncheck = "{kind}"\n\n[options]\n'
        f"{KINDS[kind]}allow = {allow}\n"
    )
    rules = load_rules(
        FAMILIES, InMemoryRuleSources(FAMILIES, project={"ACME001.toml": definition})
    )
    assert rules.problems == ()
    report = check(load_config_text(CONFIG), InMemoryProjectFiles(FILES), rule_set=rules)
    return [f for f in report.findings if f.code == "ACME001"]


def _where(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.file, f.span.line) for f in findings]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_allowed_import_is_not_reported(kind: str) -> None:
    before = _where(_run(kind, "[]"))
    assert ("shop/a/x.py", 1) in before
    after = _run(kind, '["shop.a.x -> shop.b"]')
    assert ("shop/a/x.py", 1) not in _where(after)
    assert not [f for f in after if f.severity.value == "warning"]


@pytest.mark.parametrize("kind", ["inw.independence", "inw.layers"])
def test_no_chain_goes_through_an_allowed_import(kind: str) -> None:
    assert ("shop/a/y.py", 1) in _where(_run(kind, "[]"))
    assert ("shop/a/y.py", 1) not in _where(_run(kind, '["shop.mid -> shop.b.inner"]'))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_entry_that_lets_nothing_through_is_a_warning_in_the_definition(kind: str) -> None:
    found = _run(kind, '["shop.a.x -> shop.b", "shop.a.* -> shop.nowhere"]')
    (warning,) = [f for f in found if f.file == ".inwards/rules/ACME001.toml"]
    assert warning.severity.value == "warning"
    assert warning.message == (
        '`options.allow[1]` is "shop.a.* -> shop.nowhere", which lets no import through: no '
        "import the rule checks matches it."
    )
    assert warning.fix.summary.startswith('Remove "shop.a.* -> shop.nowhere"')


@pytest.mark.parametrize(
    ("allow", "message"),
    [
        ('["shop.a"]', '"shop.a" must be written "importer -> imported".'),
        ('["a -> b -> c"]', '"a -> b -> c" must be written "importer -> imported".'),
        ('["*.a -> shop.b"]', "must start with a literal top-level package"),
        ('"shop.a -> shop.b"', "must be a list of strings, not a string."),
    ],
)
def test_a_bad_entry_is_a_definition_problem(allow: str, message: str) -> None:
    definition = (
        'code = "ACME001"\nname = "acme"\nsummary = "s"\ncheck = "inw.protected"\n\n'
        f'[options]\nmodules = ["shop.b"]\nallow = {allow}\n'
    )
    rules = load_rules(
        FAMILIES, InMemoryRuleSources(FAMILIES, project={"ACME001.toml": definition})
    )
    (problem,) = rules.problems
    assert problem.key == "options.allow" and message in problem.message, problem.render()
    assert problem.line == 8
