"""A third-party family, installed for real, works exactly like INW.

`inwards-rules-tidy` (tests/families/inwards-rules-tidy) is its own distribution with an
entry point in the `inwards` group; `.ci/run` installs it (non-editable) next to inwards.
These tests find it only through that installation: the entry point, the package data,
the installed `inwards` command. Without it they skip and say how to install it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.e2e.helpers import REPO, Run, run_inwards, write_tree

DISTRIBUTION = "inwards-rules-tidy"
SOURCE = Path(__file__).resolve().parent / DISTRIBUTION
INSTALL = f"pip install ./tests/families/{DISTRIBUTION}"

try:
    INSTALLED = metadata.distribution(DISTRIBUTION)
except metadata.PackageNotFoundError:
    pytest.skip(
        f"{DISTRIBUTION} is not installed: run `{INSTALL}` (bash .ci/run does)",
        allow_module_level=True,
    )

import inwards_rules_tidy  # noqa: E402

from inwards_core import (  # noqa: E402
    Family,
    FamilyLoadError,
    RootKind,
    RuleSet,
    Severity,
    check,
    example_problems,
    hookimpl,
    installed_families,
    load_config_text,
    load_rules,
)
from inwards_core.adapters.in_memory import InMemoryProjectFiles  # noqa: E402
from inwards_core.adapters.packaged_rules import packaged_documents  # noqa: E402
from inwards_core.ports import RootReport, RuleDocument, RuleSources  # noqa: E402

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
]
"""
FANOUT = """
[tool.inwards.rules]
extend-select = ["TIDY002"]

[tool.inwards.rules.import-fanout]
max-modules = 2
"""
SHOP = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "from shop.domain.money import *\n",  # allowed in __init__
    "shop/domain/money.py": "class Money: ...\n",
    "shop/domain/order.py": "from shop.domain.money import *\n",
    "shop/domain/stock.py": "class Stock: ...\n",
    "shop/application/__init__.py": "",
    "shop/application/checkout.py": (
        "from shop.domain.money import Money\n"
        "from shop.domain.order import *\n"
        "import shop.domain.stock\n"
    ),
}


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return write_tree(tmp_path, {"pyproject.toml": PYPROJECT + FANOUT, **SHOP})


def rows(run: Run) -> dict[str, list[str]]:
    """`inwards rules` as {code: [name, state, severity, origin, ...]} (cells are two or
    more spaces apart; an origin such as "core (tidy)" holds one)."""
    assert run.code == 0, run.stderr
    found: dict[str, list[str]] = {}
    for line in run.stdout.splitlines()[1:]:
        code, *rest = re.split(r" {2,}", line.strip())
        found[code] = rest
    return found


def diagnostics(run: Run) -> list[dict[str, Any]]:
    document = json.loads(run.stdout)
    assert isinstance(document, dict)
    found = document["diagnostics"]
    assert isinstance(found, list)
    return found


# -- found through the real entry point, installed as a wheel -----------------------------


def test_the_entry_point_is_declared_by_the_distribution() -> None:
    assert INSTALLED.version == "0.3.0"
    points = [p for p in INSTALLED.entry_points if p.group == "inwards"]
    assert [(p.name, p.value) for p in points] == [("tidy", "inwards_rules_tidy.plugin")]


def test_installed_families_finds_tidy_through_its_entry_point() -> None:
    from inwards_core import PluginHost
    from inwards_core.adapters.entry_points import entry_points

    by_prefix = {family.prefix: family for family in installed_families()}
    assert {"INW", "TIDY"} <= set(by_prefix)
    tidy = by_prefix["TIDY"]
    assert (tidy.distribution, tidy.version) == ("inwards-rules-tidy", "0.3.0")
    assert tidy.definitions == "inwards_rules_tidy.definitions"
    # Entry points are read without importlib.metadata; they must be the ones it sees.
    points = entry_points()
    assert ("tidy", "inwards_rules_tidy.plugin", "0.3.0") in {
        (p.name, p.target, p.version) for p in points
    }
    host = PluginHost.create(entry_points=points)
    assert host.plugin_distributions()["tidy"] == "inwards-rules-tidy 0.3.0"


