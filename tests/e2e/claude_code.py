"""Driving `inwards hook claude-code` as Claude Code does: a payload from
`tests/fixtures/claude-code/` (shaped as Claude Code's hooks reference documents them) on
standard input of the installed command, run in the project with CLAUDE_PROJECT_DIR set."""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from tests.e2e.helpers import EXAMPLES, REPO, Run, run_inwards

FIXTURES = REPO / "tests" / "fixtures" / "claude-code"
SETTINGS = {
    "hooks": {
        event: [
            {
                **({"matcher": matcher} if matcher else {}),
                "hooks": [{"type": "command", "command": "inwards hook claude-code"}],
            }
        ]
        for event, matcher in (
            ("SessionStart", ""),
            ("PreToolUse", "Edit|Write|MultiEdit|Bash"),
            ("PostToolUse", "Edit|Write|MultiEdit"),
            ("Stop", ""),
        )
    }
}


def payload(name: str, project: Path, **changes: Any) -> dict[str, Any]:
    """The fixture `name` with `$PROJECT` filled in and the top-level fields `changes`
    (a `tool_input` given is merged into the fixture's)."""
    text = (FIXTURES / f"{name}.json").read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text.replace("$PROJECT", str(project)))
    for key, value in changes.items():
        if key == "tool_input" and isinstance(value, dict):
            document["tool_input"] = {**document["tool_input"], **value}
        else:
            document[key] = copy.deepcopy(value)
    return document


@attrs.frozen
class Hook:
    """The hook of one project; `home` stands for the user's home (its settings)."""

    project: Path
    home: Path

    def __call__(
        self, document: Mapping[str, Any] | bytes, env: Mapping[str, str] | None = None
    ) -> Run:
        data = document if isinstance(document, bytes) else json.dumps(document).encode()
        environment = {"CLAUDE_PROJECT_DIR": str(self.project), "HOME": str(self.home)}
        return run_inwards(
            "hook", "claude-code", cwd=self.project, stdin=data, env={**environment, **(env or {})}
        )

    def send(self, name: str, **changes: Any) -> Run:
        return self(payload(name, self.project, **changes))


def shop_project(tmp_path: Path, *, settings: bool = True) -> Hook:
    """The example shop, with the hooks in its .claude/settings.json."""
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", project, ignore=shutil.ignore_patterns("cache"))
    if settings:
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    home = tmp_path / "home"
    home.mkdir()
    return Hook(project, home)


def context_of(run: Run) -> str:
    """The `additionalContext` of a reply (exit 0, JSON on stdout)."""
    assert run.code == 0, run
    output = json.loads(run.stdout)["hookSpecificOutput"]
    text: str = output["additionalContext"]
    return text


def blocked_diagnostics(run: Run) -> dict[str, Any]:
    """The diagnostics document on the last line of a blocking reply's standard error."""
    assert run.code == 2, run
    assert run.stdout == ""
    document: dict[str, Any] = json.loads(run.stderr.strip().splitlines()[-1])
    assert document["schema"] == "inwards/diagnostics@1"
    return document
