"""A scripted agent session through `inwards hook claude-code`, as Claude Code would run the
hooks of .claude/settings.json: start, a guided edit, a violating edit blocked and then
fixed, a new module refused by its package's shape, a configuration edit denied (and one
that leaves [tool.inwards] alone allowed), a shell command denied, and the Stop gate."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from tests.e2e.claude_code import blocked_diagnostics, context_of, payload, shop_project
from tests.e2e.helpers import run_inwards

ORDER = "src/shop/domain/order.py"
SHAPE = """
[[tool.inwards.shape]]
packages = ["shop.domain"]
allow = ["order.py", "pricing.py", "ports.py", "discount.py"]
forbid = ["helpers*"]
"""


def _quiet(run: object) -> None:
    assert (run.code, run.stdout, run.stderr) == (0, "", ""), run  # type: ignore[attr-defined]


def _denied(run: object) -> str:
    assert run.code == 0 and run.stderr == "", run  # type: ignore[attr-defined]
    output = json.loads(run.stdout)["hookSpecificOutput"]  # type: ignore[attr-defined]
    assert output["hookEventName"] == "PreToolUse"
    assert output["permissionDecision"] == "deny"
    reason: str = output["permissionDecisionReason"]
    return reason


def test_a_scripted_agent_session(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    calls = itertools.count(1)

    class Session:
        """Each tool call with its own id, as Claude Code gives them."""

        def send(self, name: str, **changes: Any) -> Any:
            if "tool" in name:
                changes.setdefault("tool_use_id", f"toolu_{next(calls):04d}")
            return hook.send(name, **changes)

    agent = Session()

    project = hook.project
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + SHAPE)

    # Start: the brief and how the session is checked.
    assert "## How inwards checks this session" in context_of(agent.send("session-start"))

    # A guided edit: the layer, its libraries and the rules in force, once per file.
    guidance = context_of(agent.send("pre-tool-use-edit"))
    assert guidance.splitlines()[:2] == [
        f"inwards: before you edit {ORDER} (module shop.domain.order):",
        '- Layer "domain": may import the layers domain; never application, outbound, inbound, '
        "bootstrap.",
    ]
    assert "- INW001 layer-dependency (core rule): " in guidance
    assert "- INW007 package-shape (core rule): " in guidance
    assert (
        "- SHOP001 adapters-wired-in-bootstrap (project rule, .inwards/rules/SHOP001.toml): "
        "Only the composition root may import the outbound adapters." in guidance
    )
    assert len(guidance) < 1600
    _quiet(agent.send("pre-tool-use-edit"))  # said once for this file

    # A violating edit is blocked after it happened...
    original = (project / ORDER).read_text()
    old = "from shop.domain.pricing import line_total\n"
    (project / ORDER).write_text(
        original.replace(old, old + "from shop.adapters.outbound.sql_orders import SqlOrders\n")
    )
    document = blocked_diagnostics(agent.send("post-tool-use-edit"))
    assert [(d["code"], d["line"]) for d in document["diagnostics"]] == [
        ("INW001", 9),
        ("SHOP001", 9),
    ]
    # ... and fixed by the next one.
    (project / ORDER).write_text(original)
    _quiet(agent.send("post-tool-use-edit"))

    # A new module its package's shape refuses is refused before it exists.
    helpers = project / "src/shop/domain/helpers.py"
    reason = _denied(
        agent.send(
            "pre-tool-use-write",
            tool_input={"file_path": str(helpers), "content": "def slug() -> str: ...\n"},
        )
    )
    assert reason.splitlines()[0] == (
        "inwards: src/shop/domain/helpers.py was not created: its package's shape does not "
        "allow it."
    )
    assert "INW007" in reason and not helpers.exists()
    # One it allows is guided, written, and checked.
    assert "module shop.domain.discount" in context_of(agent.send("pre-tool-use-write"))
    write = payload("pre-tool-use-write", project)["tool_input"]
    (project / write["file_path"]).write_text(write["content"])
    _quiet(agent.send("post-tool-use-write"))

    # pyproject.toml: other tables may change, [tool.inwards] may not.
    _quiet(agent.send("pre-tool-use-multiedit"))
    reason = _denied(
        agent.send(
            "pre-tool-use-edit",
            tool_input={
                "file_path": str(pyproject),
                "old_string": 'root = "src"',
                "new_string": 'root = "src"\nignore = ["shop.domain"]',
            },
        )
    )
    assert reason.startswith("inwards: this edit changes [tool.inwards] of pyproject.toml")

    # A shell command that would remove the session's state is denied; reading it is not.
    assert _denied(agent.send("pre-tool-use-bash")).startswith(
        "inwards: this command names .inwards"
    )
    _quiet(agent.send("pre-tool-use-bash", tool_input={"command": "ls .inwards/state | wc -l"}))

    # The Stop gate: clean, then a violation written behind the hooks' back keeps the turn.
    _quiet(agent.send("stop"))
    (project / ORDER).write_text(original + "import requests\n")
    run = agent.send("stop")
    assert run.code == 2
    lines = run.stderr.splitlines()
    assert lines[0].startswith("inwards: 1 violation is new since this session started")
    assert [d["code"] for d in json.loads(lines[1])["diagnostics"]] == ["INW005"]
    (project / ORDER).write_text(original)
    _quiet(agent.send("stop", stop_hook_active=True))

    # What the session log says (inwards stats validates as inwards/stats@1).
    stats = json.loads(run_inwards("stats", "--format", "json", cwd=project).stdout)
    assert stats["sessions"] == 1
    assert stats["hookRuns"] == 15
    assert stats["fixedWithinOneRetry"] == {"reported": 2, "fixed": 2, "noRetry": 0, "rate": 1.0}
    # Each of the two edits sent adds one line, the Write of discount.py four (non-blank).
    assert stats["violationsPer1000Lines"] == {"violations": 2, "linesAdded": 6, "rate": 333.33}
    assert stats["topRules"] == [
        {"code": "INW001", "origin": "core", "violations": 1},
        {"code": "INW005", "origin": "core", "violations": 1},
        {"code": "SHOP001", "origin": "project", "violations": 1},
    ]
    assert stats["hookLatencyMs"]["runs"] == 15
    assert list(stats["hookLatencyMs"]["byEvent"]) == [
        "SessionStart",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    ]
    text = run_inwards("stats", cwd=project).stdout
    assert text.splitlines()[:3] == [
        "inwards stats: 1 session, 15 hook runs (from .inwards/state/).",
        "Violations fixed within one retry: 2 of 2 (100%).",
        "Violations per 1,000 lines added: 333.3 (2 violations in 6 lines).",
    ]
