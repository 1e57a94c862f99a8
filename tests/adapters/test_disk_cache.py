"""DiskExtractionCache: layout, modes, damaged packs, symlinks, write failures, two runs."""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.queues
import multiprocessing.synchronize
import os
import re
import stat
import time
from pathlib import Path

import pytest

from inwards_cli.adapters import disk_cache
from inwards_cli.adapters.disk_cache import (
    CACHEDIR_TAG,
    DiskExtractionCache,
    namespace_folder,
)
from inwards_core.facts import ImportFact, ImportStyle, ModuleFacts, facts_to_data
from inwards_core.model import Span
from inwards_core.ports import CacheKey

NAMESPACE = "imports-3/cpython-3.11/libcst-1.9"


def _key(number: int) -> CacheKey:
    return CacheKey(
        digest=f"{number:064x}", module=f"shop.m{number}", is_package=False, extractor="imp-3"
    )


def _facts(number: int) -> ModuleFacts:
    return ModuleFacts(
        imports=(
            ImportFact(
                style=ImportStyle.IMPORT,
                module=f"dep{number}",
                name=None,
                target=f"dep{number}",
                level=0,
                span=Span(1, 8, 1, 8 + len(f"dep{number}")),
                statement=f"import dep{number}",
            ),
        ),
        grammar="skeleton",
        line_count=number,
    )


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "project" / ".inwards" / "cache"


def _pack(cache_dir: Path) -> Path:
    return cache_dir / namespace_folder(NAMESPACE) / "facts.json"


def _filled(cache_dir: Path, *numbers: int) -> DiskExtractionCache:
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    for number in numbers:
        cache.put(_key(number), _facts(number))
    cache.flush(prune=False)
    assert cache.warnings == []
    return cache


# -- layout ---------------------------------------------------------------------------


def test_layout_tag_gitignore_and_one_pack_per_namespace(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2)
    assert re.fullmatch(r"extraction-[0-9a-f]{16}", namespace_folder(NAMESPACE))
    assert sorted(p.name for p in cache_dir.iterdir()) == [
        ".gitignore",
        "CACHEDIR.TAG",
        namespace_folder(NAMESPACE),
    ]
    assert [p.name for p in (cache_dir / namespace_folder(NAMESPACE)).iterdir()] == ["facts.json"]
    tag = (cache_dir / "CACHEDIR.TAG").read_text(encoding="ascii")
    assert tag == CACHEDIR_TAG
    assert tag.startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    assert "*" in (cache_dir / ".gitignore").read_text(encoding="ascii").splitlines()
    document = json.loads(_pack(cache_dir).read_bytes())
    assert document["format"] == 1
    assert len(document["entries"]) == 2
    assert all(re.fullmatch(r"[0-9a-f]{64}", name) for name in document["entries"])
    assert sorted(document["entries"].values(), key=lambda d: d["lines"]) == [
        facts_to_data(_facts(1)),
        facts_to_data(_facts(2)),
    ]


def test_files_are_0600_and_directories_0700(cache_dir: Path) -> None:
    _filled(cache_dir, 1)

    def mode(path: Path) -> int:
        return stat.S_IMODE(os.stat(path).st_mode)

    assert mode(cache_dir) == 0o700
    assert mode(cache_dir / namespace_folder(NAMESPACE)) == 0o700
    assert mode(_pack(cache_dir)) == 0o600
    assert mode(cache_dir / "CACHEDIR.TAG") == 0o600
    assert mode(cache_dir / ".gitignore") == 0o600


def test_existing_tag_and_gitignore_are_left_alone(cache_dir: Path) -> None:
    cache_dir.mkdir(parents=True)
    (cache_dir / ".gitignore").write_text("mine\n", encoding="ascii")
    _filled(cache_dir, 1)
    assert (cache_dir / ".gitignore").read_text(encoding="ascii") == "mine\n"
    assert (cache_dir / "CACHEDIR.TAG").is_file()


def test_nothing_is_written_when_nothing_changed(cache_dir: Path) -> None:
    empty = DiskExtractionCache(cache_dir, NAMESPACE)
    assert empty.get(_key(1)) is None
    empty.flush(prune=False)
    empty.flush(prune=True)
    assert not cache_dir.exists()

    _filled(cache_dir, 1, 2)
    before = os.stat(_pack(cache_dir))
    reader = DiskExtractionCache(cache_dir, NAMESPACE)
    assert reader.get(_key(1)) == _facts(1)
    assert reader.get(_key(2)) == _facts(2)
    reader.put(_key(2), _facts(2))  # the same facts again: not a change
    reader.flush(prune=True)  # everything was used: nothing to prune either
    reader.flush(prune=False)
    after = os.stat(_pack(cache_dir))
    # os.replace would give the pack a new inode.
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_prune_rewrites_the_pack_with_the_used_entries_only(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2, 3)
    run = DiskExtractionCache(cache_dir, NAMESPACE)
    assert run.get(_key(2)) == _facts(2)
    run.flush(prune=True)
    entries = json.loads(_pack(cache_dir).read_bytes())["entries"]
    assert [data["lines"] for data in entries.values()] == [2]


