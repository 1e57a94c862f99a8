"""`inwards schema [NAME]` through the installed CLI."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest

from inwards_core.api import installed_families
from inwards_core.authoring.schemas import SCHEMAS, schema_info
from inwards_core.version import DISTRIBUTION
from tests.e2e.helpers import REPO, run_inwards

SCHEMA_DIR = REPO / "schemas"
ONLY_INWARDS = {f.distribution for f in installed_families()} == {DISTRIBUTION}


def test_without_a_name_it_lists_every_schema(tmp_path: Path) -> None:
    done = run_inwards("schema", cwd=tmp_path)
    assert done.code == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.split("\n\n")[0].splitlines()]
    assert listed == [info.name for info in SCHEMAS]
    assert "the output of `inwards check --format json`" in done.stdout


@pytest.mark.parametrize("info", SCHEMAS, ids=[s.name for s in SCHEMAS])
def test_each_schema_prints_as_json(tmp_path: Path, info) -> None:  # type: ignore[no-untyped-def]
    done = run_inwards("schema", info.name, cwd=tmp_path)
    assert done.code == 0, done.stderr
    schema = json.loads(done.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    committed = (SCHEMA_DIR / info.file).read_text(encoding="utf-8")
    if info.name not in ("config", "pyproject", "definition") or ONLY_INWARDS:
        # The outputs' schemas don't depend on the families; the inputs' do.
        assert done.stdout == committed


def test_a_document_name_finds_its_schema(tmp_path: Path) -> None:
    by_document = run_inwards("schema", "inwards/status@1", cwd=tmp_path)
    assert by_document.code == 0
    assert by_document.stdout == run_inwards("schema", "status", cwd=tmp_path).stdout


def test_an_unknown_name_is_exit_2_with_a_suggestion(tmp_path: Path) -> None:
    done = run_inwards("schema", "diagnostic", cwd=tmp_path)
    assert done.code == 2
    assert done.stdout == ""
    assert done.stderr == (
        '"diagnostic" is not a schema. Did you mean "diagnostics"? `inwards schema` lists them.\n'
    )


@pytest.mark.skipif(ONLY_INWARDS, reason="no other rule family is installed here")
def test_the_printed_config_schema_covers_every_installed_family(tmp_path: Path) -> None:
    schema = json.loads(run_inwards("schema", "config", cwd=tmp_path).stdout)
    kinds = {k.id for f in installed_families() for k in f.kinds}
    assert {f"options.{kind}" for kind in kinds} <= set(schema["$defs"])
    committed = json.loads((SCHEMA_DIR / "config.schema.json").read_text(encoding="utf-8"))
    assert not any(k.startswith("options.tidy.") for k in committed["$defs"])


def test_the_pyproject_schema_accepts_this_repository(tmp_path: Path) -> None:
    schema = json.loads(run_inwards("schema", "pyproject", cwd=tmp_path).stdout)
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data)) == []


def test_the_schemas_page_lists_every_schema_and_only_real_names() -> None:
    page = (REPO / "docs" / "schemas.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| \[([\w.-]+)\]\(\.\./schemas/([\w.-]+)\) \|", page, re.M)
    assert [(name, file) for name, file, _ in rows] == [(s.name, s.file) for s in SCHEMAS]
    assert all(link == file for _, file, link in rows)
    commands = re.findall(r"^inwards schema (\S+)", page, re.M)
    assert commands and all(schema_info(name) is not None for name in commands)
