"""`ignore-imports`, `unmatched-ignore`, `type-checking`, `dynamic` and `missing-modules` on
the five generic
kinds: import-linter's grammar (pinned against grimp 3's matching), which imports each
option takes out, and that no chain goes through them."""

from __future__ import annotations

import pytest

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles, InMemoryRuleSources
from inwards_core.api import check, installed_families, load_config_text, load_rules
from inwards_core.families.inw.generic.ignored_imports import check_ignore_imports, side_regex

FAMILIES = installed_families()
CONFIG = '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n'
KINDS = {
    "inw.independence": 'modules = ["shop.a", "shop.b"]\nindirect = true\n',
    "inw.layers": 'layers = ["shop.a", "shop.b"]\nindirect = true\n',
    "inw.protected": 'modules = ["shop.b"]\n',
    "inw.forbidden": 'modules = ["shop.a"]\nforbidden = ["shop.b", "requests"]\nindirect = true\n',
    "inw.acyclic": 'packages = ["shop"]\n',
}
CHAINS = ["inw.forbidden", "inw.independence", "inw.layers"]
# shop.a.x imports shop.b directly; shop.a.y reaches it through shop.mid; shop.b.back
# imports shop.a back (a cycle among the children of shop).
FILES = {
    "shop/a/x.py": "import shop.b.inner\n",
    "shop/a/y.py": "import shop.mid\n",
    "shop/a/z.py": "",
    "shop/mid.py": "import shop.b.inner\n",
    "shop/b/inner.py": "",
    "shop/b/back.py": "import shop.a.z\n",
}
DEFINITION = ".inwards/rules/ACME001.toml"


def _rules(kind: str, options: str):  # type: ignore[no-untyped-def]
    definition = (
        f'code = "ACME001"\nname = "acme"\nsummary = "s"\ncheck = "{kind}"\n\n[options]\n'
        f"{KINDS[kind]}{options}"
    )
    return load_rules(FAMILIES, InMemoryRuleSources(FAMILIES, project={"ACME001.toml": definition}))


def _run(kind: str, options: str = "", files: dict[str, str] | None = None) -> list[Finding]:
    rules = _rules(kind, options)
    assert rules.problems == ()
    tree = InMemoryProjectFiles({**FILES, **(files or {})})
    report = check(load_config_text(CONFIG), tree, rule_set=rules)
    return [f for f in report.findings if f.code == "ACME001"]


def _where(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.file, f.span.line) for f in findings]


# What grimp 3.x's `find_matching_direct_imports` matches (run against a graph by hand):
# `*` is exactly one segment, `**` one segment or more, never zero.
GRAMMAR = [
    ("shop.a", "shop.a", True),
    ("shop.a", "shop.a.x", False),  # no prefixes, unlike `allow`
    ("shop.*", "shop.a", True),
    ("shop.*", "shop", False),
    ("shop.*", "shop.a.x", False),
    ("shop.**", "shop.a", True),
    ("shop.**", "shop.a.x.y", True),
    ("shop.**", "shop", False),  # `**` is not zero segments
    ("shop.**.x", "shop.a.x", True),
    ("shop.**.x", "shop.a.b.x", True),
    ("shop.**.x", "shop.x", False),
    ("shop.*.x", "shop.a.x", True),
    ("shop.*.x", "shop.a.b.x", False),
    ("*", "shop", True),
    ("*", "shop.a", False),
    ("**", "shop.a.b", True),
    ("shop.*.*", "shop.a.b", True),
    ("shop.a_b", "shop.aXb", False),  # names are literal, not patterns
]


