"""`inwards daemon`, `daemon status` and `daemon stop` through the installed command, and the
daemon a hook starts by itself: where its files are and who may read them, one per project,
the idle timeout, `CI` and `INWARDS_DAEMON`, the back-off after a failed start, and a hook
path that imports almost nothing when the daemon answers."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

from tests.daemon.support import served_shop
from tests.e2e.claude_code import payload
from tests.e2e.helpers import NO_USER_CONFIG


def test_start_status_stop(tmp_path: Path, runtime: Path) -> None:
    served = served_shop(tmp_path, runtime, "1")
    assert served.inwards("daemon", "status").code == 1
    started = served.inwards("daemon", "--idle", "300")
    assert started.code == 0, started
    assert started.stdout.startswith(f"inwards daemon: serving {served.project.resolve()} (pid ")
    folder = runtime / "inwards"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    socket = Path(served.places().socket)
    assert stat.S_ISSOCK(socket.lstat().st_mode)
    assert stat.S_IMODE(socket.lstat().st_mode) == 0o600
    assert stat.S_IMODE(Path(served.places().lock).stat().st_mode) == 0o600
    status = served.inwards("daemon", "status")
    assert status.code == 0 and "0 hook requests answered" in status.stdout, status
    # One per project: starting again finds the one serving.
    pid = served.status()["pid"]  # type: ignore[index]
    assert served.inwards("daemon", "--idle", "300").code == 0
    again = served.inwards("daemon", "--foreground")
    assert again.code == 0 and "another daemon already serves" in again.stderr
    assert served.status()["pid"] == pid  # type: ignore[index]
    stopped = served.inwards("daemon", "stop")
    assert stopped.code == 0 and stopped.stdout.startswith("inwards daemon: stopped the daemon")
    assert not socket.exists()
    assert served.inwards("daemon", "status").code == 1
    assert served.inwards("daemon", "stop").stdout.startswith("inwards daemon: no daemon serves")


def test_an_idle_daemon_exits(tmp_path: Path, runtime: Path) -> None:
    served = served_shop(tmp_path, runtime, "1")
    assert served.inwards("daemon", "--idle", "1").code == 0
    deadline = time.monotonic() + 30
    while served.status() is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert served.status() is None
    assert not os.path.exists(served.places().socket)


def test_the_first_hook_starts_one_unless_ci_or_switched_off(tmp_path: Path, runtime: Path) -> None:
    served = served_shop(tmp_path, runtime, "")
    for env in ({"CI": "1"}, {"INWARDS_DAEMON": "0"}):
        assert served.send("pre-tool-use-edit", env=env).code == 0
        time.sleep(1.0)
        assert served.status() is None
    # SessionStart and Stop never start one.
    assert served.send("session-start").code == 0
    assert served.send("stop").code == 0
    time.sleep(1.0)
    assert served.status() is None
    assert served.send("pre-tool-use-edit", env={"CI": "1", "INWARDS_DAEMON": "1"}).code == 0
    served.wait_for_daemon()
    assert served.send("post-tool-use-edit").code == 0
    assert served.requests() == 1


def test_a_failed_start_backs_off(tmp_path: Path, runtime: Path) -> None:
    served = served_shop(tmp_path, runtime, "1")
    folder = runtime / "inwards"
    folder.mkdir(mode=0o700)
    Path(served.places().socket).mkdir()  # in the way: the daemon can't bind there
    failed = served.inwards("daemon", "--idle", "300")
    assert failed.code == 1 and "no daemon could start" in failed.stdout
    backoff = Path(served.places().backoff)
    assert backoff.exists()
    before = backoff.stat().st_mtime_ns
    time.sleep(0.05)
    assert served.send("post-tool-use-edit", env={"INWARDS_DAEMON": ""}).code == 0
    time.sleep(1.0)
    assert backoff.stat().st_mtime_ns == before  # no hook tried again
    assert not Path(served.places().lock).exists() or served.status() is None


def test_the_hook_answered_by_the_daemon_imports_next_to_nothing(
    tmp_path: Path, runtime: Path
) -> None:
    """With a daemon answering, a PostToolUse run imports none of the hook's own modules,
    nor typing, pathlib, typer or anything of inwards_core: its start is the interpreter's."""
    served = served_shop(tmp_path, runtime, "1")
    served.start_daemon()
    document = payload("post-tool-use-edit", served.project)
    environment = {
        "PATH": "/usr/bin:/bin",
        "XDG_CONFIG_HOME": str(NO_USER_CONFIG),
        "CLAUDE_PROJECT_DIR": str(served.project),
        **served.env,
    }

    def imported(*args: str, stdin: bytes = b"") -> set[str]:
        run = subprocess.run(
            [sys.executable, "-X", "importtime", *args],
            cwd=served.project,
            input=stdin,
            capture_output=True,
            env=environment,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        return {
            line.rsplit("|", 1)[1].strip()
            for line in run.stderr.decode().splitlines()
            if line.startswith("import time:") and "|" in line
        }

    # What the interpreter's own start imports (site, an editable install's finder) aside.
    start = imported("-c", "pass")
    names = imported(
        "-m", "inwards_cli", "hook", "claude-code", stdin=json.dumps(document).encode()
    )
    assert "inwards_cli.daemon.client" in names, "the importtime report was not read"
    assert served.requests() == 1
    heavy = ("typing", "pathlib", "typer", "socket", "inwards_core", "inwards_cli.agents")
    found = sorted(
        name
        for name in names - start
        if any(name == module or name.startswith(module + ".") for module in heavy)
    )
    assert not found, f"the daemon's client imported {found}"
