"""The TIDY family's own tests, written as a family author would write them: only
inwards_core's public API and its testing helpers, projects as dicts of files, the family
registered directly (no entry point needed, no other family in the way).

They run from inwards' main suite too, against the installed distribution; without it they
skip and say how to install it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip(
    "inwards_rules_tidy",
    reason=(
        "inwards-rules-tidy is not installed: run "
        "`pip install --no-deps ./tests/families/inwards-rules-tidy` (bash .ci/run does)"
    ),
)

import inwards_rules_tidy
from inwards_rules_tidy import plugin

from inwards_core import (
    ConfigError,
    Example,
    Finding,
    RuleSet,
    Severity,
    check,
    example_problems,
    installed_families,
    load_config_text,
    load_rules,
    render_rule_page,
)
from inwards_core.adapters.in_memory import InMemoryProjectFiles

DOCS = Path(__file__).resolve().parents[1] / "docs"
FAMILIES = installed_families(entry_points=False, plugins=[plugin])
RULES: RuleSet = load_rules(FAMILIES)

LAYERS = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
]
"""
FANOUT_ON = '\n[tool.inwards.rules]\nextend-select = ["TIDY002"]\n'


def run(files: dict[str, str], extra_config: str = "") -> list[Finding]:
    config = load_config_text(LAYERS + extra_config)
    report = check(config, InMemoryProjectFiles(files), rule_set=RULES)
    return list(report.findings)


def where(findings: list[Finding]) -> list[tuple[str, int, int, str]]:
    return [(f.file, f.span.line, f.span.column, f.code) for f in findings]


