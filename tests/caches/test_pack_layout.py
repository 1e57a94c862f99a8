"""The extraction pack's layout: one entry a line, so a run decodes only the entries it
asks for and a flush writes back the bytes of the entries it did not change."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from inwards_cli.adapters import disk_cache
from inwards_cli.adapters.disk_cache import DiskExtractionCache, namespace_folder
from inwards_cli.adapters.pack_entries import entry_lines, entry_name, find_entry_line
from inwards_core.model.facts import ImportFact, ImportStyle, ModuleFacts
from inwards_core.model.findings import Span
from inwards_core.ports import CacheKey

NAMESPACE = "imports-3/cpython-3.11/libcst-1.9"


def _key(number: int) -> CacheKey:
    return CacheKey(f"{number:064x}", f"shop.m{number}", False, "imp-3")


def _facts(number: int) -> ModuleFacts:
    module = f"dep{number}"
    span = Span(1, 8, 1, 8 + len(module))
    fact = ImportFact(ImportStyle.IMPORT, module, None, module, 0, span, f"import {module}")
    return ModuleFacts(imports=(fact,), grammar="skeleton", line_count=number)


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / ".inwards" / "cache"


def _pack(cache_dir: Path) -> Path:
    return cache_dir / namespace_folder(NAMESPACE) / "facts.json"


def _filled(cache_dir: Path, *numbers: int) -> None:
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    for number in numbers:
        cache.put(_key(number), _facts(number))
    cache.flush(prune=False)


def _lines(cache_dir: Path) -> list[bytes]:
    return _pack(cache_dir).read_bytes().splitlines()


def test_the_pack_is_one_json_document_with_an_entry_a_line(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2, 3)
    document = json.loads(_pack(cache_dir).read_bytes())
    assert document["format"] == 2 and len(document["entries"]) == 3
    lines = _lines(cache_dir)
    assert len(lines) == 5  # head, three entries, tail
    for line in lines[1:4]:
        name, entry = line.rstrip(b",").split(b":", 1)
        assert document["entries"][json.loads(name)] == json.loads(entry)


def test_entries_not_changed_are_written_back_as_they_were(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2, 3)
    before = _lines(cache_dir)
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) == _facts(1)
    cache.put(_key(4), _facts(4))
    cache.flush(prune=False)
    after = _lines(cache_dir)
    assert len(after) == 6
    assert all(
        line.rstrip(b",") in {other.rstrip(b",") for other in after} for line in before[1:-1]
    )


def test_a_pack_in_another_layout_is_read_whole_and_written_in_ours(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2)
    pack = _pack(cache_dir)
    pack.write_text(json.dumps(json.loads(pack.read_bytes()), indent=2), encoding="utf-8")
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) == _facts(1) and cache.get(_key(2)) == _facts(2)
    cache.flush(prune=True)
    assert len(_lines(cache_dir)) == 4


def test_a_damaged_entry_is_a_miss_and_the_others_stand(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2)
    pack = _pack(cache_dir)
    lines = _lines(cache_dir)
    damaged = lines[1][:70] + b"{" + lines[1][71:].replace(b'"facts"', b'"fact"', 1)
    pack.write_bytes(b"\n".join([lines[0], damaged, *lines[2:]]) + b"\n")
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    found = [cache.get(_key(1)), cache.get(_key(2))]
    assert found.count(None) == 1
    assert _facts(1) in found or _facts(2) in found


@pytest.mark.parametrize("cut", [10, 100, -5])
def test_a_truncated_pack_is_a_miss(cache_dir: Path, cut: int) -> None:
    _filled(cache_dir, 1, 2)
    pack = _pack(cache_dir)
    pack.write_bytes(pack.read_bytes()[:cut])
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None and cache.get(_key(2)) is None


@pytest.mark.parametrize(
    "module",
    ["shop.m1", "shop.café", 'shop."quoted"', "shop.back\\slash", "shop.\x7f", "shop.\t", ""],
)
@pytest.mark.parametrize("is_package", [True, False])
def test_entry_names_are_the_sha256_of_the_keys_json(module: str, is_package: bool) -> None:
    key = CacheKey("ab" * 32, module, is_package, "imports-3|checked|cpython-3.11")
    expected = json.dumps([key.digest, key.module, key.is_package, key.extractor])
    assert entry_name(key) == hashlib.sha256(expected.encode("utf-8")).hexdigest()


def test_a_few_entries_are_found_in_the_bytes_as_the_split_pack_holds_them(
    cache_dir: Path,
) -> None:
    """A one-file check asks for one entry of thousands: its line is found in the pack's
    bytes, the same line splitting the pack gives, first, middle and last alike."""
    _filled(cache_dir, *range(40))
    raw = _pack(cache_dir).read_bytes()
    lines = entry_lines(raw)
    assert lines is not None and len(lines) == 40
    for name, line in lines.items():
        assert find_entry_line(raw, name) == line
    assert find_entry_line(raw, "f" * 64) is None


def test_a_run_asking_for_many_entries_splits_the_pack_once(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(cache_dir, *range(40))
    found: list[str] = []
    real = disk_cache.find_entry_line

    def counting(raw: bytes, name: str) -> bytes | None:
        found.append(name)
        return real(raw, name)

    monkeypatch.setattr(disk_cache, "find_entry_line", counting)
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert [cache.get(_key(number)) for number in range(40)] == [_facts(n) for n in range(40)]
    assert len(found) == DiskExtractionCache._FINDS_BEFORE_SPLIT
    cache.flush(prune=True)
    assert len(_lines(cache_dir)) == 40 + 2  # the head and the tail
