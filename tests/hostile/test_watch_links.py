"""`check --watch` watches only the project's own directories: never through a link that
leads out of it, so the watches it holds don't grow with what the link leads to, and a
save there wakes no check. Counted in a real `inwards check --watch` process (Linux: its
inotify descriptors' watches, as /proc shows them)."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers import NO_USER_CONFIG, WAIT, inwards_executable, read_lines, until_line
from tests.hostile.harness import inotify_watches, layered_project

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="counts inotify watches")
OUTWARD = "import shop.adapters\n"


@contextlib.contextmanager
def _watching(project: Path) -> Iterator[tuple[subprocess.Popen[str], queue.Queue[str]]]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    process = subprocess.Popen(
        [*inwards_executable(), "check", "--watch", "--format", "concise"],
        cwd=project,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def _settled_watches(pid: int) -> int:
    """The watch count once it has stayed the same for a second (the watcher is in place)."""
    last, same_since = -1, time.monotonic()
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        count = inotify_watches(pid)
        if count != last:
            last, same_since = count, time.monotonic()
        elif count and time.monotonic() - same_since >= 1.0:
            return count
        time.sleep(0.1)
    pytest.fail(f"the watch count did not settle within {WAIT} s (last {last})")


def _own_directories(project: Path) -> int:
    """The project's real directories, the cache's aside (links are not walked)."""
    return sum(
        1
        for top, _, _ in os.walk(project)
        if Path(top).relative_to(project).parts[:2] != (".inwards", "cache")
    )


def test_watch_never_watches_through_a_link_out_of_the_project(tmp_path: Path) -> None:
    """`src/shop/ext` leads to a tree of 300 directories outside the project: the watch
    holds one watch per directory of the project (not 300 more), a save and new
    directories out there wake nothing, and a package made later in the project is
    watched (its outward import is reported) while a link out made later adds no watch."""
    outside = tmp_path / "elsewhere"
    for index in range(300):
        (outside / f"d{index}").mkdir(parents=True)
    (outside / "d0" / "mod.py").write_text("x = 1\n")
    project = layered_project(tmp_path / "project", {"src/shop/domain/model.py": "x = 1\n"})
    (project / "src/shop/ext").symlink_to(outside, target_is_directory=True)
    with _watching(project) as (process, lines):
        assert any(line.startswith("All clear") for line in until_line(lines, "Watching"))
        watches = _settled_watches(process.pid)
        assert watches == _own_directories(project)

        (outside / "d0" / "mod.py").write_text(OUTWARD)
        for index in range(100):
            (outside / f"new{index}").mkdir()
        time.sleep(2.0)  # the debounce (0.4 s) and more: a check woken would have printed
        assert lines.empty(), lines.get()
        assert inotify_watches(process.pid) == watches

        fresh = project / "src/shop/domain/fresh"
        fresh.mkdir()
        module = fresh / "__init__.py"
        module.write_text(OUTWARD)
        changed = until_line(lines, " new, ", poke=lambda: module.write_text(OUTWARD))
        assert any("src/shop/domain/fresh/__init__.py:" in line for line in changed), changed
        assert changed[-1].startswith("1 new, 0 gone."), changed
        assert _settled_watches(process.pid) == watches + 1

        (project / "src/shop/ext2").symlink_to(outside, target_is_directory=True)
        until_line(lines, " new, ")  # the tree is listed again: the link is not followed
        assert _settled_watches(process.pid) == watches + 1
        # SIGTERM ends the watch as it ends any run (Ctrl-C is its way to stop, with 0).
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=WAIT)
        assert process.returncode == 143
        assert stderr.endswith("\ninwards: terminated by SIGTERM\n"), stderr