# -- damaged packs --------------------------------------------------------------------


def _assert_miss_then_healed(cache_dir: Path) -> None:
    """Every get misses; the next flush replaces the pack with a good one."""
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    assert cache.get(_key(2)) is None
    cache.flush(prune=False)
    document = json.loads(_pack(cache_dir).read_bytes())
    assert document == {"format": 1, "entries": {}}
    cache.put(_key(1), _facts(1))
    cache.flush(prune=False)
    assert DiskExtractionCache(cache_dir, NAMESPACE).get(_key(1)) == _facts(1)
    assert cache.warnings == []


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(b"\x00\x01garbage\xff", id="not-json"),
        pytest.param(b"", id="empty"),
        pytest.param(b'["format", 1]', id="a-list"),
        pytest.param(b'{"entries": {}}', id="no-format"),
        pytest.param(b'{"format": 2, "entries": {}}', id="newer-format"),
        pytest.param(b'{"format": "1", "entries": {}}', id="format-as-string"),
        pytest.param(b'{"format": true, "entries": {}}', id="format-as-bool"),
        pytest.param(b'{"format": 1, "entries": []}', id="entries-not-an-object"),
        pytest.param(b"[" * 100_000, id="too-deep"),
    ],
)
def test_a_damaged_or_foreign_pack_is_a_miss_and_is_rewritten(
    cache_dir: Path, damage: bytes
) -> None:
    _filled(cache_dir, 1, 2)
    _pack(cache_dir).write_bytes(damage)
    _assert_miss_then_healed(cache_dir)


