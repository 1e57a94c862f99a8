"""A user's first hour with the installed `inwards` (issue 11): what `--version` and `-h`
print, a wrong `--format`, where a finding points for more (a command that works in any
project, or the URL a definition gives), and which family a shipped rule comes from."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from inwards_core.api import installed_families
from inwards_core.reporting.docs_links import DEFAULT_INFORMATION_URI
from inwards_core.version import DISTRIBUTION, VERSION
from tests.e2e.helpers import run_inwards, write_tree

FORMATS = ("text", "concise", "json", "sarif", "github")

PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        'root = "src"\n'
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "application", modules = ["shop.application"] },\n'
        "]\n"
    ),
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "from shop.application.service import place\nimport json\n",
    "src/shop/application/__init__.py": "",
    "src/shop/application/service.py": "def place() -> None: ...\n",
}


def project_rule(code: str, docs: str) -> str:
    """A project rule keeping `json` out of the domain, with `docs` as its guidance's."""
    return (
        f'code = "{code}"\nname = "{code.lower()}"\nsummary = "No json in the domain."\n'
        'check = "inw.forbidden"\n\n[options]\nmodules = ["shop.domain"]\n'
        'forbidden = ["json"]\n\n[guidance]\nsummary = "Keep json out."\nsteps = []\n'
        f'docs = "{docs}"\n'
    )


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "shop", PROJECT)


# -- --version, -h --------------------------------------------------------------------------


def test_version_names_the_tool(tmp_path: Path) -> None:
    done = run_inwards("--version", cwd=tmp_path)
    assert (done.code, done.stdout, done.stderr) == (0, f"inwards {VERSION}\n", "")


@pytest.mark.parametrize(
    "line",
    [["--version", "--verbose"], ["--version", "-v"], ["-v", "--version"], ["-h", "--version"]],
    ids=" ".join,
)
def test_verbose_version_adds_python_and_the_families(line: list[str], tmp_path: Path) -> None:
    if "-h" in line:  # typer's path: the eager --help wins, as with any command
        assert run_inwards(*line, cwd=tmp_path).stdout.startswith("Usage: inwards")
        return
    done = run_inwards(*line, cwd=tmp_path)
    assert done.code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"inwards {VERSION}"
    assert f"distribution: {DISTRIBUTION} {VERSION}" in lines
    python = ".".join(map(str, sys.version_info[:3]))
    assert any(line.startswith(f"python: {python} (") for line in lines)
    assert "families:" in lines
    for family in installed_families():
        assert any(
            line.split() == [family.prefix, family.distribution, family.version, *line.split()[3:]]
            for line in lines
        ), family.prefix


def test_version_through_typer_says_the_same(tmp_path: Path) -> None:
    # With a command after it the line is typer's (the fast path takes a version line
    # alone), and --version still comes first and prints the same.
    fast = run_inwards("--version", "-v", cwd=tmp_path).stdout
    slow = run_inwards("-v", "--version", "rules", cwd=tmp_path)
    assert (slow.code, slow.stdout) == (0, fast)


@pytest.mark.parametrize(
    "command",
    [[], ["check"], ["baseline"], ["status"], ["rules"], ["rules", "new"], ["rule"], ["schema"]],
    ids=lambda c: " ".join(c) or "inwards",
)
def test_h_is_help_everywhere(command: list[str], tmp_path: Path) -> None:
    short = run_inwards(*command, "-h", cwd=tmp_path)
    assert short.code == 0, short.stderr
    assert short.stdout.startswith(f"Usage: inwards {' '.join(command)}".rstrip())
    assert short.stdout == run_inwards(*command, "--help", cwd=tmp_path).stdout
    assert "-h, --help" in short.stdout


# -- --format ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["xml", "JSON", "--format=xml"])
def test_an_unknown_format_is_a_usage_error_listing_the_formats(value: str, shop: Path) -> None:
    line = [value] if value.startswith("--") else ["--format", value]
    done = run_inwards("check", *line, cwd=shop)
    assert done.code == 2 and done.stdout == ""
    shown = value.removeprefix("--format=")
    assert f'"{shown}" is not an output format. Choose one of: {", ".join(FORMATS)}.' in (
        done.stderr
    )
    assert "Value error" not in done.stderr and "Traceback" not in done.stderr


# -- where a finding points ----------------------------------------------------------------


def test_a_core_finding_points_at_a_command_that_works_anywhere(shop: Path) -> None:
    text = run_inwards("check", cwd=shop)
    assert text.code == 1
    assert "  docs: inwards rule INW001\n" in text.stdout
    assert "docs/rules/" not in text.stdout
    document = json.loads(run_inwards("check", "--format", "json", cwd=shop).stdout)
    (finding,) = [d for d in document["diagnostics"] if d["code"] == "INW001"]
    assert finding["docs"] == "inwards rule INW001"
    # What it names is a command, and it prints the rule's page here, offline.
    pointed = run_inwards(*shlex.split(finding["docs"])[1:], cwd=shop)
    assert pointed.code == 0 and pointed.stdout.startswith("# INW001 layer-dependency")
    github = run_inwards("check", "--format", "github", cwd=shop).stdout
    assert "Docs: inwards rule INW001" in github
    sarif = json.loads(run_inwards("check", "--format", "sarif", cwd=shop).stdout)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    # Without INWARDS_DOCS_URL, a shipped rule's help is the distribution's page
    shipped = [r for r in rules if r["id"].startswith(("INW", "FAPI"))]
    assert shipped and {r.get("helpUri") for r in shipped} == {DEFAULT_INFORMATION_URI}
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "INW001"]
    assert result["properties"]["docs"] == "inwards rule INW001"


