"""The extraction cache, seen from outside: where it lives, what bypasses it, how it
survives damage and two runs at once."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.e2e.helpers import inwards_executable, run_inwards


def _pack(project: Path) -> Path:
    (pack,) = (project / ".inwards" / "cache").glob("extraction-*/facts.json")
    return pack


def _forget_memos(project: Path) -> None:
    for memo in (project / ".inwards" / "cache").glob("findings-*.json"):
        memo.unlink()


def test_cache_is_written_and_reused(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    first = run_inwards("check", "--format", "json", cwd=project)
    cache = project / ".inwards" / "cache"
    assert (
        (cache / "CACHEDIR.TAG")
        .read_text(encoding="utf-8")
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    pack = _pack(project)
    assert pack.stat().st_mode & 0o777 == 0o600
    entries = json.loads(pack.read_text(encoding="utf-8"))["entries"]
    # 17 modules the layers own, and `shop/__init__.py`: read for INW010 (whether the
    # package above `shop.domain.pricng` extends `__path__`).
    assert len(entries) == 18
    second = run_inwards("check", "--format", "json", cwd=project)
    strip = lambda text: json.loads(text)["diagnostics"]  # noqa: E731
    assert strip(first.stdout) == strip(second.stdout)


def test_no_cache_flag_and_environment_write_nothing(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop")
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    assert (project / ".inwards" / "rules").is_dir()  # the example's committed project rule
    assert run_inwards("check", "--no-cache", cwd=project).code == 0
    assert not (project / ".inwards" / "cache").exists()
    assert run_inwards("check", cwd=project, env={"INWARDS_NO_CACHE": "1"}).code == 0
    assert not (project / ".inwards" / "cache").exists()
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


def test_corrupt_and_truncated_caches_are_misses(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    clean = run_inwards("check", cwd=project)
    pack = _pack(project)
    data = pack.read_bytes()
    for damage in (data[: len(data) // 2], b"\x00\xff garbage", b'{"format": 1, "entries": []}'):
        pack.write_bytes(damage)
        _forget_memos(project)  # else the run's report is remembered and no facts are read
        again = run_inwards("check", cwd=project)
        assert again.code == clean.code
        assert again.stderr == ""
        assert again.stdout.split("Found")[0] == clean.stdout.split("Found")[0]
    # the damaged pack was rewritten whole
    assert len(json.loads(pack.read_text(encoding="utf-8"))["entries"]) == 18


def test_a_changed_file_is_read_again(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop")
    assert run_inwards("check", cwd=project).code == 0
    order = project / "src/shop/domain/order.py"
    order.write_text(order.read_text() + "from shop.bootstrap import main\n", encoding="utf-8")
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1
    assert [d["code"] for d in json.loads(run.stdout)["diagnostics"]] == ["INW001"]


def test_two_runs_at_once_both_succeed(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    command = [*inwards_executable(), "check", "--format", "json"]
    processes = [
        subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    results = [process.communicate(timeout=120) for process in processes]
    assert [process.returncode for process in processes] == [1, 1, 1, 1]
    documents = [json.loads(out)["diagnostics"] for out, _ in results]
    assert all(document == documents[0] for document in documents)
    assert all(err == b"" for _, err in results)
    assert len(json.loads(_pack(project).read_text(encoding="utf-8"))["entries"]) == 18
