"""A writer killed between writing its temp file and renaming it (SIGKILL, a power cut)
leaves `<file>.<pid>.<hex>.tmp` beside the baseline or in the cache. The next write of the
same file removes those of writers that no longer run, and keeps a live writer's. A writer
stopped by SIGTERM removes its own before it ends."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import EXAMPLES
from tests.hostile.harness import (
    Budget,
    kill_group,
    layered_project,
    run_limited,
    start_limited,
)

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


OLD_BASELINE = b'{"written by": "an earlier run"}\n'


def _shop_of_many_findings(root: Path) -> Path:
    """Two modules of the inner layer, each importing 20,000 names from the outer one: a
    finding each, so the baseline (6 MB) and the cache's memo of the run (55 MB) take a
    while to write."""
    names = ", ".join(f"n{index}" for index in range(20_000))
    outward = f"from shop.adapters import ({names})\n"
    return layered_project(root, {f"src/shop/domain/m{k}.py": outward for k in range(2)})


def _terminated_when_it_writes(project: Path, args: tuple[str, ...], where: Path) -> str | None:
    """Run `inwards ARGS` and send it SIGTERM as soon as a temp file shows in `where` (it is
    writing); the temp file seen, or None when the run ended first. The run must end
    within its budget: 143 and one line when stopped, else as it would have."""
    # Its report goes nowhere: unread, a full pipe would stop it before it writes anything.
    process = start_limited(
        *args, cwd=project, budget=Budget(seconds=60), stdout=subprocess.DEVNULL
    )
    seen = None
    deadline = time.monotonic() + 60
    try:
        while process.poll() is None and seen is None and time.monotonic() < deadline:
            with os.scandir(where) as entries:  # about 20 µs a look: the writes take ms
                seen = next((e.name for e in entries if e.name.endswith(".tmp")), None)
        if seen is not None:
            process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        kill_group(process.pid)
    if seen is not None and process.returncode == 143:
        assert stderr == b"inwards: terminated by SIGTERM\n", stderr
    else:  # the signal came after the run was done with its last write
        assert process.returncode in (0, 1), stderr
    return seen


@pytest.mark.parametrize("command", ["baseline", "check"])
def test_sigterm_in_the_middle_of_a_write_leaves_no_temp_file(tmp_path: Path, command: str) -> None:
    """SIGTERM while `baseline` writes inwards-baseline.json, or while `check` writes the
    cache: the temp file is removed, and the file is the old one or the new one whole."""
    project = _shop_of_many_findings(tmp_path / "shop")
    baseline = project / "inwards-baseline.json"
    cache = project / ".inwards" / "cache"
    if command == "baseline":
        baseline.write_bytes(OLD_BASELINE)
        run_limited("check", cwd=project, budget=Budget(seconds=60))  # the memo is written
        where = project
    else:
        cache.mkdir(parents=True)
        where = cache
    hits = 0
    for _ in range(2):
        seen = _terminated_when_it_writes(project, (command,), where)
        hits += seen is not None
        assert sorted(p.name for p in project.rglob("*.tmp")) == []
        for memo in cache.glob("*.json"):
            json.loads(memo.read_bytes())  # whole, or not there
        if command == "baseline":
            assert baseline.read_bytes() in (OLD_BASELINE, _complete_baseline(project))
    assert hits, "no run was seen writing: the project is too small to stop one mid-write"


def _complete_baseline(project: Path) -> bytes:
    twin = project.parent / "twin"
    if not twin.exists():
        shutil.copytree(project, twin, ignore=shutil.ignore_patterns(".inwards"))
        assert run_limited("baseline", cwd=twin, budget=Budget(seconds=60)).code == 0
    return (twin / "inwards-baseline.json").read_bytes()
