"""A writer killed between writing its temp file and renaming it (SIGKILL, a power cut)
leaves `<file>.<pid>.<hex>.tmp` beside the baseline or in the cache. The next write of the
same file removes those of writers that no longer run, and keeps a live writer's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.e2e.helpers import EXAMPLES
from tests.hostile.harness import Budget, run_limited

QUICK = Budget(seconds=30, memory_mb=2048)


def _dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def test_the_temp_files_of_dead_writers_are_swept_on_the_next_write(tmp_path: Path) -> None:
    shop = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop-violations", shop)
    dead = _dead_pid()
    stale_baseline = shop / f"inwards-baseline.json.{dead}.0badc0de.tmp"
    live_baseline = shop / f"inwards-baseline.json.{os.getpid()}.0badc0de.tmp"
    for temp in (stale_baseline, live_baseline):
        temp.write_text('{"half": ')
    run = run_limited("baseline", cwd=shop, budget=QUICK)
    assert run.code == 0, run.output
    assert (shop / "inwards-baseline.json").is_file()
    assert not stale_baseline.exists()
    assert live_baseline.exists()  # this test's own process still runs
    cache = shop / ".inwards" / "cache"
    before = {
        path.relative_to(cache).as_posix(): path.stat().st_mtime_ns
        for path in cache.rglob("*")
        if path.is_file()
    }
    for name in before:
        (cache / f"{name}.{dead}.0badc0de.tmp").write_bytes(b"half")
    order = shop / "src/shop/domain/order.py"
    order.write_text(order.read_text() + "\nX = 1\n")
    run = run_limited("check", "--format", "json", cwd=shop, budget=QUICK)
    assert run.code == 0, run.output  # the baseline accepts the example's findings
    rewritten = [name for name in before if (cache / name).stat().st_mtime_ns != before[name]]
    assert rewritten  # the edit made the run write the cache again
    for name in rewritten:
        assert not (cache / f"{name}.{dead}.0badc0de.tmp").exists(), name