@pytest.mark.parametrize(("side", "module", "matches"), GRAMMAR)
def test_the_grammar_of_one_side(side: str, module: str, matches: bool) -> None:
    assert (side_regex(side).fullmatch(module) is not None) is matches


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("shop.a -> shop.b", None),
        ("shop.*.x -> shop.**", None),
        ("shop.*.*.x -> shop.b.**.y", None),
        ("shop.*.a.** -> shop.b", None),  # both kinds, not next to each other
        ("shop.a", 'write it "importer -> imported"'),
        ("a -> b -> c", 'write it "importer -> imported"'),
        (" -> shop.b", 'write it "importer -> imported"'),
        ("shop.a* -> shop.b", '"a*" is part name, part wildcard'),
        ("shop.a -> shop.*b", '"*b" is part name, part wildcard'),
        ("shop.**.* -> shop.b", '"**" can\'t be followed by another wildcard'),
        ("shop.**.** -> shop.b", '"**" can\'t be followed by another wildcard'),
        ("shop.*.** -> shop.b", '"*" can\'t be followed by "**"'),
        ("shop..a -> shop.b", "has an empty name between dots"),
    ],
)
def test_the_grammar_of_an_entry(entry: str, problem: str | None) -> None:
    found = check_ignore_imports(("shop.ok -> shop.fine", entry))
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith("[1] is ") and problem in found


def test_a_bad_entry_is_a_definition_problem_naming_file_line_and_key() -> None:
    rules = _rules("inw.forbidden", 'ignore-imports = ["shop.a* -> shop.b"]\n')
    (problem,) = [str(p) for p in rules.problems]
    assert "ACME001.toml" in problem
    assert "options.ignore-imports" in problem
    assert '"a*" is part name, part wildcard' in problem


@pytest.mark.parametrize("kind", [k for k in sorted(KINDS) if k != "inw.acyclic"])
def test_an_ignored_import_is_not_reported(kind: str) -> None:
    assert ("shop/a/x.py", 1) in _where(_run(kind))
    after = _run(kind, 'ignore-imports = ["shop.a.x -> shop.b.inner"]\n')
    assert ("shop/a/x.py", 1) not in _where(after)
    assert [f for f in after if f.file == DEFINITION] == []


@pytest.mark.parametrize("kind", CHAINS)
def test_no_chain_goes_through_an_ignored_import(kind: str) -> None:
    assert ("shop/a/y.py", 1) in _where(_run(kind))
    after = _run(kind, 'ignore-imports = ["shop.mid -> shop.b.inner"]\n')
    assert ("shop/a/y.py", 1) not in _where(after)
    assert ("shop/a/x.py", 1) in _where(after)


def test_an_ignored_import_breaks_a_cycle() -> None:
    assert ("shop/a/x.py", 1) in _where(_run("inw.acyclic"))
    assert _run("inw.acyclic", 'ignore-imports = ["shop.b.back -> shop.a.z"]\n') == []


def test_wildcards_ignore_every_import_they_match() -> None:
    after = _run("inw.protected", 'ignore-imports = ["shop.a.* -> shop.b.**"]\n')
    assert _where(after) == [("shop/mid.py", 1)]


def test_a_library_matches_by_its_import_name() -> None:
    files = {"shop/a/x.py": "import requests.adapters\n"}
    assert ("shop/a/x.py", 1) in _where(_run("inw.forbidden", files=files))
    after = _run("inw.forbidden", 'ignore-imports = ["shop.a.x -> requests"]\n', files)
    assert ("shop/a/x.py", 1) not in _where(after)


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize(
    ("setting", "severity"),
    [
        ("", "warning"),
        ('unmatched-ignore = "warning"\n', "warning"),
        ('unmatched-ignore = "error"\n', "error"),
        ('unmatched-ignore = "none"\n', None),
    ],
)
def test_an_entry_that_matches_nothing(kind: str, setting: str, severity: str | None) -> None:
    # `shop.a -> shop.b` names the package shop.a itself, which imports nothing.
    options = f'ignore-imports = ["shop.b.back -> shop.a.z", "shop.a -> shop.b"]\n{setting}'
    found = [f for f in _run(kind, options) if f.file == DEFINITION]
    if severity is None:
        assert found == []
        return
    (unmatched,) = found
    assert unmatched.severity.value == severity
    assert unmatched.message == (
        '`options.ignore-imports[1]` is "shop.a -> shop.b", which matches no import of this '
        "project: it ignores nothing."
    )
    assert unmatched.fix.summary.startswith('Remove "shop.a -> shop.b"')


