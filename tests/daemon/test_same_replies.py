"""The daemon answers as a one-shot run does, byte for byte: the scripted agent session of
tests/e2e/test_hook_agent_session.py, with changes made behind the hooks' back (a new
module, the configuration, a project rule removed), run in two copies of the example shop,
one served by its daemon and one without, gives the same replies; and the daemon answered
every PreToolUse and PostToolUse of it."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

from tests.daemon.support import Served, reply, served_shop
from tests.e2e.claude_code import payload
from tests.e2e.helpers import Run

ORDER = "src/shop/domain/order.py"
EXTRA = "src/shop/domain/extra.py"
VIOLATION = "from shop.adapters.outbound.sql_orders import SqlOrders\n"
SHAPE = """
[[tool.inwards.shape]]
packages = ["shop.domain"]
allow = ["order.py", "pricing.py", "ports.py", "discount.py"]
forbid = ["helpers*"]
"""


def scripted_session(served: Served) -> list[Run]:
    runs: list[Run] = []
    calls = itertools.count(1)
    project = served.project
    pyproject = project / "pyproject.toml"

    def send(name: str, **changes: Any) -> None:
        if "tool" in name:
            changes.setdefault("tool_use_id", f"toolu_{next(calls):04d}")
        runs.append(served.send(name, **changes))

    def edit_of(path: str) -> dict[str, str]:
        return {"file_path": str(project / path)}

    pyproject.write_text(pyproject.read_text() + SHAPE)
    send("session-start")
    send("pre-tool-use-edit")
    send("pre-tool-use-edit")  # said once per file
    original = (project / ORDER).read_text()
    old = "from shop.domain.pricing import line_total\n"
    (project / ORDER).write_text(original.replace(old, old + VIOLATION))
    send("post-tool-use-edit")  # blocked
    (project / ORDER).write_text(original)
    send("post-tool-use-edit")  # fixed
    helpers = {"file_path": str(project / "src/shop/domain/helpers.py"), "content": "x = 1\n"}
    send("pre-tool-use-write", tool_input=helpers)  # refused by the shape
    send("pre-tool-use-write")  # guided
    write = payload("pre-tool-use-write", project)["tool_input"]
    Path(write["file_path"]).write_text(write["content"])
    send("post-tool-use-write")
    send("pre-tool-use-multiedit")
    config_edit = {
        "file_path": str(pyproject),
        "old_string": 'root = "src"',
        "new_string": 'root = "src"\nignore = ["shop.domain"]',
    }
    send("pre-tool-use-edit", tool_input=config_edit)  # denied
    send("pre-tool-use-bash")
    send("pre-tool-use-bash", tool_input={"command": "ls .inwards/state | wc -l"})
    # Behind the hooks' back: a new module and a new package written by a shell command.
    (project / EXTRA).write_text("import requests\n")
    (project / "src/shop/domain/rates").mkdir()
    (project / "src/shop/domain/rates/__init__.py").write_text("import sqlite3\n")
    send("pre-tool-use-edit", tool_input=edit_of(EXTRA))
    send("post-tool-use-edit", tool_input=edit_of(EXTRA))
    send("post-tool-use-edit", tool_input=edit_of("src/shop/domain/rates/__init__.py"))
    # The user changes the configuration: the shape now allows extra.py.
    pyproject.write_text(
        pyproject.read_text().replace('"discount.py"]', '"discount.py", "extra.py"]')
    )
    send("post-tool-use-edit", tool_input=edit_of(EXTRA))
    send("pre-tool-use-edit", tool_input=edit_of(EXTRA))  # the rules changed: said again
    # ... and removes a project rule: SHOP001 no longer fires.
    (project / ".inwards" / "rules" / "SHOP001.toml").unlink()
    (project / ORDER).write_text(original.replace(old, old + VIOLATION))
    send("post-tool-use-edit")
    # A file deleted behind the hooks' back, and one edited in place by a shell command.
    (project / EXTRA).unlink()
    with (project / ORDER).open("a") as stream:
        stream.write("import httpx\n")
    send("post-tool-use-edit")
    (project / ORDER).write_text(original)
    send("post-tool-use-edit")
    send("stop")
    return runs


def test_the_scripted_session_gets_the_same_replies_with_and_without_the_daemon(
    tmp_path: Path, runtime: Path
) -> None:
    alone = served_shop(tmp_path, runtime, "0", "alone")
    served = served_shop(tmp_path, runtime, "1", "served")
    served.start_daemon()
    without = [reply(run, alone.project) for run in scripted_session(alone)]
    with_daemon = [reply(run, served.project) for run in scripted_session(served)]
    assert with_daemon == without
    codes = [code for code, _, _ in without]
    assert 2 in codes and 0 in codes  # blocks and clean replies both compared
    asked = 19  # the session's PreToolUse and PostToolUse runs, each answered by the daemon
    assert served.requests() == asked
    assert alone.status() is None  # INWARDS_DAEMON=0 started none


def _linked_session(served: Served) -> list[Run]:
    """Edits in a project that reaches a folder through a link inside it."""
    project = served.project
    os.symlink(project / "src/shop/domain", project / "src/shop/mirror")
    runs = [served.send("session-start")]
    calls = itertools.count(1)

    def edit(path: str) -> None:
        for name in ("pre-tool-use-edit", "post-tool-use-edit"):
            changes = {"tool_input": {"file_path": str(project / path)}}
            runs.append(served.send(name, tool_use_id=f"toolu_{next(calls):04d}", **changes))

    edit("src/shop/mirror/order.py")
    (project / "src/shop/domain/extra.py").write_text("import sqlite3\n")  # behind the hooks
    edit("src/shop/mirror/extra.py")
    edit("src/shop/domain/extra.py")
    (project / "src/shop/domain/extra.py").write_text("x = 1\n")
    edit("src/shop/mirror/extra.py")
    return runs


def test_a_folder_reached_through_a_link_gets_the_same_replies(
    tmp_path: Path, runtime: Path
) -> None:
    alone = served_shop(tmp_path, runtime, "0", "alone")
    served = served_shop(tmp_path, runtime, "1", "served")
    served.start_daemon()
    without = [reply(run, alone.project) for run in _linked_session(alone)]
    with_daemon = [reply(run, served.project) for run in _linked_session(served)]
    assert with_daemon == without
    assert 2 in [code for code, _, _ in without]
    assert served.requests() == 8
