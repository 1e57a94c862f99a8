"""INW005's `deny` option: libraries kept out of modules whatever their layer."""

from __future__ import annotations

import pytest

from inwards_core import ConfigError, Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules
from inwards_core.families.inw.layering.inw005_pure_domain import DenyEntry, PureDomainOptions
from inwards_core.rules.options import OptionsError, options_to_data, parse_options

RULES = load_rules(installed_families())
LAYERS = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"], allow-libraries = ["requests"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""


def _findings(files: dict[str, str], deny: str, extra: str = "") -> list[Finding]:
    config = load_config_text(f"{LAYERS}\n[tool.inwards.rules.pure-domain]\n{extra}deny = {deny}\n")
    report = check(config, InMemoryProjectFiles(files), rule_set=RULES)
    return [f for f in report.findings if f.code == "INW005"]


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(f.file, f.span.line, f.message) for f in findings]


def test_deny_wins_over_a_layers_allowlist_and_reaches_modules_outside_the_layers() -> None:
    files = {
        "shop/application/reports/make.py": "import requests\nimport json\nimport csv\n",
        "shop/application/orders.py": "import requests\n",
        "shop/scripts/run.py": "import requests.adapters\n",
        "shop/domain/x.py": "",
    }
    deny = (
        '[{ modules = ["shop.application.reports", "shop.scripts"], libraries = ["requests"] },'
        ' { modules = ["shop.*.reports"], libraries = ["json"] }]'
    )
    assert _where(_findings(files, deny)) == [
        (
            "shop/application/reports/make.py",
            1,
            '"shop.application.reports.make" imports "requests" from the third-party library '
            '"requests", which the rule\'s `deny` keeps out of "shop.application.reports".',
        ),
        (
            "shop/application/reports/make.py",
            2,
            '"shop.application.reports.make" imports "json" from the stdlib library "json", '
            'which the rule\'s `deny` keeps out of "shop.*.reports".',
        ),
        (
            "shop/scripts/run.py",
            1,
            '"shop.scripts.run" imports "requests.adapters" from the third-party library '
            '"requests", which the rule\'s `deny` keeps out of "shop.scripts".',
        ),
    ]


def test_the_longest_library_entry_decides_and_one_import_is_one_finding() -> None:
    files = {"shop/domain/mail.py": "import http.client\nfrom socket import socket\n"}
    deny = '[{ modules = ["shop.domain"], libraries = ["http", "http.client"] }]'
    found = _findings(files, deny)
    assert [(f.span.line, f.fix.summary) for f in found] == [
        (1, 'Keep "http.client" out of "shop.domain": use it elsewhere, behind a port that '
         "`shop.domain.mail` owns."),
        (2, 'Use "socket" in a layer that may ("application", "infrastructure"), behind a port '
         'that "domain" owns.'),
    ]  # fmt: skip


def test_readable_dynamic_imports_count_and_first_party_code_never_does() -> None:
    files = {
        "shop/infrastructure/boot.py": (
            "import importlib\nimportlib.import_module('yaml')\nimport shop.requests\n"
        ),
        "shop/requests.py": "",
    }
    found = _findings(files, '[{ modules = ["shop.infrastructure"], libraries = ["yaml"] }]')
    assert [(f.span.line, f.message.split(" from ")[0]) for f in found] == [
        (2, '"shop.infrastructure.boot" imports "yaml"')
    ]


def test_the_rules_modules_option_still_scopes_it() -> None:
    files = {"shop/scripts/run.py": "import requests\n", "shop/tools/run.py": "import requests\n"}
    deny = '[{ modules = ["shop"], libraries = ["requests"] }]'
    found = _findings(files, deny, extra='modules = ["shop.tools"]\n')
    assert [f.file for f in found] == ["shop/tools/run.py"]


@pytest.mark.parametrize(
    ("deny", "key", "message"),
    [
        ('[{ modules = [], libraries = ["x"] }]', "deny[0].modules", "at least one module"),
        ('[{ libraries = ["x"] }]', "deny[0]", "has no `modules`: this key is required"),
        ('[{ modules = ["shop"] }]', "deny[0]", "has no `libraries`"),
        ('[{ modules = ["shop"], libraries = [] }]', "deny[0].libraries", "at least one"),
        (
            '[{ modules = ["shop"], libraries = ["b"], other = 1 }]',
            "deny[0].other",
            "is not a key. Known keys: libraries, modules.",
        ),
        ('["shop"]', "deny[0]", "must be a table, not a string"),
        ('{ modules = ["shop"] }', "deny", "must be a list of tables, not a table"),
        ('[{ modules = ["*.x"], libraries = ["b"] }]', "deny[0].modules", "literal top-level"),
        (
            '[{ modules = ["shop"], libraries = ["python-dateutil"] }]',
            "deny[0].libraries",
            '"python-dateutil" is not an import name',
        ),
        ('[{ modules = ["shop"], libraries = [3] }]', "deny[0].libraries[0]", "not an integer"),
        (
            '[{ modules = ["shop"], libraries = ["b"] }, { modules = ["shop.a.b-c"] }]',
            "deny[1].modules",
            "",
        ),
    ],
)
def test_a_bad_deny_is_a_config_error_naming_line_and_key(
    deny: str, key: str, message: str
) -> None:
    text = f"{LAYERS}\n[tool.inwards.rules.pure-domain]\ndeny = {deny}\n"
    with pytest.raises(ConfigError) as caught:
        config = load_config_text(text)
        check(config, InMemoryProjectFiles({}), rule_set=RULES)
    (problem,) = caught.value.problems
    assert problem.key == f"tool.inwards.rules.pure-domain.{key}", problem.render()
    assert message in problem.message
    assert problem.line == 9, problem.render()


def test_options_round_trip_as_toml_data() -> None:
    table = {"deny": [{"modules": ["shop.a"], "libraries": ["yaml"]}]}
    options = parse_options(PureDomainOptions, table, "options")
    assert options.deny == (DenyEntry(modules=("shop.a",), libraries=("yaml",)),)
    assert options_to_data(options) == {"modules": [], **table}
    with pytest.raises(OptionsError, match=r"options\.deny\[0\]\.modules"):
        parse_options(PureDomainOptions, {"deny": [{"modules": 1, "libraries": []}]}, "options")