def test_an_unknown_unmatched_ignore_value_is_a_definition_problem() -> None:
    rules = _rules("inw.layers", 'unmatched-ignore = "warn"\n')
    (problem,) = [str(p) for p in rules.problems]
    assert "options.unmatched-ignore" in problem and '"warn"' in problem


TYPE_CHECKING_IMPORT = {
    "shop/a/x.py": (
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import shop.b.inner\n"
    ),
}
DYNAMIC_IMPORT = {"shop/a/x.py": 'import importlib\n\nimportlib.import_module("shop.b.inner")\n'}


@pytest.mark.parametrize("kind", [k for k in sorted(KINDS) if k != "inw.acyclic"])
@pytest.mark.parametrize(
    ("files", "option", "line"),
    [(TYPE_CHECKING_IMPORT, "type-checking", 4), (DYNAMIC_IMPORT, "dynamic", 3)],
    ids=["type-checking", "dynamic"],
)
def test_type_checking_and_dynamic_imports(
    kind: str, files: dict[str, str], option: str, line: int
) -> None:
    assert ("shop/a/x.py", line) in _where(_run(kind, f"{option} = true\n", files))
    assert ("shop/a/x.py", line) not in _where(_run(kind, f"{option} = false\n", files))


# Modules that no file stands for (an import hook serves them): grimp tries the name
# imported, then the module above it, and otherwise records no import.
MISSING_MODULES = {
    "shop/a/x.py": "from shop.b.renamed import thing\n",  # neither `shop.b.renamed` nor above
    "shop/a/z.py": "import shop.b.gone.deeper\n",  # nor `shop.b.gone`
    "shop/a/y.py": "import shop.b.gone\n",  # an import of `shop.b`, which exists
}


@pytest.mark.parametrize("kind", [k for k in sorted(KINDS) if k != "inw.acyclic"])
def test_imports_of_missing_modules_are_seen_as_grimp_sees_them(kind: str) -> None:
    every = _where(_run(kind, files=MISSING_MODULES))
    assert {("shop/a/x.py", 1), ("shop/a/y.py", 1), ("shop/a/z.py", 1)} <= set(every)
    found = _run(kind, "missing-modules = false\n", MISSING_MODULES)
    assert ("shop/a/x.py", 1) not in _where(found) and ("shop/a/z.py", 1) not in _where(found)
    assert ("shop/a/y.py", 1) in _where(found)
    assert all("shop.b.gone" not in f.message for f in found)


def test_a_dynamic_import_of_a_missing_module_is_one_of_the_module_above_it() -> None:
    files = {"shop/a/x.py": 'import importlib\n\nimportlib.import_module("shop.b.gone")\n'}
    found = _run("inw.protected", "missing-modules = false\n", files)
    assert [(f.file, f.span.line) for f in found if "shop.b" in f.message] == [
        ("shop/a/x.py", 3),
        ("shop/mid.py", 1),
    ]


def test_an_entry_matching_only_an_import_of_a_missing_module_is_unmatched() -> None:
    options = 'missing-modules = false\nignore-imports = ["shop.a.x -> shop.b.renamed"]\n'
    found = _run("inw.protected", options, MISSING_MODULES)
    assert DEFINITION in [f.file for f in found]
    kept = _run("inw.protected", options.replace("false", "true"), MISSING_MODULES)
    assert DEFINITION not in [f.file for f in kept]


@pytest.mark.parametrize("kind", CHAINS)
def test_no_chain_goes_through_a_type_checking_import_when_they_are_off(kind: str) -> None:
    files = {
        "shop/mid.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import shop.b.inner\n"
    }
    assert ("shop/a/y.py", 1) in _where(_run(kind, files=files))
    assert ("shop/a/y.py", 1) not in _where(_run(kind, "type-checking = false\n", files))


def test_an_entry_matching_only_an_import_left_out_is_unmatched() -> None:
    options = 'type-checking = false\nignore-imports = ["shop.a.x -> shop.b.inner"]\n'
    found = _run("inw.protected", options, TYPE_CHECKING_IMPORT)
    assert [f.file for f in found] == ["shop/mid.py", DEFINITION]
