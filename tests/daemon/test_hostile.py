"""Whatever answers at the daemon's socket, or whatever lies in the runtime directory, a
hook's reply is the one-shot reply, and SessionStart and the Stop gate are never asked of a
daemon: a socket that is a link, a file, another user's; a runtime directory open to others
or a link; a daemon that answers garbage, hangs, closes mid-request, forges replies, runs
another inwards or protocol, is killed mid-request; two hook runs and two sessions at once.
Each case compares the reply with the same payload's in a twin project run one-shot."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from inwards_cli.daemon.client import ask
from inwards_cli.daemon.place import PROTOCOL
from tests.daemon.support import FakeDaemon, Served, reply, served_shop
from tests.e2e.claude_code import payload
from tests.e2e.helpers import inwards_executable

ORDER = "src/shop/domain/order.py"
VIOLATION = "from shop.adapters.outbound.sql_orders import SqlOrders\n"
NO_START = {"CI": "1"}  # asks a daemon, starts none: what answers is the test's


def _violate(served: Served) -> None:
    with (served.project / ORDER).open("a") as stream:
        stream.write(VIOLATION)


def _twins(tmp_path: Path, runtime: Path, switch: str = "") -> tuple[Served, Served]:
    alone = served_shop(tmp_path, runtime, "0", "alone")
    hostile = served_shop(tmp_path, runtime, switch, "hostile")
    for served in (alone, hostile):
        served.send("session-start")
        _violate(served)
    return alone, hostile


def _socket_path(served: Served) -> str:
    folder = served.runtime / "inwards"
    folder.mkdir(mode=0o700, exist_ok=True)
    return served.places().socket


def _same(alone: Served, hostile: Served, name: str = "post-tool-use-edit") -> int:
    expected = reply(alone.send(name), alone.project)
    got = reply(hostile.send(name, env=NO_START), hostile.project)
    assert got == expected
    return got[0]


@pytest.mark.parametrize(
    "behaviour",
    ["garbage", "hang", "close", "other-identity", "other-protocol", "bad-exit"],
)
def test_a_daemon_that_cannot_be_trusted_is_not(
    tmp_path: Path, runtime: Path, behaviour: str
) -> None:
    alone, hostile = _twins(tmp_path, runtime)
    fake = FakeDaemon(_socket_path(hostile), behaviour)
    try:
        started = time.monotonic()
        assert _same(alone, hostile) == 2  # the new violation blocks, as one-shot
        assert fake.events == ["PostToolUse"]  # it was asked, and not believed
        if behaviour == "hang":
            assert time.monotonic() - started >= 3.0  # the client's wait, then one-shot
    finally:
        fake.close()


def test_a_forged_daemon_never_answers_session_start_or_the_stop_gate(
    tmp_path: Path, runtime: Path
) -> None:
    alone, hostile = _twins(tmp_path, runtime)
    fake = FakeDaemon(_socket_path(hostile), "forged")
    try:
        # A forged reply lets one edit through (the daemon is trusted with PostToolUse)...
        assert hostile.send("post-tool-use-edit", env=NO_START).code == 0
        # ... but the Stop gate is one-shot: the turn does not end on the violation.
        assert _same(alone, hostile, "stop") == 2
        assert "Stop" not in fake.events and "SessionStart" not in fake.events
    finally:
        fake.close()


@pytest.mark.parametrize("kind", ["link", "file", "other-user"])
def test_a_socket_that_is_not_the_users_own_is_not_used(
    tmp_path: Path, runtime: Path, kind: str
) -> None:
    alone, hostile = _twins(tmp_path, runtime)
    path = _socket_path(hostile)
    elsewhere = runtime / "elsewhere.sock"
    fake = FakeDaemon(str(elsewhere) if kind != "other-user" else path, "forged")
    try:
        if kind == "link":
            os.symlink(elsewhere, path)
        elif kind == "file":
            Path(path).write_text("")
        else:
            if os.geteuid() != 0:
                pytest.skip("giving a socket to another user needs root")
            os.chown(path, 65534, 65534)
        assert _same(alone, hostile) == 2
        assert fake.events == []  # never connected
    finally:
        fake.close()


@pytest.mark.parametrize("kind", ["open", "link"])
def test_a_runtime_directory_that_is_not_private_is_not_used(
    tmp_path: Path, runtime: Path, kind: str
) -> None:
    alone, hostile = _twins(tmp_path, runtime)
    real = runtime / "real"
    real.mkdir(mode=0o700)
    if kind == "link":
        os.symlink(real, runtime / "inwards")
        folder = real
    else:
        folder = runtime / "inwards"
        folder.mkdir()
        os.chmod(folder, 0o777)
    fake = FakeDaemon(
        hostile.places().socket.replace(str(runtime / "inwards"), str(folder)), "forged"
    )
    try:
        # Not even asked, and no daemon started (INWARDS_DAEMON=1 would start one).
        expected = reply(alone.send("post-tool-use-edit"), alone.project)
        got = reply(
            hostile.send("post-tool-use-edit", env={"INWARDS_DAEMON": "1"}), hostile.project
        )
        assert got == expected and got[0] == 2
        assert fake.events == []
        status = hostile.inwards("daemon", "status")
        assert status.code == 2 and "the runtime directory can't be used" in status.stderr
    finally:
        fake.close()


def test_a_daemon_killed_mid_request(tmp_path: Path, runtime: Path) -> None:
    alone, hostile = _twins(tmp_path, runtime, switch="1")
    hostile.start_daemon()
    pid = hostile.status()["pid"]  # type: ignore[index]
    assert isinstance(pid, int)
    os.kill(pid, signal.SIGSTOP)  # it takes the request and never answers...
    document = payload("post-tool-use-edit", hostile.project)
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")},
        **hostile.env,
        "CLAUDE_PROJECT_DIR": str(hostile.project),
        "XDG_CONFIG_HOME": str(Path(__file__).resolve().parents[1] / "fixtures/no-user-config"),
    }
    process = subprocess.Popen(
        [*inwards_executable(), "hook", "claude-code"],
        cwd=hostile.project,
        env=environment,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = (
        process.communicate(json.dumps(document).encode(), timeout=0.1) if False else (b"", b"")
    )
    assert process.stdin is not None
    process.stdin.write(json.dumps(document).encode())
    process.stdin.close()
    time.sleep(1.0)
    os.kill(pid, signal.SIGKILL)  # ... and dies with it
    assert process.wait(timeout=60) == 2
    expected = reply(alone.send("post-tool-use-edit"), alone.project)
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.read().decode(), process.stderr.read().decode()
    assert (
        2,
        out.replace(str(hostile.project), "$PROJECT"),
        err.replace(str(hostile.project), "$PROJECT"),
    ) == expected
    # The socket it left is stale: a later run starts a new daemon (on a busy machine the
    # run that met the dead one may already have, and the new one answers the next run
    # too), and the new daemon answers.
    assert os.path.exists(hostile.places().socket)
    assert reply(hostile.send("post-tool-use-edit"), hostile.project)[0] == 2
    assert hostile.wait_for_daemon()["pid"] != pid
    assert reply(hostile.send("post-tool-use-edit"), hostile.project)[0] == 2
    assert hostile.requests() in (1, 2)


def test_two_hook_runs_and_two_sessions_at_once(tmp_path: Path, runtime: Path) -> None:
    served = served_shop(tmp_path, runtime, "1")
    served.start_daemon()
    sessions = ["session-one", "session-two"]
    for session in sessions:
        assert served.send("session-start", session_id=session).code == 0
    _violate(served)
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")},
        **served.env,
        "CLAUDE_PROJECT_DIR": str(served.project),
        "XDG_CONFIG_HOME": str(Path(__file__).resolve().parents[1] / "fixtures/no-user-config"),
    }
    running = []
    for session in sessions * 2:
        process = subprocess.Popen(
            [*inwards_executable(), "hook", "claude-code"],
            cwd=served.project,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdin is not None
        process.stdin.write(
            json.dumps(payload("post-tool-use-edit", served.project, session_id=session)).encode()
        )
        process.stdin.close()
        running.append(process)
    results = [(process.wait(timeout=120), process.stderr) for process in running]
    assert [code for code, _ in results] == [2, 2, 2, 2]
    for session in sessions:
        from tests.daemon.support import log_events

        events = [entry["event"] for entry in log_events(served, session)]
        assert events == ["SessionStart", "PostToolUse", "PostToolUse"]
    assert served.requests() >= 1


def test_a_daemon_of_another_inwards_leaves_when_asked(tmp_path: Path, runtime: Path) -> None:
    served = served_shop(tmp_path, runtime, "1")
    served.start_daemon()
    request = {"protocol": PROTOCOL, "identity": "0" * 32, "kind": "hook"}
    answer = ask(served.places().socket, request, None)
    assert answer is not None and answer["status"] == "mismatch"
    deadline = time.monotonic() + 10
    while served.status() is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert served.status() is None
    assert not os.path.exists(served.places().socket)


def test_another_environment_is_answered_one_shot(tmp_path: Path, runtime: Path) -> None:
    alone, hostile = _twins(tmp_path, runtime, switch="1")
    hostile.start_daemon()
    other_home = tmp_path / "other-home"
    other_home.mkdir()
    expected = reply(alone.send("post-tool-use-edit", env={"HOME": str(other_home)}), alone.project)
    got = reply(hostile.send("post-tool-use-edit", env={"HOME": str(other_home)}), hostile.project)
    assert got == expected and got[0] == 2
    assert hostile.requests() == 0  # refused, and still serving its own