def test_tidy_given_as_a_plugin_and_installed_is_one_family() -> None:
    from inwards_rules_tidy import plugin

    prefixes = [family.prefix for family in installed_families(plugins=[plugin])]
    assert prefixes.count("TIDY") == 1


def test_installed_as_a_wheel_with_its_definitions_as_package_data() -> None:
    package = Path(inwards_rules_tidy.__file__).resolve().parent
    assert not package.is_relative_to(SOURCE), (
        f"inwards_rules_tidy is imported from its source tree ({package}), not installed"
    )
    recorded = {str(path) for path in INSTALLED.files or ()}
    for code in ("TIDY001", "TIDY002"):
        assert f"inwards_rules_tidy/definitions/{code}.toml" in recorded
    shipped = sorted(
        entry.name
        for entry in resources.files("inwards_rules_tidy.definitions").iterdir()
        if entry.name.endswith(".toml")
    )
    assert shipped == ["TIDY001.toml", "TIDY002.toml"]


def _package_files(root: Path) -> Iterator[tuple[str, bytes]]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".toml", ".typed"):
            yield path.relative_to(root).as_posix(), path.read_bytes()


def test_the_installed_copy_is_the_source_tree() -> None:
    """A non-editable install goes stale when the source changes: say how to refresh it."""
    installed = dict(_package_files(Path(inwards_rules_tidy.__file__).resolve().parent))
    source = dict(_package_files(SOURCE / "inwards_rules_tidy"))
    stale = sorted(
        name for name in installed.keys() | source.keys() if installed.get(name) != source.get(name)
    )
    assert stale == [], f"the installed {DISTRIBUTION} is stale ({stale}): run `{INSTALL}`"


# -- rules, check, examples: like INW ----------------------------------------------------


def test_rules_lists_tidy_rules_from_the_core_root(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT, "shop/domain/a.py": ""})
    table = rows(run_inwards("rules", cwd=tmp_path))
    assert table["TIDY001"][:5] == ["star-import", "on", "warning", "core (tidy)", "default"]
    assert table["TIDY002"][:5] == ["import-fanout", "off", "warning", "core (tidy)", "opt-in"]
    assert table["INW001"][:4] == ["layer-dependency", "on", "error", "core (inw)"]

    write_tree(tmp_path, {"pyproject.toml": PYPROJECT + FANOUT})
    table = rows(run_inwards("rules", cwd=tmp_path))
    assert table["TIDY002"][:5] == [
        "import-fanout",
        "on",
        "warning",
        "core (tidy)",
        "rules.extend-select",
    ]


def test_check_reports_tidy_findings_with_their_core_origin(shop: Path) -> None:
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=shop)
    assert run.code == 0, run.stdout + run.stderr  # warnings only
    found = [
        (d["code"], d["rule"], d["severity"], d["origin"], d["file"], d["line"], d["column"])
        for d in diagnostics(run)
    ]
    assert found == [
        ("TIDY001", "star-import", "warning", "core", "shop/application/checkout.py", 2, 31),
        ("TIDY002", "import-fanout", "warning", "core", "shop/application/checkout.py", 3, 8),
        ("TIDY001", "star-import", "warning", "core", "shop/domain/order.py", 1, 31),
    ]
    fanout = diagnostics(run)[1]
    assert fanout["message"] == (
        '"shop.application.checkout" imports 3 distinct first-party modules. '
        "The limit is 2; this import is number 3."
    )
    assert fanout["docs"] == "tests/families/inwards-rules-tidy/docs/TIDY002.md"

    text = run_inwards("check", "--no-cache", cwd=shop)
    assert text.code == 0
    assert (
        "shop/domain/order.py:1:31: TIDY001 (warning) Star import from "
        '"shop.domain.money": which of its names this module uses can\'t be seen here.'
    ) in text.stdout
    assert "[core rule]" not in text.stdout and "[project rule]" not in text.stdout
    assert "fix: Import the names this module uses from `shop.domain.money` by name." in (
        text.stdout
    )


def test_project_settings_apply_to_tidy_rules(shop: Path) -> None:
    config = (
        PYPROJECT
        + '\n[tool.inwards.rules]\nignore = ["TIDY002"]\nseverity = { TIDY001 = "error" }\n'
    )
    write_tree(shop, {"pyproject.toml": config})
    run = run_inwards("check", "--no-cache", "--format", "json", "shop/domain", cwd=shop)
    assert run.code == 1, run.stdout + run.stderr
    assert [(d["code"], d["severity"], d["line"]) for d in diagnostics(run)] == [
        ("TIDY001", "error", 1)
    ]


