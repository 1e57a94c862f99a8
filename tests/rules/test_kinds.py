"""The generic check kinds (inw.forbidden, inw.independence, inw.layers, inw.protected,
inw.acyclic): their examples, their docs pages, their options, chains, cycles and PATHS runs.

`INWARDS_REGENERATE=1 pytest tests/rules/test_kinds.py` rewrites docs/kinds/.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.api import check, installed_families, load_config_text
from inwards_core.authoring.docgen import render_kind_page, render_kinds_index
from inwards_core.authoring.examples import Example, example_problems, example_rule_set, run_example
from inwards_core.config.values import ConfigError
from inwards_core.families.inw import GENERIC_KIND_MODULES
from inwards_core.families.inw.module_entries import ONE_LAYER_CONFIG
from inwards_core.model.findings import ChainStep, Finding, Report, RootKind, Severity, Span
from inwards_core.ports import RuleDocument
from inwards_core.rules.definitions import DefinitionProblem
from inwards_core.rules.resolver import resolve

FAMILIES = installed_families()
DOCS = Path(__file__).resolve().parents[2] / "docs"
KINDS = {module.KIND.id: module for module in GENERIC_KIND_MODULES}
CASES = [
    pytest.param(module, example, id=f"{module.KIND.id}-{'good' if example.good else 'bad'}-{n}")
    for module in GENERIC_KIND_MODULES
    for n, example in enumerate(module.KIND.examples())
]


def definition(code: str, kind: str, options: str, guidance: str = "") -> str:
    return (
        f'code = "{code}"\nname = "rule-{code.lower()}"\nsummary = "A test rule."\n'
        f'check = "{kind}"\n\n[options]\n{options}\n{guidance}'
    )


def run(
    files: Mapping[str, str],
    definitions: Mapping[str, str],
    *,
    config: str = ONE_LAYER_CONFIG,
    paths: Sequence[str] | None = None,
) -> Report:
    """Check an in-memory project with the core rules and `definitions` in its project root."""
    example = Example("test", good=False, files=files, config=config, definitions=definitions)
    project = InMemoryProjectFiles(
        {"pyproject.toml": config, **example.definition_sources(), **files}
    )
    return check(load_config_text(config), project, rule_set=example_rule_set(example), paths=paths)


def only(report: Report, code: str) -> list[Finding]:
    return [f for f in report.findings if f.code == code]


def problems_of(text: str, name: str = "ACME001.toml") -> tuple[DefinitionProblem, ...]:
    families = FAMILIES
    document = RuleDocument(RootKind.PROJECT, f".inwards/rules/{name}", text.encode())
    rule_set = resolve([*packaged_documents(families), document], families)
    return rule_set.problems


# -- examples and docs ------------------------------------------------------------------


@pytest.mark.parametrize(("module", "example"), CASES)
def test_example(module: ModuleType, example: Example) -> None:
    assert example_problems(example) == []


@pytest.mark.parametrize("module", GENERIC_KIND_MODULES, ids=list(KINDS))
def test_every_kind_has_good_and_bad_examples_using_it(module: ModuleType) -> None:
    examples = module.KIND.examples()
    assert {example.good for example in examples} == {True, False}
    for example in examples:
        assert example.definitions, example.title
        rule_set = example_rule_set(example)
        assert rule_set.problems == ()
        own = [r for r in rule_set.rules if r.definition.origin.root is RootKind.PROJECT]
        assert own and all(r.kind.id == module.KIND.id for r in own), example.title
        if not example.good:
            codes = {f.code for f in run_example(example).findings}
            assert codes & {r.code for r in own}, example.title


@pytest.mark.parametrize("module", GENERIC_KIND_MODULES, ids=list(KINDS))
def test_kind_is_documented(module: ModuleType) -> None:
    docs = module.KIND.docs
    assert docs is not None, module.__name__
    titles = [title for title, _ in docs.sections()]
    assert titles == ["What it does", "Why is this bad?", "How to fix", "Limitations"]
    assert module.KIND.guidance_params, module.__name__


def _fresh(page: Path, text: str) -> None:
    if os.environ.get("INWARDS_REGENERATE"):
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
    assert page.exists(), f"{page} is missing: run INWARDS_REGENERATE=1 pytest {__file__}"
    assert page.read_text(encoding="utf-8") == text, (
        f"{page} is stale: run INWARDS_REGENERATE=1 pytest tests/rules/test_kinds.py"
    )


@pytest.mark.parametrize("module", GENERIC_KIND_MODULES, ids=list(KINDS))
def test_kind_page_is_fresh(module: ModuleType) -> None:
    _fresh(DOCS / "kinds" / f"{module.KIND.id}.md", render_kind_page(module.KIND))


def test_kinds_index_is_fresh_and_linked() -> None:
    _fresh(DOCS / "kinds" / "index.md", render_kinds_index([m.KIND for m in GENERIC_KIND_MODULES]))
    index = (DOCS / "kinds" / "index.md").read_text(encoding="utf-8")
    for kind in KINDS:
        assert f"[{kind}]({kind}.md)" in index
    assert "(../kinds/index.md)" in (DOCS / "rules" / "index.md").read_text(encoding="utf-8")


def test_kind_page_shows_options_params_and_real_output() -> None:
    module = KINDS["inw.forbidden"]
    page = render_kind_page(module.KIND)
    assert "| `forbidden` | list of strings | required |" in page
    assert "| `indirect` | boolean | `false` |" in page
    assert "| `{chain}` |" in page
    assert "`.inwards/rules/ACME001.toml`:" in page
    assert 'check = "inw.forbidden"' in page
    assert "ACME001 [project rule]" in page  # the output of a real run


# -- options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "key", "line", "words"),
    [
        ('modules = ["shop.domain"]', "options", 6, "has no `forbidden`"),
        ('modules = ["shop.domain"]\nforbidden = []', "options.forbidden", 8, "at least one"),
        ('modules = ["shop.domain"]\nforbiden = ["x"]', "options.forbiden", 8, "not an option"),
        (
            'modules = ["shop.domain"]\nforbidden = ["x"]\nindirect = "yes"',
            "options.indirect",
            9,
            "true or false",
        ),
        ('modules = ["shop.*x"]\nforbidden = ["x"]', "options.modules", 7, "partial wildcard"),
        ('modules = "shop"\nforbidden = ["x"]', "options.modules", 7, "list of strings"),
        (
            'modules = ["shop"]\nforbidden = ["x"]\nallow = ["a -> b -> c"]',
            "options.allow",
            9,
            "more than one",
        ),
    ],
)
def test_forbidden_rejects_bad_options_with_key_and_line(
    options: str, key: str, line: int, words: str
) -> None:
    (problem,) = problems_of(definition("ACME001", "inw.forbidden", options))
    assert problem.path == ".inwards/rules/ACME001.toml"
    assert (problem.key, problem.line) == (key, line)
    assert words in problem.message


@pytest.mark.parametrize(
    ("kind", "options", "key", "words"),
    [
        ("inw.independence", "indirect = true", "options", "has no `modules`"),
        ("inw.layers", 'layers = ["domain"]', "options.layers", "at least two layers"),
        ("inw.layers", 'layers = ["a", "b | a"]', "options.layers", 'lists "a" twice'),
        ("inw.layers", 'layers = ["a", "b"]\ncontainers = []\nexhaustive = true', "options.exhaustive", "needs `containers`"),
        ("inw.layers", 'layers = ["a | b : c"]', "options.layers", "mixes"),
        ("inw.layers", 'layers = ["a"]\nmissing-layers = "fail"', "options.missing-layers", '"warning" or "error"'),
        ("inw.protected", 'importers = ["shop.api"]', "options", "has no `modules`"),
        ("inw.acyclic", "packages = []", "options.packages", "at least one"),
        ("inw.acyclic", 'packages = ["shop"]\ndepth = -1', "options.depth", "0 or more"),
        ("inw.acyclic", 'packages = ["shop"]\nskip-descendants = ["shop"]', "options.skip-descendants", "also one of"),
    ],
)  # fmt: skip
def test_every_kind_rejects_bad_options(kind: str, options: str, key: str, words: str) -> None:
    (problem,) = problems_of(definition("ACME001", kind, options))
    assert problem.key == key and problem.line is not None
    assert words in problem.message


def test_a_project_definition_with_bad_options_stops_the_run() -> None:
    with pytest.raises(ConfigError) as caught:
        run({"shop/a.py": ""}, {"ACME001.toml": definition("ACME001", "inw.forbidden", "")})
    assert ".inwards/rules/ACME001.toml:6:2: options: has no `modules`" in str(caught.value)


# -- direct imports ---------------------------------------------------------------------

FORBID_REQUESTS = definition(
    "ACME001", "inw.forbidden", 'modules = ["shop.domain"]\nforbidden = ["requests", "shop.db"]'
)


def test_forbidden_direct_imports_of_libraries_and_first_party_code() -> None:
    report = run(
        {
            "shop/domain/a.py": "import requests.adapters\nfrom shop.db import session\n",
            "shop/domain/b.py": "def f():\n    from shop import db\n",
            "shop/db/session.py": "import requests\n",
            "shop/api/c.py": "import requests\n",
        },
        {"ACME001.toml": FORBID_REQUESTS},
    )
    found = [(f.file, f.span.line) for f in only(report, "ACME001")]
    assert found == [("shop/domain/a.py", 1), ("shop/domain/a.py", 2), ("shop/domain/b.py", 2)]
    first = only(report, "ACME001")[0]
    assert first.message == (
        '"shop.domain.a" imports "requests.adapters": "shop.domain" may not import "requests".'
    )
    assert first.origin is RootKind.PROJECT
    assert first.fix.summary == 'Keep "requests" out of "shop.domain".'  # no [guidance]


def test_forbidden_allow_pairs_and_targets() -> None:
    rule = definition(
        "ACME001",
        "inw.forbidden",
        'modules = ["shop.domain"]\nforbidden = ["datetime", "django"]\n'
        'allow = ["shop.domain.clock -> datetime", "django.utils.functional"]',
    )
    report = run(
        {
            "shop/domain/clock.py": "import datetime\n",
            "shop/domain/order.py": "import datetime\nfrom django.utils.functional import cached_property\nimport django.db\n",
        },
        {"ACME001.toml": rule},
    )
    assert [(f.file, f.span.line) for f in only(report, "ACME001")] == [
        ("shop/domain/order.py", 1),
        ("shop/domain/order.py", 3),
    ]


def test_independence_units_from_a_selector() -> None:
    rule = definition("ACME002", "inw.independence", 'modules = ["shop.contexts.*"]')
    report = run(
        {
            "shop/contexts/a/x.py": "from shop.contexts.b import y\nfrom shop.contexts.a import z\n",
            "shop/contexts/a/z.py": "",
            "shop/contexts/b/y.py": "from shop.kernel import k\n",
            "shop/contexts/c/w.py": "import shop.contexts.a.z\n",
            "shop/kernel/k.py": "",
        },
        {"ACME002.toml": rule},
    )
    found = [(f.file, f.span.line, f.message.split(":")[0]) for f in only(report, "ACME002")]
    assert found == [
        ("shop/contexts/a/x.py", 1, '"shop.contexts.a.x" imports "shop.contexts.b.y" from "shop.contexts.b"'),
        ("shop/contexts/c/w.py", 1, '"shop.contexts.c.w" imports "shop.contexts.a.z" from "shop.contexts.a"'),
    ]  # fmt: skip


def test_an_indirect_independence_finding_carries_its_chain_and_a_direct_one_none() -> None:
    rule = definition(
        "ACME002", "inw.independence", 'modules = ["shop.a", "shop.b"]\nindirect = true'
    )
    files = {
        "shop/a/x.py": "from shop.kernel import k\n",
        "shop/kernel/k.py": "import shop.b.y\n",
        "shop/b/y.py": "",
        "shop/b/z.py": "from shop.a import x\n",
    }
    found = {f.file: f for f in only(run(files, {"ACME002.toml": rule}), "ACME002")}
    assert [(s.importer, s.imported, s.file) for s in found["shop/a/x.py"].chain] == [
        ("shop.a.x", "shop.kernel.k", "shop/a/x.py"),
        ("shop.kernel.k", "shop.b.y", "shop/kernel/k.py"),
    ]
    assert found["shop/b/z.py"].chain == ()


def test_layers_siblings_and_absolute_prefixes() -> None:
    rule = definition(
        "ACME003",
        "inw.layers",
        'layers = ["shop.core", "shop.inbound | shop.outbound", "shop.main"]',
    )
    report = run(
        {
            "shop/core/m.py": "from shop.inbound import h\n",
            "shop/inbound/h.py": "from shop.outbound import s\nfrom shop.core import m\n",
            "shop/outbound/s.py": "from shop.core import m\n",
            "shop/main.py": "from shop.inbound import h\nfrom shop.outbound import s\n",
        },
        {"ACME003.toml": rule},
    )
    found = [(f.file, f.span.line) for f in only(report, "ACME003")]
    assert found == [("shop/core/m.py", 1), ("shop/inbound/h.py", 1)]
    assert "a sibling layer of" in only(report, "ACME003")[1].message
    assert only(report, "ACME003")[0].message.endswith(
        "Imports may only point inwards: shop.core <- shop.inbound | shop.outbound <- shop.main."
    )


def test_protected_lets_its_own_subtree_and_importers_in() -> None:
    rule = definition(
        "ACME004",
        "inw.protected",
        'modules = ["shop.orders.internal"]\nimporters = ["shop.orders.api"]',
    )
    report = run(
        {
            "shop/orders/internal/a.py": "from shop.orders.internal import b\n",
            "shop/orders/internal/b.py": "",
            "shop/orders/api.py": "from shop.orders.internal.a import x\n",
            "shop/orders/views.py": "import shop.orders.internal.b\n",
            "scripts/fix.py": "from shop.orders.internal import a\n",
        },
        {"ACME004.toml": rule},
        config='[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n',
    )
    found = [(f.file, f.span.line) for f in only(report, "ACME004")]
    # scripts/ is in no layer: protected reads every module all the same.
    assert found == [("scripts/fix.py", 1), ("shop/orders/views.py", 1)]


def test_entries_that_match_nothing_are_reported_in_the_definition() -> None:
    rule = definition(
        "ACME001",
        "inw.forbidden",
        'modules = ["shop.domain", "shop.domian"]\nforbidden = ["x"]',
        '\n[guidance]\nsummary = "Delete {statement}."\n',
    )
    report = run({"shop/domain/a.py": ""}, {"ACME001.toml": rule})
    (finding,) = only(report, "ACME001")
    assert finding.file == ".inwards/rules/ACME001.toml"
    assert finding.severity is Severity.WARNING
    assert '`options.modules[1]` is "shop.domian"' in finding.message
    # The definition's guidance is about imports, not about its own options.
    assert (
        finding.fix.summary
        == 'Fix or remove "shop.domian" in `options.modules[1]` of the rule definition.'
    )


# -- indirect chains --------------------------------------------------------------------

CHAIN_FILES = {
    "shop/domain/order.py": (
        "from shop.util.a import one\n"  # 3 steps: a -> b -> requests
        "from shop.util.c import two\n"  # 2 steps: c -> requests
    ),
    "shop/domain/price.py": "from shop.util.c import two\n",
    "shop/util/a.py": "from shop.util.b import one\n",
    "shop/util/b.py": "import requests\n",
    "shop/util/c.py": "\n\nimport requests.sessions\n",
}


def _indirect(flag: str = "true") -> dict[str, str]:
    return {
        "ACME001.toml": definition(
            "ACME001",
            "inw.forbidden",
            f'modules = ["shop.domain"]\nforbidden = ["requests"]\nindirect = {flag}',
            '\n[guidance]\nsummary = "Cut {chain}"\n',
        )
    }


def test_the_shortest_chain_is_reported_once_with_every_step() -> None:
    # As import-linter's forbidden contract: the chain's own imports are taken away before
    # the next search, so price -> c -> requests, which ends with a taken import, is no
    # other chain; price's import of c is one more head of the first.
    (finding,) = only(run(CHAIN_FILES, _indirect()), "ACME001")
    assert (finding.file, finding.span.line) == ("shop/domain/order.py", 2)
    assert finding.message == (
        '"shop.domain.order" reaches "requests.sessions" through shop.util.c: "shop.domain" may '
        'not import "requests", not even through other modules. Chain: shop.domain.order '
        "(shop/domain/order.py:2) -> shop.util.c (shop/util/c.py:3) -> requests.sessions. "
        "Also into shop.util.c: shop.domain.price (shop/domain/price.py:1). Other routes (1): "
        "shop.domain.order (shop/domain/order.py:1) -> shop.util.a (shop/util/a.py:1) -> "
        "shop.util.b (shop/util/b.py:1) -> requests."
    )
    assert finding.fix.summary == "Cut shop.domain.order:2 -> shop.util.c:3 -> requests.sessions"
    assert "shop/util/c.py:3" not in finding.stable_message
    # The same chain, as data an editor points at (`Finding.chain`): each import's name.
    assert finding.chain == (
        ChainStep("shop.domain.order", "shop.util.c", "shop/domain/order.py", Span(2, 25, 2, 28)),
        ChainStep("shop.util.c", "requests.sessions", "shop/util/c.py", Span(3, 8, 3, 25)),
    )


def test_chains_are_deterministic_whatever_the_order_of_the_files() -> None:
    reversed_files = dict(reversed(list(CHAIN_FILES.items())))
    first = run(CHAIN_FILES, _indirect())
    second = run(reversed_files, _indirect())
    assert first.findings == second.findings


def test_a_longer_chain_when_no_short_one_exists() -> None:
    files = {**CHAIN_FILES, "shop/domain/order.py": "from shop.util.a import one\n"}
    files.pop("shop/domain/price.py")
    (finding,) = only(run(files, _indirect()), "ACME001")
    assert finding.fix.summary == (
        "Cut shop.domain.order:1 -> shop.util.a:1 -> shop.util.b:1 -> requests"
    )


def test_no_chains_without_indirect() -> None:
    assert only(run(CHAIN_FILES, _indirect("false")), "ACME001") == []


def test_an_allowed_import_cuts_a_chain() -> None:
    rules = {
        "ACME001.toml": definition(
            "ACME001",
            "inw.forbidden",
            'modules = ["shop.domain"]\nforbidden = ["requests"]\nindirect = true\n'
            'allow = ["shop.util.c -> requests"]',
        )
    }
    (finding,) = only(run(CHAIN_FILES, rules), "ACME001")
    assert "through shop.util.a -> shop.util.b:" in finding.message


def test_chains_do_not_go_through_ignored_code() -> None:
    config = (
        '[tool.inwards]\nignore = ["util"]\n'
        'layers = [{ name = "domain", modules = ["shop.domain"] }]\n'
    )
    assert only(run(CHAIN_FILES, _indirect(), config=config), "ACME001") == []
    followed = config.replace('ignore = ["util"]', "ignore = []")
    assert len(only(run(CHAIN_FILES, _indirect(), config=followed), "ACME001")) == 1


def test_layers_chains_per_container() -> None:
    rule = definition(
        "ACME003",
        "inw.layers",
        'layers = ["domain", "adapters"]\ncontainers = ["shop.*"]\nindirect = true',
    )
    files = {
        "shop/orders/domain/o.py": "from shop.helpers import h\n",
        "shop/orders/adapters/db.py": "",
        "shop/billing/domain/i.py": "from shop.helpers import h\n",
        "shop/billing/adapters/mail.py": "",
        "shop/helpers/h.py": "from shop.orders.adapters import db\n",
    }
    found = only(run(files, {"ACME003.toml": rule}), "ACME003")
    # shop.helpers is itself a container without layers: one warning for each layer.
    chains = [f for f in found if f.severity is Severity.ERROR]
    assert [(f.file, f.span.line) for f in chains] == [("shop/orders/domain/o.py", 1)]
    assert 'Layer "domain" of "shop.orders" reaches the layer "adapters"' in chains[0].message
    assert [(step.importer, step.imported, step.file) for step in chains[0].chain] == [
        ("shop.orders.domain.o", "shop.helpers.h", "shop/orders/domain/o.py"),
        ("shop.helpers.h", "shop.orders.adapters.db", "shop/helpers/h.py"),
    ]
    warnings = [f.message for f in found if f.severity is Severity.WARNING]
    assert len(warnings) == 2 and all('container "shop.helpers"' in w for w in warnings)


# -- cycles -----------------------------------------------------------------------------


def test_each_cycle_is_reported_once_starting_at_its_smallest_member() -> None:
    rule = definition("ACME005", "inw.acyclic", 'packages = ["shop"]')
    files = {
        "shop/a/x.py": "from shop.b import y\n",
        "shop/b/y.py": "from shop.a import x\nfrom shop.c import z\n",
        "shop/c/z.py": "import shop.a.x\n",
        "shop/d/w.py": "from shop.a import x\n",
    }
    found = only(run(files, {"ACME005.toml": rule}), "ACME005")
    cycles = sorted(f.message.split(": ")[1].split(". ")[0] for f in found)
    assert cycles == ["shop.a -> shop.b -> shop.a", "shop.a -> shop.b -> shop.c -> shop.a"]
    assert all((f.file, f.span.line) == ("shop/a/x.py", 1) for f in found)
    longest = next(f for f in found if "shop.c -> shop.a." in f.message)
    assert longest.message.endswith(
        "Imports: shop.a.x (shop/a/x.py:1) -> shop.b.y (shop/b/y.py:2) -> shop.c.z "
        "(shop/c/z.py:1) -> shop.a.x."
    )
    assert [(step.importer, step.imported, step.span.line) for step in longest.chain] == [
        ("shop.a.x", "shop.b.y", 1),
        ("shop.b.y", "shop.c.z", 2),
        ("shop.c.z", "shop.a.x", 1),
    ]


# -- what the engine reads, and PATHS ---------------------------------------------------

LAYERED = (
    "[tool.inwards]\n"
    'ignore = ["tests", "scripts"]\n'
    'layers = [{ name = "domain", modules = ["shop.domain"] }, '
    '{ name = "app", modules = ["shop.app"] }]\n'
)
SPREAD = {
    "shop/domain/a.py": "",
    "shop/app/b.py": "from shop.domain import a\n",
    "shop/tools/c.py": "import requests\n",
    "scripts/d.py": "from shop.tools import c\n",
    "tests/test_e.py": "import shop.tools.c\n",
}


def test_only_layered_modules_are_read_without_generic_rules() -> None:
    assert run(SPREAD, {}, config=LAYERED).files_checked == 2


def test_a_rule_that_is_not_enabled_reads_nothing() -> None:
    rule = definition("ACME005", "inw.acyclic", 'packages = ["shop"]').replace(
        'check = "inw.acyclic"', 'check = "inw.acyclic"\ndefault = "opt-in"'
    )
    assert run(SPREAD, {"ACME005.toml": rule}, config=LAYERED).files_checked == 2


def test_a_rule_reads_the_modules_it_names() -> None:
    rule = definition(
        "ACME001", "inw.forbidden", 'modules = ["shop.tools"]\nforbidden = ["requests"]'
    )
    report = run(SPREAD, {"ACME001.toml": rule}, config=LAYERED)
    assert report.files_checked == 3
    assert [(f.file, f.code) for f in only(report, "ACME001")] == [("shop/tools/c.py", "ACME001")]


def test_import_graph_rules_read_every_module_but_ignored_ones() -> None:
    rule = definition("ACME005", "inw.acyclic", 'packages = ["shop"]')
    assert run(SPREAD, {"ACME005.toml": rule}, config=LAYERED).files_checked == 3
    rule = definition("ACME004", "inw.protected", 'modules = ["shop.tools"]')
    report = run(SPREAD, {"ACME004.toml": rule}, config=LAYERED)
    assert report.files_checked == 3  # shop/*, not scripts/ or tests/
    assert only(report, "ACME004") == []


def test_paths_check_direct_imports_and_say_what_was_skipped() -> None:
    rules = {
        **_indirect(),
        "ACME005.toml": definition("ACME005", "inw.acyclic", 'packages = ["shop"]'),
        "ACME006.toml": definition(
            "ACME006", "inw.forbidden", 'modules = ["shop.util"]\nforbidden = ["requests"]'
        ),
    }
    report = run(CHAIN_FILES, rules, paths=["shop/util/c.py", "shop/domain/order.py"])
    assert [(f.file, f.span.line, f.code) for f in report.findings] == [
        ("shop/util/c.py", 3, "ACME006")
    ]
    assert report.files_checked == 2
    assert report.notes == (
        "Whole-project checks were skipped because paths were named: ACME005.",
        "Import chains were not followed because paths were named (only direct imports were "
        "checked): ACME001.",
    )


def test_a_named_file_no_layer_or_rule_covers_is_not_checked() -> None:
    rule = definition("ACME001", "inw.forbidden", 'modules = ["shop.tools"]\nforbidden = ["x"]')
    report = run(SPREAD, {"ACME001.toml": rule}, config=LAYERED, paths=["scripts/d.py"])
    assert report.files_checked == 0
    (item,) = report.not_checked
    assert "holds no module that a layer or an enabled rule covers" in item.message


def test_a_selector_stands_for_the_outermost_packages_it_matches() -> None:
    from inwards_core.families.inw.module_entries import expand
    from inwards_core.index.modules import ModuleIndex
    from inwards_core.ports import ProjectListing
    from inwards_core.rules.project import ProjectModel

    config = load_config_text(ONE_LAYER_CONFIG)
    files = (
        "shop/api/a.py",
        "shop/api/v1/api/b.py",
        "shop/x/api/c.py",
        "shop/y.py",
        "shop/z/api/e.py",
        "shop/z/api/v2/api/d.py",
    )
    model = ProjectModel(config, ModuleIndex.build(config, ProjectListing(files, ())), {}, (), True)
    # `**` is one segment or more, so shop.api is not matched; shop.z.api.v2.api is inside
    # shop.z.api.
    assert expand(model, "shop.**.api") == ("shop.api.v1.api", "shop.x.api", "shop.z.api")
    assert expand(model, "shop.*") == ("shop.api", "shop.x", "shop.y", "shop.z")
    assert expand(model, "shop.nothing") == ("shop.nothing",)
