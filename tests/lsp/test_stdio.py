"""`inwards server`'s stdio: messages are read on the event loop when stdin is a pipe (what
every editor gives; tests/lsp/test_server.py drives it so), and through pygls's own reader
when stdin is a regular file, which the loop can't wait on."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import IO

from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable


def framed(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def answers(stdout: bytes) -> list[dict[str, object]]:
    found = []
    while stdout:
        headers, _, rest = stdout.partition(b"\r\n\r\n")
        fields = dict(line.split(b": ", 1) for line in headers.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        found.append(json.loads(rest[:length]))
        stdout = rest[length:]
    return found


SESSION = b"".join(
    framed(message)
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": {}},
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    )
)


def run_server(stdin: IO[bytes], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*inwards_executable(), "server"],
        stdin=stdin,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "XDG_CONFIG_HOME": str(NO_USER_CONFIG)},
        timeout=60,
        check=False,
    )


def test_a_session_over_a_pipe_and_over_a_regular_file_gets_the_same_answers(
    tmp_path: Path,
) -> None:
    recorded = tmp_path / "session.bin"
    recorded.write_bytes(SESSION)
    with recorded.open("rb") as regular:
        from_file = run_server(regular, tmp_path)
    read, write = os.pipe()
    os.write(write, SESSION)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        from_pipe = run_server(pipe, tmp_path)
    for done in (from_file, from_pipe):
        assert done.returncode == 0, done.stderr.decode()
        replies = {reply["id"]: reply for reply in answers(done.stdout) if "id" in reply}
        initialized = replies[1]["result"]
        assert isinstance(initialized, dict)
        assert initialized["serverInfo"] == {
            "name": "inwards",
            "version": initialized["serverInfo"]["version"],
        }
        assert replies[2]["result"] is None
    assert answers(from_file.stdout) == answers(from_pipe.stdout)