def test_tidy_judges_layered_code_even_when_another_rule_reads_more(shop: Path) -> None:
    """A project rule on the generic kind inw.forbidden has `tools` read too; TIDY's
    findings must not depend on that."""
    write_tree(
        shop,
        {
            "tools/gen.py": "from os import *\nimport shop.domain.money, shop.domain.order\n",
            ".inwards/rules/ACME001.toml": (
                'code = "ACME001"\nname = "tools-no-http"\nsummary = "Tools stay offline."\n'
                'check = "inw.forbidden"\n\n[options]\nmodules = ["tools"]\n'
                'forbidden = ["requests"]\n'
            ),
        },
    )
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=shop)
    assert run.code == 0, run.stdout + run.stderr
    files = {(d["code"], d["file"]) for d in diagnostics(run)}
    assert ("INW006", "tools/gen.py") in files  # proof that tools/gen.py was read
    assert {f for code, f in files if code.startswith("TIDY")} == {
        "shop/application/checkout.py",
        "shop/domain/order.py",
    }


def test_bad_tidy_options_stop_the_run_naming_file_line_and_key(shop: Path) -> None:
    write_tree(
        shop,
        {"pyproject.toml": PYPROJECT + "\n[tool.inwards.rules.import-fanout]\nmax-modules = 0\n"},
    )
    for command in (("check",), ("rules",)):
        run = run_inwards(*command, cwd=shop)
        assert run.code == 2 and run.stdout == ""
        assert (
            "pyproject.toml:8:1: tool.inwards.rules.import-fanout.max-modules: "
            "must be at least 1, not 0."
        ) in run.stderr


def test_examples_pass_with_every_installed_family() -> None:
    """The examples hold with INW's rules on too (the main suite's rule examples run them)."""
    rule_set: RuleSet = load_rules(installed_families())
    examples = [e for kind in inwards_rules_tidy.family().kinds for e in kind.examples()]
    assert len(examples) >= 4
    for example in examples:
        assert example_problems(example, rule_set) == [], example.title


# -- shadowing, like INW's ---------------------------------------------------------------


@attrs.frozen
class _WithProjectRoot(RuleSources):
    """The installed families' core root plus project definitions given as text."""

    families: Sequence[Family]
    project: dict[str, str]

    def documents(self) -> Sequence[RuleDocument]:
        extra = tuple(
            RuleDocument(RootKind.PROJECT, f".inwards/rules/{name}", text.encode())
            for name, text in sorted(self.project.items())
        )
        return packaged_documents(self.families) + extra

    def roots(self) -> Sequence[RootReport]:
        return ()


def _core_text(code: str) -> str:
    folder = "inwards_rules_tidy" if code.startswith("TIDY") else "inwards_core/families/inw"
    package = folder.replace("/", ".") + ".definitions"
    return (resources.files(package) / f"{code}.toml").read_text(encoding="utf-8")


def _shadow(code: str) -> str:
    """The core definition made an error, with a guidance summary of our own."""
    text = re.sub(r'(?m)^severity = "\w+"$', 'severity = "error"', _core_text(code))
    head, guidance = text.split("\n[guidance]\n")
    guidance = re.sub(r"(?m)^summary = .*$", 'summary = "Ours: {module}."', guidance, count=1)
    return f"{head}\n[guidance]\n{guidance}"


