"""Driving the hooks of one project with or without its daemon, and comparing the replies."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.daemon.client import ask
from inwards_cli.daemon.place import PROTOCOL, Places, real_project
from tests.e2e.claude_code import Hook, payload, shop_project
from tests.e2e.helpers import Run, run_inwards


@attrs.frozen
class Served:
    """A project's hooks, run with `INWARDS_DAEMON=switch` and the runtime directory."""

    hook: Hook
    runtime: Path
    switch: str

    @property
    def project(self) -> Path:
        return self.hook.project

    @property
    def env(self) -> dict[str, str]:
        # HOME as the hook's (`Hook` sets it): a daemon serves only runs of its environment.
        return {
            "INWARDS_DAEMON": self.switch,
            "XDG_RUNTIME_DIR": str(self.runtime),
            "HOME": str(self.hook.home),
        }

    def send(self, name: str, env: dict[str, str] | None = None, **changes: Any) -> Run:
        return self.hook(payload(name, self.project, **changes), env={**self.env, **(env or {})})

    def inwards(self, *args: str, env: dict[str, str] | None = None) -> Run:
        return run_inwards(*args, cwd=self.project, env={**self.env, **(env or {})}, stdin=b"")

    def start_daemon(self) -> None:
        run = self.inwards("daemon", "--project", str(self.project), "--idle", "300")
        assert run.code == 0 and "serving" in run.stdout, run

    def places(self) -> Places:
        return Places(str(self.runtime / "inwards"), real_project(str(self.project)))

    def status(self) -> dict[str, object] | None:
        return ask(self.places().socket, {"protocol": PROTOCOL, "kind": "status"}, None)

    def requests(self) -> int:
        answer = self.status()
        assert answer is not None, "no daemon serves the project"
        count = answer["requests"]
        assert isinstance(count, int)
        return count

    def wait_for_daemon(self, seconds: float = 60.0) -> dict[str, object]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            answer = self.status()
            if answer is not None:
                return answer
            time.sleep(0.1)
        raise AssertionError("no daemon came to serve the project")


def served_shop(tmp_path: Path, runtime: Path, switch: str, name: str = "shop") -> Served:
    folder = tmp_path / name
    folder.mkdir()
    return Served(shop_project(folder), runtime, switch)


def reply(run: Run, project: Path) -> tuple[int, str, str]:
    """A reply with the project's path taken out (two copies are compared)."""
    return (
        run.code,
        run.stdout.replace(str(project), "$PROJECT"),
        run.stderr.replace(str(project), "$PROJECT"),
    )


def log_events(served: Served, session: str) -> list[dict[str, Any]]:
    from inwards_cli.agents.state import session_stem

    path = served.project / ".inwards" / "state" / f"{session_stem(session)}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


class FakeDaemon:
    """A thread that listens at a socket path and answers every connection as `behaviour`
    says: "garbage", "hang", "close" (reads the request, then closes), "forged" (a well-formed
    reply with this installation's identity: exit 0, nothing written), "other-identity",
    "other-protocol", "bad-exit" (exit status 5). It records the events it was asked about."""

    def __init__(self, path: str, behaviour: str) -> None:
        import socket
        import threading

        self.behaviour = behaviour
        self.events: list[object] = []
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(8)
        self._listener.settimeout(0.2)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._done.set()
        self._thread.join(timeout=10)
        self._listener.close()

    def _serve(self) -> None:
        while not self._done.is_set():
            try:
                connection, _ = self._listener.accept()
            except TimeoutError:
                continue
            with connection:
                self._answer(connection)

    def _answer(self, connection: Any) -> None:
        from inwards_cli.daemon.place import identity

        connection.settimeout(5)
        data = b""
        while not data.endswith(b"\n"):
            chunk = connection.recv(65536)
            if not chunk:
                return
            data += chunk
        request = json.loads(data)
        self.events.append(json.loads(request.get("payload", "{}")).get("hook_event_name"))
        if self.behaviour == "hang":
            self._done.wait(8)
            return
        if self.behaviour == "close":
            return
        if self.behaviour == "garbage":
            connection.sendall(b"\x00not json at all\n")
            return
        answer = {
            "protocol": PROTOCOL,
            "identity": identity(),
            "status": "ok",
            "exit": 0,
            "stdout": "",
            "stderr": "",
        }
        if self.behaviour == "other-identity":
            answer["identity"] = "0" * 32
        elif self.behaviour == "other-protocol":
            answer["protocol"] = "inwards-daemon/0"
        elif self.behaviour == "bad-exit":
            answer["exit"] = 5
        connection.sendall(json.dumps(answer).encode() + b"\n")
