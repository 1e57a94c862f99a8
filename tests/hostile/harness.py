"""Run the installed `inwards` as an attacker's input would meet it: in a subprocess under
a time and memory limit (`resource.setrlimit`), so a case passes only when the run ends
within its budget, with the contracted exit code and message.

`Budget.memory_mb` caps the address space of the inwards process (RLIMIT_AS); the workers
it forks inherit that cap. `Budget.seconds` is wall-clock time for the whole run: past it
the whole process group is killed and the test fails saying so.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO

import attrs
import pytest

from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable, write_tree

LAYERED_CONFIG = """\
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""


@attrs.frozen
class Budget:
    seconds: float
    memory_mb: int = 2048


@attrs.frozen
class LimitedRun:
    code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def _limits(budget: Budget, extra: Mapping[int, tuple[int, int]]) -> Callable[[], None]:
    def apply() -> None:
        memory = budget.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        cpu = int(budget.seconds * 2) + 1  # a backstop: the wall clock is what is judged
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        for which, value in extra.items():
            resource.setrlimit(which, value)

    return apply


def run_limited(
    *args: str,
    cwd: Path,
    budget: Budget,
    env: Mapping[str, str] | None = None,
    command: list[str] | None = None,
    stdout: IO[bytes] | int | None = None,
    limits: Mapping[int, tuple[int, int]] | None = None,
    stdin: bytes | None = None,
) -> LimitedRun:
    """Run `inwards ARGS` (or `command + ARGS`) in `cwd` under `budget`; fail the test when
    it does not end within `budget.seconds`. With `stdout` given, standard output goes there
    (a file, /dev/full, ...) and `LimitedRun.stdout` is empty; `stdin` is what standard
    input reads (nothing by default)."""
    started = time.monotonic()
    process = start_limited(
        *args,
        cwd=cwd,
        budget=budget,
        env=env,
        command=command,
        stdout=stdout,
        limits=limits,
        stdin=stdin,
    )
    try:
        out, err = process.communicate(input=stdin, timeout=budget.seconds)
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        out, err = process.communicate()
        pytest.fail(
            f"inwards {' '.join(args)} did not end within {budget.seconds} s\n"
            f"stdout: {(out or b'')[-2000:]!r}\nstderr: {(err or b'')[-2000:]!r}"
        )
    finally:
        kill_group(process.pid)  # nothing it started may outlive the test
    return LimitedRun(
        process.returncode,
        (out or b"").decode("utf-8", "replace"),
        (err or b"").decode("utf-8", "replace"),
        time.monotonic() - started,
    )


def start_limited(
    *args: str,
    cwd: Path,
    budget: Budget,
    env: Mapping[str, str] | None = None,
    command: list[str] | None = None,
    stdout: IO[bytes] | int | None = None,
    limits: Mapping[int, tuple[int, int]] | None = None,
    stdin: bytes | None = None,
) -> subprocess.Popen[bytes]:
    """Start `inwards ARGS` as `run_limited` runs it, in a session of its own; the caller
    waits for it (with `budget.seconds`) and kills its group (`kill_group`)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    environment["INWARDS_DAEMON"] = "0"  # a hook run starts no resident daemon here
    environment.update(env or {})
    return subprocess.Popen(
        [*(command or inwards_executable()), *args],
        cwd=cwd,
        env=environment,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        preexec_fn=_limits(budget, limits or {}),
        start_new_session=True,  # the whole group (workers too) can be killed at once
    )


def kill_group(pid: int) -> None:
    """SIGKILL to every process of the session `start_limited` began."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def layered_project(
    root: Path, files: Mapping[str, str | bytes], config: str = LAYERED_CONFIG
) -> Path:
    """A project with `src/shop/{domain,adapters}` packages and `files` (paths relative to
    `root`) written as given."""
    tree: dict[str, str | bytes] = {
        "pyproject.toml": config,
        "src/shop/__init__.py": "",
        "src/shop/domain/__init__.py": "",
        "src/shop/adapters/__init__.py": "",
        **files,
    }
    return write_tree(root, tree)


def inotify_watches(pid: int) -> int:
    """How many inotify watches process `pid` holds: the `inotify wd:` lines of the fdinfo
    of each of its inotify descriptors (Linux)."""
    count = 0
    for descriptor in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/fd/{descriptor}") != "anon_inode:inotify":
                continue
            with open(f"/proc/{pid}/fdinfo/{descriptor}", encoding="ascii") as info:
                count += sum(1 for line in info if line.startswith("inotify wd:"))
    return count
