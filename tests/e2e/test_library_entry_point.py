"""`inwards_core.check_path` checks a directory as the installed `inwards check` does: same
configuration, rule roots, baseline and cache, and `report.to_json()` equal to the CLI's
`--format json` document (durations masked)."""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import inwards_core
from inwards_core.adapters.entry_points import EntryPoint
from inwards_core.rules.scaffold import TEXT_PLACEHOLDERS
from inwards_core.session import COMPOSITION_GROUP, directory_opener
from tests.e2e.helpers import NO_USER_CONFIG, run_inwards, write_tree

LAYERS = """
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""

SHOP = {
    "pyproject.toml": LAYERS,
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "import requests\nfrom shop.adapters import db\n",
    "src/shop/domain/price.py": "from shop.adapters.db import Table\n",
    "src/shop/adapters/__init__.py": "",
    "src/shop/adapters/db.py": "class Table: ...\n",
}


@pytest.fixture(autouse=True)
def hermetic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library reads the same environment as the CLI the helpers run."""
    for name in list(os.environ):
        if name.startswith("INWARDS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(NO_USER_CONFIG))


def masked(document: dict[str, Any]) -> dict[str, Any]:
    document["summary"]["durationMs"] = 0
    return document


def cli_json(project: Path, *args: str) -> dict[str, Any]:
    run = run_inwards("check", "--format", "json", *args, cwd=project)
    assert run.code in (0, 1), run.stderr
    return masked(json.loads(run.stdout))


def library_json(project: Path, **options: Any) -> dict[str, Any]:
    return masked(inwards_core.check_path(project, **options).to_json())


@pytest.mark.parametrize("example", ["shop", "shop-violations"])
def test_the_examples_give_the_cli_document(copy_example, example: str) -> None:  # type: ignore[no-untyped-def]
    project = copy_example(example)
    cold = library_json(project)  # a cold cache, then a warm one after the CLI
    assert cold == cli_json(project)
    assert library_json(project) == cold
    assert cold["diagnostics"] or example == "shop"


def test_paths_are_relative_to_the_directory(copy_example) -> None:  # type: ignore[no-untyped-def]
    project = copy_example("shop-violations")
    named = ["src/shop/domain", "src/shop/adapters/inbound/http.py"]
    document = library_json(project, paths=named)
    assert document == cli_json(project, *named)
    assert {d["file"] for d in document["diagnostics"]} >= {named[1]}
    from_src = [Path("shop/domain"), "shop/adapters/inbound/http.py"]
    assert library_json(project / "src", paths=from_src) == document


def test_the_document_is_the_same_from_any_working_directory(
    copy_example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Paths stay relative to the project whatever directory the caller stands in and
    however it names the project: from a sibling folder, from below the project, through a
    link; equal to what `inwards check --format json` prints in the project directory."""
    project = copy_example("shop-violations")
    (project / "README.md").write_text("not Python\n", encoding="utf-8")
    assert run_inwards("baseline", cwd=project).code == 0
    (project / "src" / "shop" / "domain" / "late.py").write_text(
        "from shop.adapters.outbound import sql_orders\n", encoding="utf-8"
    )
    expected = cli_json(project)
    assert {d["file"] for d in expected["diagnostics"]} >= {"src/shop/domain/late.py"}
    named = ["README.md", "src/shop/domain"]
    expected_named = cli_json(project, *named)
    assert expected_named["notChecked"][0]["path"] == "README.md"
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)
    (tmp_path / "link").symlink_to(project)
    # (where the caller stands, the project as it names it)
    places = [
        (elsewhere, os.path.relpath(project, elsewhere)),
        (project / "src" / "shop", "../.."),
        (tmp_path, "link"),
    ]
    for cwd, directory in places:
        monkeypatch.chdir(cwd)
        assert library_json(Path(directory)) == expected, (cwd, directory)
        # named paths are relative to the directory named, not to the caller
        assert library_json(directory, paths=named) == expected_named, (cwd, directory)
    monkeypatch.chdir(project / "src")
    assert library_json(".") == expected  # the configuration is found above the directory
    monkeypatch.chdir(elsewhere)
    with inwards_core.Session.open(os.path.relpath(project, elsewhere)) as session:
        monkeypatch.chdir(tmp_path)  # the caller moves on; the session keeps its project
        assert masked(session.check().to_json()) == expected


def test_a_project_rule_a_user_rule_and_a_baseline(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    project = write_tree(tmp_path / "shop", SHOP)
    # The project shadows INW005 as a warning; a user rule adds a rule of its own.
    assert run_inwards("rules", "shadow", "INW005", "--to", "project", cwd=project).code == 0
    shadow = project / ".inwards" / "rules" / "INW005.toml"
    shadow.write_text(shadow.read_text().replace('severity = "error"', 'severity = "warning"'))
    user = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(user))
    env = {"XDG_CONFIG_HOME": str(user)}
    made = run_inwards(
        "rules",
        "new",
        "ACME001",
        "--kind",
        "inw.independence",
        "--to",
        "user",
        cwd=project,
        env=env,
    )
    assert made.code == 0, made.stderr
    written = user / "inwards" / "rules" / "ACME001.toml"
    text = written.read_text(encoding="utf-8")
    for placeholder in TEXT_PLACEHOLDERS:  # the author's own words: no warning left
        text = text.replace(placeholder, "Keep the parts independent.")
    written.write_text(text, encoding="utf-8")
    baseline = run_inwards("baseline", cwd=project, env=env)
    assert baseline.code == 0, baseline.stderr
    project.joinpath("src/shop/domain/late.py").write_text("from shop.adapters import db\n")

    run = run_inwards("check", "--format", "json", cwd=project, env=env)
    expected = masked(json.loads(run.stdout))
    with warnings.catch_warnings():
        warnings.simplefilter("error", inwards_core.InwardsWarning)
        got = library_json(project)
    assert got == expected
    codes = {d["code"]: d["severity"] for d in got["diagnostics"]}
    # INW005 shadowed as a warning, the late import's INW001 (the others are baselined).
    assert (codes["INW005"], codes["INW001"]) == ("warning", "error")
    assert [d["file"] for d in got["diagnostics"] if d["code"] == "INW001"] == [
        "src/shop/domain/late.py"
    ]
    assert got["summary"]["baselined"] == 2
    assert [d["code"] for d in got["ruleSet"]["userDefinitions"]] == ["ACME001"]

    isolated = run_inwards("check", "--format", "json", "--isolated", cwd=project, env=env)
    assert library_json(project, isolated=True) == masked(json.loads(isolated.stdout))
    unbaselined = run_inwards("check", "--format", "json", "--no-baseline", cwd=project, env=env)
    assert library_json(project, baseline=False) == masked(json.loads(unbaselined.stdout))


def test_findings_are_documented_values(tmp_path: Path) -> None:
    project = write_tree(tmp_path, SHOP)
    report = inwards_core.check_path(project)
    assert report.exit_code() == 1
    document = report.to_json()
    assert json.loads(json.dumps(document)) == document  # plain JSON values
    assert [f.to_json() for f in report.findings] == document["diagnostics"]
    assert report.findings[0].to_json(display=lambda path: f"../{path}")["file"].startswith("../")


def test_a_configuration_error_is_typed(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {**SHOP, "pyproject.toml": LAYERS + 'colour = "blue"\n'})
    with pytest.raises(inwards_core.ConfigError) as raised:
        inwards_core.check_path(project / "src" / "shop")  # found above, as the CLI finds it
    (problem,) = raised.value.problems
    where = (problem.file, problem.line, problem.column, problem.key)
    assert where == ("pyproject.toml", 8, 1, "tool.inwards.colour")


def test_a_directory_without_configuration_says_so(tmp_path: Path) -> None:
    with pytest.raises(inwards_core.ConfigNotFoundError) as raised:
        inwards_core.check_path(tmp_path)
    assert isinstance(raised.value, inwards_core.ConfigError)
    assert "has no pyproject.toml with a [tool.inwards] table" in str(raised.value)
    assert "run `inwards init` there to write a starting one" in str(raised.value)
    assert raised.value.problems[0].file == str(tmp_path)
    with pytest.raises(NotADirectoryError):
        inwards_core.check_path(tmp_path / "nowhere")


def test_a_broken_baseline_or_path_is_an_exception(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {**SHOP, "inwards-baseline.json": '{"schema": 1'})
    with pytest.raises(inwards_core.BaselineError) as raised:
        inwards_core.check_path(project)
    assert raised.value.line == 1
    assert inwards_core.check_path(project, baseline=False).exit_code() == 1
    with pytest.raises(FileNotFoundError):
        inwards_core.check_path(project, paths=["src/shop/nowhere.py"], baseline=False)


def test_arguments_of_the_wrong_type(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="must be a sequence of paths"):
        inwards_core.check_path(tmp_path, paths="src")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"directory must be a str or os\.PathLike"):
        inwards_core.check_path(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="isolated must be a bool"):
        inwards_core.check_path(tmp_path, isolated="yes")  # type: ignore[arg-type]


def test_check_with_a_path_says_what_to_pass() -> None:
    config = inwards_core.load_config_text(LAYERS)
    with pytest.raises(TypeError, match=r"call inwards_core\.check_path\('\.'\)"):
        inwards_core.check(config, ".")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="files must be a ProjectFiles adapter"):
        inwards_core.check(config, {"a.py": ""})  # type: ignore[arg-type]


def test_the_composition_is_found_through_its_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core never imports inwards_cli: a composition installed ahead of it (a test
    double here) is the one check_path calls."""
    site = write_tree(
        tmp_path / "site",
        {
            "fake_composition.py": (
                "import inwards_core\n"
                "calls = []\n"
                "def open_here(directory, *, isolated, baseline):\n"
                "    calls.append((directory, isolated, baseline))\n"
                "    return inwards_core.SessionSetup.of_sources(\n"
                "        {'a.py': 'import os\\n'},\n"
                '        pyproject=\'[tool.inwards]\\nlayers = [{ name = "a", modules = ["a"] }]\\n\',\n'
                "    )\n"
            ),
            "fake_composition-1.0.dist-info/entry_points.txt": (
                f"[{COMPOSITION_GROUP}]\nlocal = fake_composition:open_here\n"
            ),
        },
    )
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    report = inwards_core.check_path(tmp_path, isolated=True, baseline=False)
    assert report.files_checked == 1  # the in-memory project of the double
    assert sys.modules["fake_composition"].calls == [(str(tmp_path), True, False)]
    monkeypatch.delitem(sys.modules, "fake_composition")


def test_without_a_composition_installed() -> None:
    with pytest.raises(LookupError, match=r"inwards\.composition"):
        directory_opener([])
    point = EntryPoint("local", "inwards_core.version:VERSION", "nobody", "1")
    with pytest.raises(TypeError, match="not callable"):
        directory_opener([point])
