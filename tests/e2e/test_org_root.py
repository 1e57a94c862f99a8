"""The organisation root through the installed CLI: the example rule pack installed for real
(tests/rule-packs/inwards-rules-acme), packs built on a path the entry-point reader sees,
and INWARDS_ORG_RULES_DIR, with a real XDG_CONFIG_HOME and project directory."""

from __future__ import annotations

import json
import os
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from tests.distributions import needs_acme
from tests.e2e.helpers import REPO, Run, assert_valid_output, run_inwards, write_tree

DISTRIBUTION = "inwards-rules-acme"
INSTALL = f"pip install ./tests/rule-packs/{DISTRIBUTION}"
SOURCE = REPO / "tests" / "rule-packs" / DISTRIBUTION / "inwards_rules_acme" / "definitions"
CORE = REPO / "inwards_core" / "families" / "inw" / "definitions"

PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "bootstrap", modules = ["shop.bootstrap"] },\n'
        "]\n"
    ),
    "shop/__init__.py": "",
    "shop/bootstrap.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/order.py": "import sqlalchemy\nimport pickle\n",
}


def new_rule(code: str, summary: str, *, default: str = "on") -> str:
    """A rule of the pure-domain kind under a code no family owns, its message `summary`."""
    return (
        f'code = "{code}"\nname = "local-{code.lower()}"\nsummary = "s"\n'
        f'check = "inw.pure-domain"\ndefault = "{default}"\n\n'
        f'[guidance]\nsummary = "{summary}: keep {{library}} out."\n'
    )


def core_with(code: str, key: str, value: str) -> str:
    text = (CORE / f"{code}.toml").read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith(f"{key} = "))
    return text.replace(old, f"{key} = {value}", 1)


