"""RuleRootsManifest: tables recorded with the sha256 they were parsed from, old schemas,
what is not a regular file, symlinked directories, and `verify`."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import stat
from pathlib import Path
from typing import Any

import pytest

from inwards_cli.adapters.rule_manifest import MANIFEST_NAME, MANIFEST_SCHEMA, RuleRootsManifest
from inwards_core.model.findings import RootKind
from inwards_core.ports import RuleDocument

DEFINITION = b'code = "ACME001"\nname = "acme"\ndefault = "on"\n'
SHA = hashlib.sha256(DEFINITION).hexdigest()
TABLE = {"code": "ACME001", "name": "acme", "default": "on"}


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    path = tmp_path / "project" / ".inwards" / "cache"
    path.mkdir(parents=True)
    return path


def _written(cache_dir: Path) -> dict[str, Any]:
    manifest = RuleRootsManifest(cache_dir)
    manifest.tables[SHA] = TABLE
    manifest.write({RootKind.CORE: "c" * 64}, {SHA})
    document: dict[str, Any] = json.loads((cache_dir / MANIFEST_NAME).read_bytes())
    return document


def _document(data: bytes = DEFINITION) -> RuleDocument:
    return RuleDocument(RootKind.PROJECT, ".inwards/rules/ACME001.toml", data)


def test_each_table_records_the_sha256_it_was_parsed_from(cache_dir: Path) -> None:
    document = _written(cache_dir)
    assert document["schema"] == MANIFEST_SCHEMA == "inwards/rule-roots@3"
    assert document["tables"] == {SHA: {"sha256": SHA, "table": TABLE}}
    read = RuleRootsManifest.read(cache_dir)
    assert read.tables == read.stored == {SHA: TABLE}
    assert read.digests == {"core": "c" * 64}


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param({"sha256": "0" * 64, "table": TABLE}, id="another-sha256"),
        pytest.param({"table": TABLE}, id="no-sha256"),
        pytest.param(TABLE, id="bare-table"),
        pytest.param({"sha256": SHA, "table": ["code"]}, id="not-a-table"),
    ],
)
def test_a_table_that_does_not_record_its_own_sha256_is_a_miss(cache_dir: Path, entry: Any) -> None:
    document = _written(cache_dir)
    document["tables"] = {SHA: entry}
    (cache_dir / MANIFEST_NAME).write_text(json.dumps(document), encoding="utf-8")
    assert RuleRootsManifest.read(cache_dir).tables == {}


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(
            json.dumps({"schema": "inwards/rule-roots@2", "tables": {SHA: TABLE}}).encode(),
            id="schema-2",
        ),
        pytest.param(b"[" * 100_000, id="too-deep"),
        pytest.param(b"\xff\xfe", id="not-utf8"),
    ],
)
def test_an_old_or_broken_manifest_reads_as_empty(cache_dir: Path, content: bytes) -> None:
    (cache_dir / MANIFEST_NAME).write_bytes(content)
    manifest = RuleRootsManifest.read(cache_dir)
    assert (manifest.tables, manifest.digests) == ({}, None)


class _Blocked(BaseException):
    pass


def _expire(signum: int, frame: object) -> None:
    raise _Blocked


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_manifest_is_never_waited_on_and_is_replaced(cache_dir: Path) -> None:
    os.mkfifo(cache_dir / MANIFEST_NAME)
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.alarm(5)
    try:
        manifest = RuleRootsManifest.read(cache_dir)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert manifest.tables == {}
    manifest.tables[SHA] = TABLE
    manifest.write({}, {SHA})
    assert stat.S_ISREG(os.lstat(cache_dir / MANIFEST_NAME).st_mode)
    assert RuleRootsManifest.read(cache_dir).tables == {SHA: TABLE}


@pytest.mark.parametrize("linked", [".inwards", "cache"])
def test_nothing_is_read_or_written_through_a_symlinked_directory(
    tmp_path: Path, linked: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    project = tmp_path / "project"
    project.mkdir()
    if linked == ".inwards":
        (elsewhere / "cache").mkdir(parents=True)
        (project / ".inwards").symlink_to(elsewhere)
        target = elsewhere / "cache"
    else:
        elsewhere.mkdir()
        (project / ".inwards").mkdir()
        (project / ".inwards" / "cache").symlink_to(elsewhere)
        target = elsewhere
    _written(target)  # a manifest where the link leads, which must not be read...
    before = (target / MANIFEST_NAME).read_bytes()
    manifest = RuleRootsManifest.read(project / ".inwards" / "cache")
    assert manifest.tables == {}
    manifest.tables[SHA] = {**TABLE, "default": "opt-in"}
    manifest.write({}, {SHA})
    assert (target / MANIFEST_NAME).read_bytes() == before  # ...nor written


def test_a_symlinked_manifest_is_not_read_and_is_replaced_not_followed(
    cache_dir: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(_written(cache_dir)), encoding="utf-8")
    (cache_dir / MANIFEST_NAME).unlink()
    (cache_dir / MANIFEST_NAME).symlink_to(outside)
    manifest = RuleRootsManifest.read(cache_dir)
    assert manifest.tables == {}
    before = outside.read_bytes()
    manifest.write({}, set())
    assert outside.read_bytes() == before
    assert not (cache_dir / MANIFEST_NAME).is_symlink()


def test_verify_names_the_definition_and_the_key_that_differs(cache_dir: Path) -> None:
    _written(cache_dir)
    manifest = RuleRootsManifest.read(cache_dir)
    assert manifest.verify({SHA: TABLE}, [_document()]) == []
    forged = RuleRootsManifest.read(cache_dir)
    forged.stored[SHA] = {**TABLE, "default": "opt-in"}
    (mismatch,) = forged.verify({SHA: TABLE}, [_document()])
    assert mismatch.render() == (
        '.inwards/rules/ACME001.toml: default: the cache has "opt-in", the definition "on"'
    )


def test_verify_flags_a_table_held_for_bytes_that_parse_to_none(cache_dir: Path) -> None:
    _written(cache_dir)
    manifest = RuleRootsManifest.read(cache_dir)
    (mismatch,) = manifest.verify({}, [_document()])  # the resolver parsed no table
    assert mismatch.entry == ".inwards/rules/ACME001.toml"
    assert "does not parse to a table" in mismatch.difference


def test_verify_ignores_definitions_the_cache_holds_nothing_for(cache_dir: Path) -> None:
    _written(cache_dir)
    manifest = RuleRootsManifest.read(cache_dir)
    other = _document(b'code = "ACME002"\n')
    assert manifest.verify({}, [other]) == []


def test_write_with_no_digests_keeps_those_read(cache_dir: Path) -> None:
    _written(cache_dir)
    manifest = RuleRootsManifest.read(cache_dir)
    manifest.tables[SHA] = {**TABLE, "name": "renamed"}
    manifest.write(None, {SHA})
    again = RuleRootsManifest.read(cache_dir)
    assert again.digests == {"core": "c" * 64}
    assert again.tables[SHA]["name"] == "renamed"