@pytest.mark.parametrize(
    ("docs", "help_uri"),
    [
        ("https://wiki.example.com/arch/ACME001", True),
        ("docs/architecture/ACME001.md", False),  # a path in the team's repository
        ("", False),
    ],
)
def test_a_project_rule_points_where_its_definition_says(
    docs: str, help_uri: bool, shop: Path
) -> None:
    write_tree(shop, {".inwards/rules/ACME001.toml": project_rule("ACME001", docs)})
    document = json.loads(run_inwards("check", "--format", "json", cwd=shop).stdout)
    (finding,) = [d for d in document["diagnostics"] if d["code"] == "ACME001"]
    assert finding["docs"] == (docs or "inwards rule ACME001")  # as given, or the command
    assert f"  docs: {docs or 'inwards rule ACME001'}\n" in run_inwards("check", cwd=shop).stdout
    sarif = json.loads(run_inwards("check", "--format", "sarif", cwd=shop).stdout)
    (rule,) = [r for r in sarif["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "ACME001"]
    assert rule.get("helpUri") == (docs if help_uri else None)


def _driver(shop: Path, env: dict[str, str] | None = None) -> tuple[dict, str, str]:  # type: ignore[type-arg]
    done = run_inwards("check", "--format", "sarif", cwd=shop, env=env)
    assert done.code == 1, done.stderr
    return json.loads(done.stdout)["runs"][0]["tool"]["driver"], done.stdout, done.stderr


def test_sarif_points_at_inwards_docs_under_one_base_url(shop: Path) -> None:
    """informationUri and every shipped rule's helpUri: the PyPI page by default, the pages
    of the published docs/ folder under INWARDS_DOCS_URL; a team's rule keeps its own."""
    write_tree(
        shop, {".inwards/rules/ACME001.toml": project_rule("ACME001", "https://wiki.example/a")}
    )
    driver, first, _ = _driver(shop)
    assert (
        driver["informationUri"]
        == DEFAULT_INFORMATION_URI
        == ("https://pypi.org/project/inwards-lint/")
    )
    base = "https://docs.example.com/inwards/v1/docs"
    driver, published, stderr = _driver(shop, {"INWARDS_DOCS_URL": base})
    assert stderr == ""
    assert driver["informationUri"] == base + "/"
    pages = {rule["id"]: rule.get("helpUri") for rule in driver["rules"]}
    assert pages.pop("ACME001") == "https://wiki.example/a"
    shipped = {code for code in pages if code.startswith(("INW", "FAPI"))}
    assert {"INW001", "INW010", "FAPI001"} <= shipped
    docs = Path(__file__).resolve().parents[2] / "docs"
    for code in shipped:
        assert pages[code] == f"{base}/rules/{code}.md"
        assert (docs / "rules" / f"{code}.md").is_file(), code  # the page the URL names
    # the same inputs, the same bytes
    assert _driver(shop, {"INWARDS_DOCS_URL": base + "/"})[1] == published
    assert _driver(shop)[1] == first


@pytest.mark.parametrize("value", ["docs/", "ftp://example.com/", "https://a b/", "https://x/?q"])
def test_a_docs_url_sarif_cannot_use_is_a_warning_and_the_default_stays(
    shop: Path, value: str
) -> None:
    driver, _, stderr = _driver(shop, {"INWARDS_DOCS_URL": value})
    assert stderr.startswith("warning: INWARDS_DOCS_URL=")
    assert "is not an http(s) address" in stderr and stderr.count("\n") == 1
    assert driver["informationUri"] == DEFAULT_INFORMATION_URI
    # only SARIF links to the docs: the other formats don't read the variable
    assert run_inwards("check", cwd=shop, env={"INWARDS_DOCS_URL": value}).stderr == ""


# -- which family a shipped rule comes from -------------------------------------------------


def test_rules_name_the_family_of_a_core_rule(shop: Path) -> None:
    table = run_inwards("rules", cwd=shop)
    assert table.code == 0, table.stderr
    rows = {line.split()[0]: line for line in table.stdout.splitlines()[1:]}
    assert "  core (inw)  " in rows["INW001"]
    document = json.loads(run_inwards("rules", "--json", cwd=shop).stdout)
    origins = {rule["code"]: rule["origin"] for rule in document["rules"]}
    assert origins["INW001"]["family"] == "INW"
    assert origins["INW001"]["distribution"] == DISTRIBUTION
    page = run_inwards("rule", "INW005", cwd=shop)
    assert "(core root, family inw)" in page.stdout
    rule_json = json.loads(run_inwards("rule", "INW005", "--json", cwd=shop).stdout)
    assert '"family": "INW"' in json.dumps(rule_json)

    # A project shadow says what it shadows, family included.
    assert run_inwards("rules", "shadow", "INW005", "--to", "project", cwd=shop).code == 0
    rows = {line.split()[0]: line for line in run_inwards("rules", cwd=shop).stdout.splitlines()}
    assert "project, shadows core (inw)" in rows["INW005"]
    shadow = json.loads(run_inwards("rules", "--json", cwd=shop).stdout)
    (row,) = [rule for rule in shadow["rules"] if rule["code"] == "INW005"]
    assert "family" not in row["origin"] and row["shadows"][0]["family"] == "INW"