class Setup:
    """A project, a user root under XDG_CONFIG_HOME and an INWARDS_ORG_RULES_DIR."""

    def __init__(self, tmp_path: Path) -> None:
        self.project = write_tree(tmp_path / "project", PROJECT)
        self.config_home = tmp_path / "xdg"
        self.user = self.config_home / "inwards" / "rules"
        self.org = tmp_path / "org"
        self.org.mkdir()
        self.env: dict[str, str] = {
            "XDG_CONFIG_HOME": str(self.config_home),
            "INWARDS_ORG_RULES_DIR": str(self.org),
        }

    def write(self, folder: Path, name: str, text: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        return folder / name

    def run(self, *args: str, env: dict[str, str] | None = None) -> Run:
        return run_inwards(*args, cwd=self.project, env={**self.env, **(env or {})})

    def json(self, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
        done = self.run(*args, env=env)
        assert done.code in (0, 1), done.stdout + done.stderr
        document: dict[str, Any] = json.loads(done.stdout)
        assert_valid_output(document)
        return document

    def check(self, *args: str) -> dict[str, Any]:
        return self.json("check", "--format", "json", "--no-cache", *args)


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def diagnostics(document: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [d for d in document["diagnostics"] if d["code"] == code]


def root_row(status: dict[str, Any], root: str) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in status["roots"] if r["root"] == root)
    return row


# -- the example pack, installed for real ------------------------------------------------


@needs_acme
def test_the_installed_copy_is_the_source_tree() -> None:
    files = metadata.distribution(DISTRIBUTION).files or ()
    shipped = {
        f.name: f.read_text()
        for f in files
        if str(f).startswith("inwards_rules_acme/definitions/") and f.name.endswith(".toml")
    }
    source = {p.name: p.read_text(encoding="utf-8") for p in SOURCE.glob("*.toml")}
    assert shipped == source, f"the installed {DISTRIBUTION} is stale: run `{INSTALL}`"


@needs_acme
def test_status_lists_the_pack_with_its_distribution_and_version(setup: Setup) -> None:
    status = setup.json("status", "--json", env={"INWARDS_ORG_RULES_DIR": ""})
    [pack] = [p for p in status["rulePacks"] if p["distribution"] == DISTRIBUTION]
    assert (pack["name"], pack["version"], pack["rules"]) == ("acme", "1.0.0", 2)
    assert pack["location"].endswith(os.path.join("inwards_rules_acme", "definitions"))
    org = root_row(status, "org")
    assert (org["state"], org["shadowing"], org["new"]) == (
        "found",
        {"core": ["FAPI006"]},
        ["ACME100"],
    )
    assert {"code": "FAPI006", "effect": "shadows core"} in [
        {k: d[k] for k in ("code", "effect")} for d in status["orgDefinitions"]
    ]
    text = setup.run("status", env={"INWARDS_ORG_RULES_DIR": ""})
    assert text.code == 0, text.stderr
    assert "inwards-rules-acme 1.0.0 (acme: 2 rules)" in text.stdout
    assert "(from 1 installed rule pack)" in text.stdout


@needs_acme
def test_the_installed_pack_is_inert_until_its_rule_is_selected(setup: Setup) -> None:
    report = setup.check()
    assert diagnostics(report, "ACME100") == []
    setup.write(
        setup.project,
        "pyproject.toml",
        PROJECT["pyproject.toml"]
        + '\n[tool.inwards.rules]\nextend-select = ["ACME100"]\n'
        + '\n[tool.inwards.rules.no-pickle]\nmodules = ["shop"]\n',
    )
    [finding] = diagnostics(setup.check(), "ACME100")
    assert (finding["file"], finding["origin"]) == ("shop/domain/order.py", "org")
    rules = setup.json("rules", "--json")
    row = next(r for r in rules["rules"] if r["code"] == "FAPI006")
    assert row["origin"]["root"] == "org"
    assert (row["origin"]["distribution"], row["origin"]["version"]) == (DISTRIBUTION, "1.0.0")


# -- precedence: project > user > org > core ---------------------------------------------


def test_org_sits_between_core_and_user(setup: Setup) -> None:
    setup.write(setup.org, "INW005.toml", core_with("INW005", "severity", '"warning"'))
    [finding] = diagnostics(setup.check(), "INW005")
    assert (finding["severity"], finding["origin"]) == ("warning", "org")
    for folder, where in ((setup.org, "org"), (setup.user, "user")):
        setup.write(folder, "ACME001.toml", new_rule("ACME001", where))
    [finding] = diagnostics(setup.check(), "ACME001")
    assert (finding["origin"], finding["fix"]["summary"].split(":")[0]) == ("user", "user")
    setup.write(setup.project / ".inwards" / "rules", "ACME001.toml", new_rule("ACME001", "pro"))
    [finding] = diagnostics(setup.check(), "ACME001")
    assert (finding["origin"], finding["fix"]["summary"].split(":")[0]) == ("project", "pro")
    status = setup.json("status", "--json")
    assert root_row(status, "project")["shadowing"] == {"user": ["ACME001"]}
    assert root_row(status, "user")["shadowing"] == {"org": ["ACME001"]}
    assert [r["root"] for r in status["roots"]] == ["core", "org", "user", "project"]


def test_an_org_overlay_and_a_project_overlay_over_it(setup: Setup) -> None:
    setup.write(setup.org, "INW005.toml", 'overlays = "INW005"\nseverity = "warning"\n')
    [finding] = diagnostics(setup.check(), "INW005")
    assert (finding["severity"], finding["origin"]) == ("warning", "org")
    setup.write(
        setup.project / ".inwards" / "rules",
        "INW005.toml",
        'overlays = "INW005"\n\n[guidance]\nsummary = "Ours: no {library} here."\n',
    )
    [finding] = diagnostics(setup.check(), "INW005")
    assert (finding["severity"], finding["origin"]) == ("warning", "project")  # org's level
    assert finding["fix"]["summary"] == "Ours: no sqlalchemy here."
    rules = setup.json("rules", "--json")
    row = next(r for r in rules["rules"] if r["code"] == "INW005")
    assert [link["root"] for link in row["overlayChain"]] == ["core", "org", "project"]


def test_origin_org_in_json_sarif_and_text(setup: Setup) -> None:
    setup.write(setup.org, "ACME002.toml", new_rule("ACME002", "Org rule"))
    [finding] = diagnostics(setup.check(), "ACME002")
    assert finding["origin"] == "org"
    sarif = json.loads(setup.run("check", "--format", "sarif", "--no-cache").stdout)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "ACME002"]
    assert result["properties"]["origin"] == "org"
    [rule] = [r for r in sarif["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "ACME002"]
    assert rule["properties"]["definition"]["root"] == "org"
    text = setup.run("check", "--no-cache")
    assert "ACME002 [org rule] Layer" in text.stdout, text.stdout
    assert "fix: Org rule: keep sqlalchemy out." in text.stdout


def test_the_env_directory_must_be_absolute(setup: Setup) -> None:
    setup.write(setup.org, "ACME002.toml", new_rule("ACME002", "Org rule"))
    done = setup.run("check", "--no-cache", env={"INWARDS_ORG_RULES_DIR": "org"})
    assert 'INWARDS_ORG_RULES_DIR="org" is a relative path; it is ignored' in done.stderr
    assert "ACME002" not in done.stdout


def test_a_broken_org_definition_warns_and_the_lower_one_stays(setup: Setup) -> None:
    setup.write(setup.org, "INW005.toml", core_with("INW005", "severity", '"fatal"'))
    done = setup.run("check", "--no-cache", "--format", "json")
    assert done.code == 1, done.stderr  # INW005 as shipped: an error, not a config error
    assert "INW005.toml" in done.stderr and "(this org definition is not used)" in done.stderr
    [finding] = diagnostics(json.loads(done.stdout), "INW005")
    assert (finding["severity"], finding["origin"]) == ("error", "core")
    status = setup.run("status")
    assert status.code == 0, status.stderr
    [line] = [line for line in status.stdout.splitlines() if "INW005.toml" in line]
    assert line.lstrip().startswith("org") and line.endswith(
        "(warning: the lower definition stays in force)"
    )


def test_shadowing_an_org_definition_records_the_pack(
    setup: Setup, tmp_path_factory: pytest.TempPathFactory
) -> None:
    site = tmp_path_factory.mktemp("site")
    make_pack(site, {"INW005.toml": core_with("INW005", "severity", '"warning"')})
    env = {"PYTHONPATH": on_path(site), "INWARDS_ORG_RULES_DIR": ""}
    for to, folder in (("user", setup.user), ("project", setup.project / ".inwards" / "rules")):
        done = setup.run("rules", "shadow", "INW005", "--to", to, env=env)
        assert done.code == 0, done.stderr
        text = (folder / "INW005.toml").read_text(encoding="utf-8")
        shadow = tomllib.loads(text)["shadow"]
        assert (shadow["root"], shadow["distribution"], shadow["version"]) == (
            "org",
            "acme-trap",
            "0.1",
        )
        assert 'severity = "warning"' in text  # the org definition's text, copied
        (folder / "INW005.toml").unlink()  # the project copy is made from the org one too


# -- packs built in the test: never imported, one code in two packs ---------------------

TRAP = "import sys\nsys.stderr.write('IMPORTED\\n')\nraise SystemExit(7)\n"


def make_pack(site: Path, files: dict[str, str], package: str = "acme_trap") -> None:
    """A data-only pack on a path the entry-point reader sees; importing it would exit 7."""
    distribution = package.replace("_", "-")
    write_tree(
        site,
        {
            f"{package}/__init__.py": TRAP,
            **{f"{package}/definitions/{name}": text for name, text in files.items()},
            f"{package}-0.1.dist-info/METADATA": (
                f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n"
            ),
            f"{package}-0.1.dist-info/entry_points.txt": (
                f"[inwards.rule_packs]\n{package} = {package}.definitions\n"
            ),
        },
    )


def on_path(folder: Path) -> str:
    return os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH", "")]))


def test_a_pack_is_read_and_never_imported(
    setup: Setup, tmp_path_factory: pytest.TempPathFactory
) -> None:
    site = tmp_path_factory.mktemp("site")
    make_pack(site, {"ACME003.toml": new_rule("ACME003", "Trap rule")})
    env = {"PYTHONPATH": on_path(site)}
    for command in (("check", "--no-cache"), ("status",), ("rules",)):
        done = setup.run(*command, env=env)
        assert "IMPORTED" not in done.stderr and done.code != 7, done.stderr
        assert "ACME003" in done.stdout, done.stdout
    status = setup.json("status", "--json", env=env)
    assert {"name": "acme_trap", "distribution": "acme-trap", "version": "0.1"} in [
        {k: p[k] for k in ("name", "distribution", "version")} for p in status["rulePacks"]
    ]


def test_one_code_in_two_packs_is_void_in_both_naming_both(
    setup: Setup, tmp_path_factory: pytest.TempPathFactory
) -> None:
    site = tmp_path_factory.mktemp("site")
    for package in ("acme_one", "acme_two"):
        make_pack(site, {"ACME004.toml": new_rule("ACME004", package)}, package)
    done = setup.run("check", "--no-cache", env={"PYTHONPATH": on_path(site)})
    assert done.code == 1, done.stderr  # INW005's error; the void rule only warns
    assert "ACME004 is defined twice in the org root" in done.stderr
    assert "acme_one" in done.stderr and "acme_two" in done.stderr
    assert "ACME004" not in done.stdout
