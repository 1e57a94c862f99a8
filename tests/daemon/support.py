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
