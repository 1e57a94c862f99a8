"""`inwards hook claude-code` on hostile input: every run ends within its budget, never
follows a link out of the project, never writes through one, never reads the extraction
cache, and fails open (exit 1, one line) on what it can't use, never exit 2 by accident."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.claude_code import SETTINGS, payload
from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable
from tests.hostile.harness import Budget, LimitedRun, layered_project, run_limited

BUDGET = Budget(seconds=60, memory_mb=1024)
SESSION = "6f1c3a52-94d0-4b7e-8a21-5c0e9b7d3f18"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = layered_project(
        tmp_path / "project",
        {
            "src/shop/domain/order.py": "from decimal import Decimal\n",
            "src/shop/adapters/db.py": "import sqlite3\n",
            ".claude/settings.json": json.dumps(SETTINGS),
        },
    )
    return root


def _hook(project: Path, data: bytes, **env: str) -> LimitedRun:
    environment = {"CLAUDE_PROJECT_DIR": str(project), "HOME": str(project / "home"), **env}
    return run_limited(
        "hook", "claude-code", cwd=project, budget=BUDGET, env=environment, stdin=data
    )


def _send(project: Path, name: str, **changes: object) -> LimitedRun:
    return _hook(project, json.dumps(payload(name, project, **changes)).encode())


def _fails_open(run: LimitedRun, start: str) -> None:
    assert run.code == 1, run
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(start), run.stderr


@pytest.mark.parametrize(
    ("data", "start"),
    [
        (b"{not json", "inwards: the hook payload is not JSON ("),
        (b"[1, 2]", "inwards: the hook payload is not a JSON object."),
        (b'{"hook_event_name": "Stop"}', "inwards: the hook payload has no session_id"),
        (
            b'{"session_id": "s", "hook_event_name": 3}',
            "inwards: the hook payload has no hook_event_name",
        ),
        (b"\xff\xfe{}", "inwards: the hook payload is not UTF-8 text."),
        (b"[" * 200_000 + b"]" * 200_000, "inwards: the hook payload is nested too deeply"),
        (b"", "inwards: the hook payload is not JSON ("),
    ],
)
def test_a_payload_that_cant_be_read_fails_open(project: Path, data: bytes, start: str) -> None:
    _fails_open(_hook(project, data), start)


def test_a_huge_payload_is_refused_unread(project: Path) -> None:
    data = b'{"session_id": "s", "x": "' + b"a" * (33 * 1024 * 1024) + b'"}'
    run = _hook(project, data)
    _fails_open(run, "inwards: the hook payload is larger than 32 MiB; it was not read.")


def test_a_write_of_a_huge_file_is_read_within_the_budget(project: Path) -> None:
    _send(project, "session-start")
    content = "import json\n" + "x = [" + "1, " * 2_000_000 + "]\n"  # 6 MB of source
    target = project / "src/shop/domain/big.py"
    run = _send(
        project, "pre-tool-use-write", tool_input={"file_path": str(target), "content": content}
    )
    assert run.code == 0
    target.write_text(content)
    run = _send(project, "post-tool-use-write", tool_input={"file_path": str(target)})
    # Read under the file's budget like any check: what can't be read in it is INW020.
    assert run.code == 2 and run.seconds < BUDGET.seconds
    diagnostics = json.loads(run.stderr)["diagnostics"]
    assert [(d["code"], d["file"]) for d in diagnostics] == [("INW020", "src/shop/domain/big.py")]


def test_paths_outside_the_project_are_left_alone(project: Path, tmp_path: Path) -> None:
    _send(project, "session-start")
    outside = tmp_path / "outside.py"
    outside.write_text("import sqlite3\nfrom shop.adapters.db import x\n")
    os.symlink(outside, project / "src/shop/domain/linked.py")  # a link out of the project
    for path in (
        str(outside),
        "../outside.py",
        "/etc/passwd",
        str(project / "src/shop/domain/linked.py"),
    ):
        for name in ("pre-tool-use-edit", "post-tool-use-edit", "pre-tool-use-write"):
            run = _send(project, name, tool_input={"file_path": path})
            assert (run.code, run.stdout, run.stderr) == (0, "", ""), (path, name, run)
    # The Stop gate lists the project as a check does: the link is not followed.
    assert _send(project, "stop").code == 0


def test_a_symlinked_state_directory_is_never_written_through(
    project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".inwards").mkdir()
    os.symlink(elsewhere, project / ".inwards" / "state")
    run = _send(project, "session-start")
    _fails_open(run, "inwards: .inwards/state is a symbolic link or not a directory")
    (project / "src/shop/domain/order.py").write_text("import sqlite3\n")
    run = _send(project, "post-tool-use-edit")  # checked, with no start to compare with
    assert run.code == 2 and "This session has no start record" in run.stderr
    _fails_open(_send(project, "stop"), "inwards: this session has no start record")
    assert list(elsewhere.iterdir()) == []


def test_the_extraction_cache_is_never_used(project: Path) -> None:
    # A branch can plant a cache; the hooks read none and write none.
    cache = project / ".inwards" / "cache"
    cache.mkdir(parents=True)
    (cache / "rules-manifest.json").write_text('{"planted": true}')
    before = sorted(path.name for path in cache.rglob("*"))
    _send(project, "session-start")
    (project / "src/shop/domain/order.py").write_text("import sqlite3\n")
    assert _send(project, "post-tool-use-edit").code == 2
    assert sorted(path.name for path in cache.rglob("*")) == before


def test_two_sessions_at_once(project: Path) -> None:
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")},
        "XDG_CONFIG_HOME": str(NO_USER_CONFIG),
        "CLAUDE_PROJECT_DIR": str(project),
        "HOME": str(project / "home"),
        "INWARDS_DAEMON": "0",
    }
    sessions = [f"{SESSION[:-1]}{digit}" for digit in "1234"]

    def start(name: str, session: str) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [*inwards_executable(), "hook", "claude-code"],
            cwd=project,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdin is not None
        process.stdin.write(json.dumps(payload(name, project, session_id=session)).encode())
        process.stdin.close()
        return process

    for name in ("session-start", "post-tool-use-edit", "post-tool-use-edit", "stop"):
        running = [start(name, session) for session in sessions]
        for process in running:
            assert process.wait(timeout=120) == 0, process.stderr.read() if process.stderr else ""
    state = project / ".inwards" / "state"
    for session in sessions:
        record = json.loads((state / f"{session}.start.json").read_text())
        assert record["schema"] == "inwards/agent-session-start@1"
        lines = (state / f"{session}.jsonl").read_text().splitlines()
        assert [json.loads(line)["event"] for line in lines] == [
            "SessionStart",
            "PostToolUse",
            "PostToolUse",
            "Stop",
        ]
