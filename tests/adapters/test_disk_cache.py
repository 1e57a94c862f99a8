"""DiskExtractionCache: layout, modes, damaged packs, entries made for another key, what
is not a regular file, symlinks, write failures, two runs."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import multiprocessing.queues
import multiprocessing.synchronize
import os
import re
import signal
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inwards_cli.adapters import disk_cache
from inwards_cli.adapters.disk_cache import (
    CACHEDIR_TAG,
    DiskExtractionCache,
    namespace_folder,
    symlinked_component,
)
from inwards_core.model.facts import ImportFact, ImportStyle, ModuleFacts
from inwards_core.model.facts_data import facts_to_data
from inwards_core.model.findings import Span
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
    assert document["format"] == 2
    assert len(document["entries"]) == 2
    assert all(re.fullmatch(r"[0-9a-f]{64}", name) for name in document["entries"])
    # Each entry records the key it was made for: the file's digest, module, whether it
    # is a package, and the extractor.
    assert sorted(document["entries"].values(), key=lambda e: e["facts"]["lines"]) == [
        {"key": [f"{n:064x}", f"shop.m{n}", False, "imp-3"], "facts": facts_to_data(_facts(n))}
        for n in (1, 2)
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
    assert [entry["facts"]["lines"] for entry in entries.values()] == [2]


# -- damaged packs --------------------------------------------------------------------


def _assert_miss_then_healed(cache_dir: Path) -> None:
    """Every get misses; the next flush replaces the pack with a good one."""
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    assert cache.get(_key(2)) is None
    cache.flush(prune=False)
    document = json.loads(_pack(cache_dir).read_bytes())
    assert document == {"format": 2, "entries": {}}
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
        pytest.param(b'{"format": 3, "entries": {}}', id="newer-format"),
        pytest.param(b'{"format": "2", "entries": {}}', id="format-as-string"),
        pytest.param(b'{"format": true, "entries": {}}', id="format-as-bool"),
        pytest.param(b'{"format": 2, "entries": []}', id="entries-not-an-object"),
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
    for entry in document["entries"].values():
        if entry["facts"]["lines"] == 1:
            entry["facts"] = {**entry["facts"], "imports": [["import", "x"]]}
    _pack(cache_dir).write_text(json.dumps(document), encoding="utf-8")
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    assert cache.get(_key(2)) == _facts(2)
    cache.put(_key(1), _facts(1))
    cache.flush(prune=False)
    assert DiskExtractionCache(cache_dir, NAMESPACE).get(_key(1)) == _facts(1)


def _edit_pack(cache_dir: Path) -> tuple[dict[str, Any], dict[int, str]]:
    """The pack's document, and each entry's name by the number its facts were made from."""
    document = json.loads(_pack(cache_dir).read_bytes())
    names = {entry["facts"]["lines"]: name for name, entry in document["entries"].items()}
    return document, names


def test_a_pack_of_format_1_is_a_miss_and_is_rewritten(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2)
    document, _ = _edit_pack(cache_dir)
    # What inwards wrote before entries recorded their key: the facts alone.
    old = {name: entry["facts"] for name, entry in document["entries"].items()}
    _pack(cache_dir).write_text(json.dumps({"format": 1, "entries": old}), encoding="utf-8")
    _assert_miss_then_healed(cache_dir)


def test_an_entry_moved_under_another_files_name_is_a_miss(cache_dir: Path) -> None:
    _filled(cache_dir, 1, 2)
    document, names = _edit_pack(cache_dir)
    document["entries"][names[2]] = document["entries"][names[1]]  # 1's facts as 2's
    _pack(cache_dir).write_text(json.dumps(document), encoding="utf-8")
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) == _facts(1)
    assert cache.get(_key(2)) is None
    cache.put(_key(2), _facts(2))
    cache.flush(prune=False)
    assert DiskExtractionCache(cache_dir, NAMESPACE).get(_key(2)) == _facts(2)


@pytest.mark.parametrize(
    ("field", "forged"),
    [
        pytest.param(0, "f" * 64, id="digest"),
        pytest.param(1, "shop.elsewhere", id="module"),
        pytest.param(2, True, id="is-package"),
        pytest.param(2, 0, id="is-package-as-zero"),
        pytest.param(3, "imp-2", id="extractor"),
    ],
)
def test_an_entry_recording_another_key_is_a_miss(cache_dir: Path, field: int, forged: Any) -> None:
    _filled(cache_dir, 1, 2)
    document, names = _edit_pack(cache_dir)
    document["entries"][names[1]]["key"][field] = forged
    _pack(cache_dir).write_text(json.dumps(document), encoding="utf-8")
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    assert cache.get(_key(2)) == _facts(2)


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param({"facts": facts_to_data(_facts(1))}, id="no-key"),
        pytest.param(facts_to_data(_facts(1)), id="bare-facts"),
        pytest.param([["a"], facts_to_data(_facts(1))], id="a-list"),
        pytest.param({"key": "shop.m1", "facts": facts_to_data(_facts(1))}, id="key-as-text"),
    ],
)
def test_an_entry_without_a_recorded_key_is_a_miss(cache_dir: Path, entry: Any) -> None:
    _filled(cache_dir, 1)
    document, names = _edit_pack(cache_dir)
    document["entries"][names[1]] = entry
    _pack(cache_dir).write_text(json.dumps(document), encoding="utf-8")
    assert DiskExtractionCache(cache_dir, NAMESPACE).get(_key(1)) is None


def test_a_pack_over_the_size_limit_is_ignored(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(cache_dir, 1)
    monkeypatch.setattr(disk_cache, "MAX_PACK_BYTES", 10)
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    assert len(cache.warnings) == 1 and "larger than 512 MiB" in cache.warnings[0]


# -- what is not a regular file --------------------------------------------------------


class _Blocked(BaseException):
    """Not an OSError (TimeoutError is one), so no `except OSError` in the cache eats it."""


@contextlib.contextmanager
def _within(seconds: int) -> Iterator[None]:
    """Fail instead of hanging when the body blocks (opening a FIFO nobody writes)."""

    def expire(signum: int, frame: object) -> None:
        raise _Blocked(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _make_special(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        try:  # a twin of /dev/null; only root may make one
            os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device node needs root")
    else:
        path.mkdir()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_device_in_place_of_the_pack_is_a_miss_and_is_replaced(
    cache_dir: Path, kind: str
) -> None:
    _filled(cache_dir, 1)
    _pack(cache_dir).unlink()
    _make_special(_pack(cache_dir), kind)
    with _within(5):
        _assert_miss_then_healed(cache_dir)
    assert stat.S_ISREG(os.lstat(_pack(cache_dir)).st_mode)


def test_a_directory_in_place_of_the_pack_is_a_miss_and_is_left_alone(cache_dir: Path) -> None:
    _filled(cache_dir, 1)
    _pack(cache_dir).unlink()
    _pack(cache_dir).mkdir()
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    assert cache.get(_key(1)) is None
    cache.put(_key(1), _facts(1))
    cache.flush(prune=False)
    assert _pack(cache_dir).is_dir()
    assert len(cache.warnings) == 1
    assert cache.warnings[0].startswith("the extraction cache was not saved: ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_fifo_markers_are_replaced_and_a_linked_marker_is_left_alone(
    cache_dir: Path, tmp_path: Path
) -> None:
    cache_dir.mkdir(parents=True)
    os.mkfifo(cache_dir / "CACHEDIR.TAG")
    mine = tmp_path / "mine"
    mine.write_text("mine\n", encoding="ascii")
    (cache_dir / ".gitignore").symlink_to(mine)
    with _within(5):
        _filled(cache_dir, 1)
    assert stat.S_ISREG(os.lstat(cache_dir / "CACHEDIR.TAG").st_mode)
    assert (cache_dir / "CACHEDIR.TAG").read_text(encoding="ascii") == CACHEDIR_TAG
    assert (cache_dir / ".gitignore").is_symlink()
    assert mine.read_text(encoding="ascii") == "mine\n"


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


@pytest.mark.parametrize("linked", ["cache", ".inwards", "namespace"])
def test_a_symlinked_cache_directory_is_refused(tmp_path: Path, linked: str) -> None:
    project = tmp_path / "project"
    target = tmp_path / "target"
    target.mkdir()
    project.mkdir()
    cache_dir = project / ".inwards" / "cache"
    if linked == ".inwards":
        (project / ".inwards").symlink_to(target)
    elif linked == "cache":
        (project / ".inwards").mkdir()
        cache_dir.symlink_to(target)
    else:
        cache_dir.mkdir(parents=True)
        (cache_dir / namespace_folder(NAMESPACE)).symlink_to(target)
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    cache.put(_key(1), _facts(1))
    cache.flush(prune=False)
    assert list(target.iterdir()) == []
    assert len(cache.warnings) == 1 and "is a symlink" in cache.warnings[0]
    if linked == "namespace":  # nothing else was written beside the link either
        assert [p.name for p in cache_dir.iterdir()] == [namespace_folder(NAMESPACE)]


def test_symlinked_component_names_the_first_link_on_the_way(tmp_path: Path) -> None:
    cache_dir = tmp_path / ".inwards" / "cache"
    assert symlinked_component(cache_dir) is None  # absent is fine
    cache_dir.mkdir(parents=True)
    (cache_dir / "folder").symlink_to(tmp_path)
    assert symlinked_component(cache_dir) is None
    assert symlinked_component(cache_dir, cache_dir / "folder") == cache_dir / "folder"


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
    young = folder / f"facts.json.{os.getpid()}.cafebabe.tmp"  # a live writer's
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
    assert document["format"] == 2
    written = {n for offset in (0, 1_000_000) for n in range(offset, offset + rounds)}
    cache = DiskExtractionCache(cache_dir, NAMESPACE)
    hits = {n for n in written if cache.get(_key(n)) == _facts(n)}
    # Every entry left is whole and one of ours. Merges are made under a lock, so without
    # prune nothing is lost; a prune drops the other run's entries by design.
    assert len(hits) == len(document["entries"]) > 0
    if not prune_every:
        assert hits == written
    assert [p.name for p in _pack(cache_dir).parent.iterdir()] == ["facts.json"]