def test_tidy_and_inw_core_definitions_are_shadowed_alike() -> None:
    families = installed_families()
    sources = _WithProjectRoot(
        families, {"TIDY001.toml": _shadow("TIDY001"), "INW001.toml": _shadow("INW001")}
    )
    rule_set = load_rules(families, sources)
    assert rule_set.errors == ()
    for code, distribution in (("TIDY001", "inwards-rules-tidy"), ("INW001", "inwards-lint")):
        rule = rule_set.by_code(code)
        assert rule is not None
        assert rule.definition.origin.root is RootKind.PROJECT
        assert rule.definition.origin.path == f".inwards/rules/{code}.toml"
        assert rule.definition.severity is Severity.ERROR
        (below,) = rule.shadowed
        assert below.origin.root is RootKind.CORE
        assert below.family == distribution

    files = {
        "pyproject.toml": PYPROJECT,
        "shop/domain/a.py": "from os import *\nimport shop.application.b\n",
        "shop/application/b.py": "",
    }
    report = check(load_config_text(PYPROJECT), InMemoryProjectFiles(files), rule_set=rule_set)
    found = [(f.code, f.severity, f.origin, f.fix.summary) for f in report.findings]
    assert ("TIDY001", Severity.ERROR, RootKind.PROJECT, "Ours: shop.domain.a.") in found
    assert ("INW001", Severity.ERROR, RootKind.PROJECT, "Ours: shop.domain.a.") in found


def test_a_half_collision_or_a_new_rule_in_the_tidy_prefix_is_refused() -> None:
    families = installed_families()
    renamed = _core_text("TIDY001").replace('name = "star-import"', 'name = "no-stars"')
    squatter = (
        _core_text("TIDY001")
        .replace("TIDY001", "TIDY003")
        .replace('"star-import"', '"stars-again"')
    )
    rule_set = load_rules(
        families, _WithProjectRoot(families, {"TIDY001.toml": renamed, "TIDY003.toml": squatter})
    )
    half, squat = sorted(problem.render() for problem in rule_set.errors)
    # Each names both files (or the family), the key, and both names.
    assert half.startswith(".inwards/rules/TIDY001.toml:4: name: ")
    assert "inwards_rules_tidy/definitions/TIDY001.toml" in half
    assert '"no-stars"' in half and '"star-import"' in half
    assert squat.startswith(".inwards/rules/TIDY003.toml:3: code: ")
    assert "inwards-rules-tidy 0.3.0" in squat
    rule = rule_set.by_code("TIDY001")
    assert rule is not None and rule.definition.origin.root is RootKind.CORE  # the core stays
    assert rule_set.by_code("TIDY003") is None


@pytest.mark.parametrize(
    ("code", "distribution"), [("TIDY001", "inwards-rules-tidy"), ("INW001", "inwards-lint")]
)
def test_shadowing_through_the_cli_works_alike(shop: Path, code: str, distribution: str) -> None:
    """The whole workflow, for a TIDY rule and for an INW rule: copy, edit, see it in
    force in `rules`, `status` and `check`, and see it go stale."""
    write_tree(
        shop,
        {
            "pyproject.toml": PYPROJECT,
            "shop/domain/order.py": "from shop.domain.money import *\nimport shop.application\n",
        },
    )
    made = run_inwards("rules", "shadow", code, "--to", "project", cwd=shop)
    assert made.code == 0, made.stderr
    copy = shop / ".inwards" / "rules" / f"{code}.toml"
    assert made.stdout.strip() == str(copy)
    copied = copy.read_text(encoding="utf-8")
    # A header saying what the copy is, the core definition's text after its own header,
    # then [shadow] recording its base.
    assert copied.startswith(f"# Shadow copy of {code}, made by `inwards rules shadow")
    assert f"core definition shipped with {distribution} " in copied.split("\ncode =")[0]
    assert "Core definition of" not in copied
    body = _core_text(code).split('code = "', 1)[1]
    assert f'code = "{body}' in copied
    assert f'distribution = "{distribution}"' in copied.split(body)[1]
    copy.write_text(_shadow(code), encoding="utf-8")

    (entry,) = [
        r
        for r in json.loads(run_inwards("rules", "--json", cwd=shop).stdout)["rules"]
        if r["code"] == code
    ]
    assert entry["origin"]["root"] == "project"
    assert entry["severity"] == "error"
    assert [(s["root"], s["distribution"]) for s in entry["shadows"]] == [("core", distribution)]

    status = json.loads(run_inwards("status", "--json", cwd=shop).stdout)
    (project,) = [root for root in status["roots"] if root["root"] == "project"]
    assert project["shadowing"] == {"core": [code]}

    run = run_inwards("check", "--no-cache", "--format", "json", cwd=shop)
    assert run.code == 1, run.stdout + run.stderr
    mine = [d for d in diagnostics(run) if d["code"] == code]
    assert mine and all(d["origin"] == "project" and d["severity"] == "error" for d in mine)
    assert all(d["fix"]["summary"] == f"Ours: {d['module']}." for d in mine)
    text = run_inwards("check", "--no-cache", cwd=shop)
    assert "shop/domain/order.py:" in text.stdout and f"{code} [project rule]" in text.stdout

    # The base moves on (as after an upgrade of the family): the shadow is stale.
    based = re.sub(r'(?m)^sha256 = "\w+"$', f'sha256 = "{"0" * 64}"', copied)
    copy.write_text(based, encoding="utf-8")
    (entry,) = [
        r
        for r in json.loads(run_inwards("rules", "--json", cwd=shop).stdout)["rules"]
        if r["code"] == code
    ]
    assert entry["stale"] and distribution in entry["stale"]