def config_problems(extra_config: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        run({"shop/domain/money.py": ""}, extra_config)
    return [problem.render() for problem in caught.value.problems]


# -- the family and its definitions ------------------------------------------------------


def test_family_value() -> None:
    (family,) = FAMILIES
    assert family.prefix == "TIDY"
    assert family.distribution == "inwards-rules-tidy"
    assert family.version == inwards_rules_tidy.__version__ == "0.3.0"
    assert family.definitions == "inwards_rules_tidy.definitions"
    assert [kind.id for kind in family.kinds] == ["tidy.star-import", "tidy.import-fanout"]


def test_definitions_resolve_cleanly() -> None:
    assert RULES.problems == ()
    table = [
        (r.code, r.name, r.kind.id, r.definition.default, r.definition.severity)
        for r in RULES.rules
    ]
    assert table == [
        ("TIDY001", "star-import", "tidy.star-import", "on", Severity.WARNING),
        ("TIDY002", "import-fanout", "tidy.import-fanout", "opt-in", Severity.WARNING),
    ]
    for rule in RULES.rules:
        assert rule.definition.family == "inwards-rules-tidy"
        assert rule.definition.family_version == "0.3.0"
        assert rule.definition.origin.path == (f"inwards_rules_tidy/definitions/{rule.code}.toml")


# -- examples are tests ------------------------------------------------------------------

EXAMPLES = [
    pytest.param(kind.id, example, id=f"{kind.id}-{number}")
    for kind in inwards_rules_tidy.family().kinds
    for number, example in enumerate(kind.examples())
]


@pytest.mark.parametrize(("kind", "example"), EXAMPLES)
def test_example(kind: str, example: Example) -> None:
    assert example_problems(example, RULES) == []


def test_every_kind_has_good_and_bad_examples_and_docs() -> None:
    for kind in inwards_rules_tidy.family().kinds:
        assert {example.good for example in kind.examples()} == {True, False}, kind.id
        assert kind.docs is not None, kind.id
        assert all(kind.docs.sections()), kind.id


def test_a_broken_example_is_caught() -> None:
    """The examples' harness can fail: a bad example whose marker is on the wrong line."""
    example = Example(
        title="wrong line",
        good=False,
        files={"shop/domain/a.py": "import os  # expect: TIDY001\nfrom os import *\n"},
    )
    assert example_problems(example, RULES) == [
        "missing ('shop/domain/a.py', 1, 'TIDY001')",
        "unexpected ('shop/domain/a.py', 2, 'TIDY001')",
    ]


@pytest.mark.parametrize("code", ["TIDY001", "TIDY002"])
def test_docs_page_is_fresh(code: str) -> None:
    """docs/<CODE>.md is rendered from the definition and the kind;
    `INWARDS_REGENERATE=1` rewrites it."""
    rule = RULES.by_code(code)
    assert rule is not None
    # The generated-page note names inwards' own docs test; this page comes from ours.
    text = render_rule_page(rule, RULES).replace(
        "tests/rules/test_docs.py", "tests/families/inwards-rules-tidy/tests/test_tidy_rules.py"
    )
    page = DOCS / f"{code}.md"
    if os.environ.get("INWARDS_REGENERATE"):
        page.write_text(text, encoding="utf-8")
    assert page.read_text(encoding="utf-8") == text, f"{page} is stale"


# -- TIDY001 star-import -----------------------------------------------------------------


def test_star_import_is_reported_at_the_star() -> None:
    findings = run(
        {
            "shop/domain/money.py": "class Money: ...\n",
            "shop/application/pay.py": "import os\nfrom shop.domain.money import *\n",
        }
    )
    assert where(findings) == [("shop/application/pay.py", 2, 31, "TIDY001")]
    (finding,) = findings
    assert finding.severity is Severity.WARNING
    assert finding.module == "shop.application.pay"
    assert finding.message == (
        'Star import from "shop.domain.money": which of its names this module uses '
        "can't be seen here."
    )
    # The guidance templates are filled from the violation's params.
    assert finding.fix.summary == (
        "Import the names this module uses from `shop.domain.money` by name."
    )
    assert finding.fix.steps[0] == (
        "Replace `from shop.domain.money import *` with `from shop.domain.money import "
        "<names>`, listing only the names `shop.application.pay` uses."
    )
    assert finding.docs == "tests/families/inwards-rules-tidy/docs/TIDY001.md"


def test_star_imports_of_any_module_in_functions_and_relative_ones() -> None:
    findings = run(
        {
            "shop/domain/__init__.py": "",
            "shop/domain/money.py": "class Money: ...\n",
            "shop/domain/order.py": (
                "from .money import *\ndef f() -> None:\n    from os.path import *\n"
            ),
        }
    )
    assert where(findings) == [
        ("shop/domain/order.py", 1, 20, "TIDY001"),
        ("shop/domain/order.py", 3, 25, "TIDY001"),
    ]
    assert 'from "shop.domain.money"' in findings[0].message
    assert 'from "os.path"' in findings[1].message


def test_init_may_star_import_as_the_definition_says_and_the_project_may_forbid_it() -> None:
    files = {
        "shop/domain/__init__.py": "from shop.domain.money import *\n",
        "shop/domain/money.py": "class Money: ...\n",
    }
    assert run(files) == []
    strict = "\n[tool.inwards.rules.star-import]\nallow-in-init = false\n"
    assert where(run(files, strict)) == [("shop/domain/__init__.py", 1, 31, "TIDY001")]


def test_a_star_import_in_an_init_gets_the_in_init_variant_of_the_fix() -> None:
    """The variant a kind names is worded in the definition: its summary is the main one."""
    files = {
        "shop/domain/__init__.py": "from shop.domain.money import *\n",
        "shop/domain/money.py": "class Money: ...\n",
    }
    (finding,) = run(files, "\n[tool.inwards.rules.star-import]\nallow-in-init = false\n")
    assert finding.fix.summary == (
        "Import the names this module uses from `shop.domain.money` by name."
    )
    assert finding.fix.steps == (
        "Replace `from shop.domain.money import *` with `from shop.domain.money import "
        "<names>`, listing the names `shop.domain` offers.",
        "List the same names in `__all__` of `shop.domain`, so that its public API stays explicit.",
    )


def test_allowed_modules_and_what_is_below_them() -> None:
    files = {
        "shop/domain/a.py": "from tkinter import *\nfrom tkinter.ttk import *\n",
        "shop/domain/b.py": "from tkinterx import *\n",
    }
    allowed = '\n[tool.inwards.rules.star-import]\nallowed = ["tkinter"]\n'
    assert where(run(files, allowed)) == [("shop/domain/b.py", 1, 22, "TIDY001")]


def test_star_import_suppressed_inline_and_ignored() -> None:
    files = {
        "shop/domain/a.py": 'from os import *  # inwards: ignore[TIDY001] reason="legacy"\n',
        "shop/domain/b.py": "from os import *\n",
    }
    assert where(run(files)) == [("shop/domain/b.py", 1, 16, "TIDY001")]
    assert run(files, '\n[tool.inwards.rules]\nignore = ["TIDY001"]\n') == []


def test_code_no_layer_owns_is_not_read() -> None:
    assert run({"shop/domain/a.py": "", "tools/gen.py": "from os import *\n"}) == []


def test_bad_star_import_options_name_file_line_and_key() -> None:
    assert config_problems('\n[tool.inwards.rules.star-import]\nallowed = ["shop..x"]\n') == [
        "pyproject.toml:8:1: tool.inwards.rules.star-import.allowed: "
        '"shop..x" is not a dotted module name (like "tkinter" or "shop.constants").'
    ]
    problems = config_problems("\n[tool.inwards.rules.star-import]\nallow-in-init = 1\n")
    assert problems == [
        "pyproject.toml:8:1: tool.inwards.rules.star-import.allow-in-init: "
        "must be true or false, not an integer."
    ]


# -- TIDY002 import-fanout ---------------------------------------------------------------

DOMAIN = {f"shop/domain/m{n}.py": f"class M{n}: ...\n" for n in range(1, 6)}


def test_fanout_is_opt_in() -> None:
    files = {
        **DOMAIN,
        "shop/application/wide.py": "".join(f"import shop.domain.m{n}\n" for n in range(1, 6)),
    }
    limit = "\n[tool.inwards.rules.import-fanout]\nmax-modules = 2\n"
    # Off, its options do nothing: the one finding says so, at the table.
    (unused,) = run(files, limit)
    assert (unused.code, unused.file, unused.severity.value) == (
        "TIDY002",
        "pyproject.toml",
        "warning",
    )
    findings = run(files, FANOUT_ON + limit)
    assert where(findings) == [("shop/application/wide.py", 3, 8, "TIDY002")]
    (finding,) = findings
    assert finding.message == (
        '"shop.application.wide" imports 5 distinct first-party modules. '
        "The limit is 2; this import is number 3."
    )
    assert finding.stable_message == (
        '"shop.application.wide" imports 5 distinct first-party modules.'
    )
    assert finding.fix.summary == (
        "`shop.application.wide` depends on 5 modules of this project (limit 2): "
        "split it or depend on a facade."
    )
    assert finding.fix.steps[0] == (
        "Look at what `shop.application.wide` imports: `shop.domain.m1`, `shop.domain.m2`, "
        "`shop.domain.m3`, `shop.domain.m4`, `shop.domain.m5`."
    )


def test_fanout_counts_distinct_first_party_modules_only() -> None:
    source = (
        "import os, json, attrs\n"  # stdlib and third-party: never counted
        "from shop.domain.m1 import M1\n"
        "from shop.domain.m1 import M1 as Again\n"  # the same module again
        "import shop.application.wide\n"  # itself
        "from shop.domain import m2\n"  # a submodule named in a from-import
        "def f() -> None:\n"
        "    import shop.domain.m3\n"  # deferred imports count
    )
    files = {**DOMAIN, "shop/application/wide.py": source}
    three = FANOUT_ON + "\n[tool.inwards.rules.import-fanout]\nmax-modules = 3\n"
    two = FANOUT_ON + "\n[tool.inwards.rules.import-fanout]\nmax-modules = 2\n"
    assert run(files, three) == []
    assert where(run(files, two)) == [("shop/application/wide.py", 7, 12, "TIDY002")]


def test_fanout_type_checking_imports_count_unless_told_otherwise() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import shop.domain.m1\n"
        "if TYPE_CHECKING:\n"
        "    import shop.domain.m2\n"
    )
    files = {**DOMAIN, "shop/application/wide.py": source}
    base = FANOUT_ON + "\n[tool.inwards.rules.import-fanout]\nmax-modules = 1\n"
    assert where(run(files, base)) == [("shop/application/wide.py", 4, 12, "TIDY002")]
    assert run(files, base + "count-type-checking = false\n") == []


def test_fanout_severity_can_be_raised_by_the_project() -> None:
    files = {**DOMAIN, "shop/application/wide.py": "import shop.domain.m1, shop.domain.m2\n"}
    config = (
        '\n[tool.inwards.rules]\nextend-select = ["TIDY002"]\n'
        'severity = { TIDY002 = "error" }\n'
        "\n[tool.inwards.rules.import-fanout]\nmax-modules = 1\n"
    )
    (finding,) = run(files, config)
    assert finding.severity is Severity.ERROR


def test_bad_fanout_options_name_file_line_and_key() -> None:
    table = "\n[tool.inwards.rules.import-fanout]\n"
    assert config_problems(table + "max-modules = 0\n") == [
        "pyproject.toml:8:1: tool.inwards.rules.import-fanout.max-modules: "
        "must be at least 1, not 0."
    ]
    assert config_problems(table + 'max-modules = "ten"\n') == [
        "pyproject.toml:8:1: tool.inwards.rules.import-fanout.max-modules: "
        "must be an integer, not a string."
    ]
    assert config_problems(table + "max = 3\n") == [
        "pyproject.toml:8:1: tool.inwards.rules.import-fanout.max: "
        "is not an option. Known options: count-type-checking, max-modules."
    ]