def test_a_truncated_pack_is_a_miss_and_is_rewritten(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2)
    whole = _pack(cache_dir).read_bytes()
    _pack(cache_dir).write_bytes(whole[: len(whole) // 2])
    _assert_miss_then_healed(cache_dir)


def test_an_entry_of_the_wrong_shape_is_a_miss_and_the_others_still_hit(
    cache_dir: Path,
) -> None:
    _filled(cache_dir, 1, 2)
    document = json.loads(_pack(cache_dir).read_bytes())
    for name, data in document["entries"].items():
        if data["lines"] == 1:
            document["entries"][name] = {**data, "imports": [["import", "x"]]}
    _pack(cache_dir).write_text(json.dumps(document), encoding="utf-8")
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    assert cache.get(_key(2)) == _facts(2)
    cache.put(_key(1), _facts(1))
    cache.flush(prune=False)
    assert DiskExtractionCache(cache_dir, NAMESPACE).get(_key(1)) == _facts(1)


def test_a_pack_over_the_size_limit_is_ignored(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(cache_dir, 1)
    monkeypatch.setattr(disk_cache, "MAX_PACK_BYTES", 10)
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    assert len(cache.warnings) == 1 and "larger than 512 MiB" in cache.warnings[0]


# -- symlinks -------------------------------------------------------------------------


def test_a_symlinked_pack_is_neither_read_nor_written_through(
    cache_dir: Path, tmp_path: Path
) -> None:
    _filled(cache_dir, 1)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(_pack(cache_dir).read_bytes())
    _pack(cache_dir).unlink()
    _pack(cache_dir).symlink_to(elsewhere)
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    cache.put(_key(2), _facts(2))
    cache.flush(prune=False)
    assert _pack(cache_dir).is_symlink()
    assert len(json.loads(elsewhere.read_bytes())["entries"]) == 1
    assert len(cache.warnings) == 1
    assert "is a symlink" in cache.warnings[0] and "facts.json" in cache.warnings[0]


@pytest.mark.parametrize("linked", ["cache", ".inwards"])
def test_a_symlinked_cache_directory_is_refused(tmp_path: Path, linked: str) -> None:
    project = tmp_path / "project"
    target = tmp_path / "target"
    target.mkdir()
    project.mkdir()
    if linked == ".inwards":
        (project / ".inwards").symlink_to(target)
    else:
        (project / ".inwards").mkdir()
        (project / ".inwards" / "cache").symlink_to(target)
    cache = DiskExtractionCache(project / ".inwards" / "cache", NAMESPACE)
    cache.put(_key(1), _facts(1))
    cache.flush(prune=False)
    assert list(target.iterdir()) == []
    assert len(cache.warnings) == 1 and "is a symlink" in cache.warnings[0]


# -- write failures -------------------------------------------------------------------


def test_an_unwritable_cache_warns_once_and_the_run_goes_on(cache_dir: Path) -> None:
    # Root ignores permission bits, so force the OSError with a file where a directory goes.
    cache_dir.parent.mkdir(parents=True)
    cache_dir.write_text("not a directory", encoding="ascii")
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    cache.put(_key(1), _facts(1))
    assert cache.get(_key(1)) == _facts(1)  # still served from memory
    cache.flush(prune=False)
    cache.flush(prune=True)
    assert len(cache.warnings) == 1
    assert cache.warnings[0].startswith("the extraction cache was not saved: ")
    assert str(cache_dir) in cache.warnings[0]
    assert "\n" not in cache.warnings[0]
    assert cache_dir.read_text(encoding="ascii") == "not a directory"


def test_old_temp_files_of_crashed_runs_are_removed(cache_dir: Path) -> None:
    _filled(cache_dir, 1)
    folder = cache_dir / namespace_folder(NAMESPACE)
    old = folder / "facts.json.4242.deadbeef.tmp"
    young = folder / "facts.json.4243.cafebabe.tmp"
    unrelated = folder / "notes.tmp"
    for path in (old, young, unrelated):
        path.write_bytes(b"partial")
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    os.utime(unrelated, (two_hours_ago, two_hours_ago))
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    cache.put(_key(2), _facts(2))
    cache.flush(prune=False)
    assert not old.exists()
    assert young.exists() and unrelated.exists()


# -- two runs at once -----------------------------------------------------------------


def test_a_flush_without_prune_keeps_what_another_run_wrote_meanwhile(cache_dir: Path) -> None:
    first = DiskExtractionCache(cache_dir, NAMESPACE)
    second = DiskExtractionCache(cache_dir, NAMESPACE)
    assert first.get(_key(1)) is None and second.get(_key(2)) is None  # both loaded early
    first.put(_key(1), _facts(1))
    second.put(_key(2), _facts(2))
    first.flush(prune=False)
    second.flush(prune=False)
    reopened = DiskExtractionCache(cache_dir, NAMESPACE)
    assert reopened.get(_key(1)) == _facts(1)
    assert reopened.get(_key(2)) == _facts(2)


def _busy_run(
    cache_dir: str,
    offset: int,
    rounds: int,
    prune_every: int,
    start: multiprocessing.synchronize.Barrier,
    results: multiprocessing.queues.Queue[tuple[int, list[str]]],
) -> None:
    """One `inwards check` worth of cache traffic, flushed after every put."""
    cache = DiskExtractionCache(Path(cache_dir), NAMESPACE)
    start.wait()  # both runs begin together, so their flushes interleave
    for number in range(offset, offset + rounds):
        cache.get(_key(number))
        cache.put(_key(number), _facts(number))
        cache.get(_key(number + 1_000_000))  # the other run's key, maybe there already
        cache.flush(prune=prune_every > 0 and number % prune_every == prune_every - 1)
    results.put((offset, cache.warnings))


@pytest.mark.parametrize("prune_every", [0, 10])
def test_two_processes_flushing_at_once_both_succeed(cache_dir: Path, prune_every: int) -> None:
    rounds = 200
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(2)
    results: multiprocessing.queues.Queue[tuple[int, list[str]]] = context.Queue()
    runs = [
        context.Process(
            target=_busy_run,
            args=(str(cache_dir), offset, rounds, prune_every, start, results),
        )
        for offset in (0, 1_000_000)
    ]
    for run in runs:
        run.start()
    warnings = dict(results.get(timeout=120) for _ in runs)
    for run in runs:
        run.join(timeout=120)
    assert [run.exitcode for run in runs] == [0, 0]
    assert warnings == {0: [], 1_000_000: []}
    document = json.loads(_pack(cache_dir).read_bytes())
    assert document["format"] == 1
    written = {n for offset in (0, 1_000_000) for n in range(offset, offset + rounds)}
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    hits = {n for n in written if cache.get(_key(n)) == _facts(n)}
    # Every entry left is whole and one of ours. Merges are made under a lock, so without
    # prune nothing is lost; a prune drops the other run's entries by design.
    assert len(hits) == len(document["entries"]) > 0
    if not prune_every:
        assert hits == written
    assert [p.name for p in _pack(cache_dir).parent.iterdir()] == ["facts.json"]