def test_status_names_the_tidy_family(shop: Path) -> None:
    run = run_inwards("status", "--json", cwd=shop)
    assert run.code == 0, run.stderr
    families = {f["prefix"]: f for f in json.loads(run.stdout)["families"]}
    assert families["TIDY"] == {
        "prefix": "TIDY",
        "distribution": "inwards-rules-tidy",
        "version": "0.3.0",
        "kinds": 2,
        "rules": 2,
    }
    (core,) = [r for r in json.loads(run.stdout)["roots"] if r["root"] == "core"]
    assert {"TIDY001", "TIDY002"} <= set(core["new"])
    plain = run_inwards("status", cwd=shop).stdout
    assert "inwards-rules-tidy 0.3.0 (TIDY: 2 rules)" in plain


# -- two families claiming one prefix: a load error naming both ---------------------------


class _Clone:
    """A plugin that claims the TIDY prefix too."""

    @hookimpl
    def inwards_register_rule_families(self) -> Sequence[Family]:
        return [Family("TIDY", (), "acme_tidy_clone", "acme-tidy-clone", "1.0")]


def test_a_second_family_claiming_tidy_is_a_load_error_naming_both() -> None:
    with pytest.raises(FamilyLoadError) as caught:
        installed_families(plugins=[_Clone()])
    message = str(caught.value)
    assert '"TIDY"' in message
    assert "inwards-rules-tidy 0.3.0" in message and "acme-tidy-clone 1.0" in message


CLONE_PLUGIN = """\
from inwards_core import Family, hookimpl

@hookimpl
def inwards_register_rule_families():
    return [Family("TIDY", (), "acme_tidy_clone", "acme-tidy-clone", "1.0")]
"""


def _on_path(folder: Path) -> str:
    return os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH", "")]))


def test_the_cli_refuses_two_families_claiming_tidy(
    shop: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Another distribution on the path with an entry point claiming TIDY."""
    site = tmp_path_factory.mktemp("site")
    write_tree(
        site,
        {
            "acme_tidy_clone.py": CLONE_PLUGIN,
            "acme_tidy_clone-1.0.dist-info/METADATA": (
                "Metadata-Version: 2.1\nName: acme-tidy-clone\nVersion: 1.0\n"
            ),
            "acme_tidy_clone-1.0.dist-info/entry_points.txt": "[inwards]\nclone = acme_tidy_clone\n",
        },
    )
    for command in (("check",), ("rules",), ("status",)):
        run = run_inwards(*command, cwd=shop, env={"PYTHONPATH": _on_path(site)})
        assert run.code == 2, run.stdout + run.stderr
        assert run.stdout == ""
        assert '"TIDY"' in run.stderr
        assert "inwards-rules-tidy 0.3.0" in run.stderr and "acme-tidy-clone 1.0" in run.stderr


def test_the_family_is_mypy_strict_clean() -> None:
    """The main mypy run covers inwards_core and inwards_cli; the family's source is held
    to the same configuration here (its own package, found through MYPYPATH)."""
    mypy = Path(sys.executable).parent / "mypy"
    if not mypy.exists():
        pytest.fail("mypy is not installed: pip install -e '.[test]'")
    done = subprocess.run(
        [str(mypy), "-p", "inwards_rules_tidy"],
        cwd=REPO,
        env={**os.environ, "MYPYPATH": str(SOURCE)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 source files" in done.stdout  # the source tree's modules, not the installed ones
