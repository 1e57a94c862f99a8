"""PreToolUse, before a tool call runs: the config guard (`guard`), the shape guard (a Write
that would create a module INW007 refuses is denied before the file exists), and guidance
before an edit (`guidance`). A denial is exit 0 with `permissionDecision: "deny"` and the
reason, which the model reads; guidance is `additionalContext` and lets the call go on."""

from __future__ import annotations

import os
from pathlib import Path

from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.agents.edits import lines_added
from inwards_cli.agents.guard import Protected, file_tool_refusal, shell_refusal
from inwards_cli.agents.guidance import guidance, rules_key
from inwards_cli.agents.project import canonical, quiet
from inwards_cli.agents.reply import ALLOW, HookReply, deny, finding_lines, with_context
from inwards_cli.agents.run import HookRun
from inwards_cli.config_file import MAX_CONFIG_BYTES
from inwards_core.extraction.remembered_runs import SOURCE_SUFFIXES
from inwards_core.model.findings import Severity

SHAPE_CODE = "INW007"


def pre_tool_use(run: HookRun) -> HookReply:
    payload = run.payload
    protected = Protected.of(run.project_dir, run.claude_dir, run.environ)
    command = payload.command
    if command is not None:
        refused = shell_refusal(protected, command)
        run.log({"decision": "deny" if refused else "allow", **_guard(refused)})
        return deny(refused[1]) if refused else ALLOW
    path_text = payload.file_path
    if path_text is None:
        run.log({"decision": "allow"})
        return ALLOW
    path = Path(path_text) if os.path.isabs(path_text) else run.claude_dir / path_text
    refused = file_tool_refusal(protected, path, payload.tool_name, payload.tool_input)
    if refused is not None:
        run.log({"decision": "deny", **_guard(refused)})
        return deny(refused[1])
    relative = run.inside(path_text)
    if relative is None or not relative.endswith(SOURCE_SUFFIXES) or run.config_error:
        run.log({"decision": "allow", **({"file": relative} if relative else {})})
        return ALLOW
    entry: dict[str, object] = {"file": relative, "linesAdded": _lines_added(run, path)}
    shape = _shape_refusal(run, path, relative)
    if shape is not None:
        run.log({**entry, "decision": "deny", "guard": "shape"})
        return deny(shape)
    text, key = _guidance(run, relative)
    run.log({**entry, "decision": "guide" if text else "allow", "rulesKey": key})
    return with_context("PreToolUse", text) if text else ALLOW


def _guard(refused: tuple[str, str] | None) -> dict[str, str]:
    return {} if refused is None else {"guard": refused[0]}


def _shape_refusal(run: HookRun, path: Path, relative: str) -> str | None:
    """The reason to refuse a Write that creates a module its package's shape refuses."""
    content = run.payload.tool_input.get("content")
    if run.payload.tool_name != "Write" or not isinstance(content, str) or os.path.lexists(path):
        return None
    session = run.session()
    with quiet():
        report = session.check([relative], contents={relative: content})
    refused = [
        finding
        for finding in report.findings
        if finding.code == SHAPE_CODE
        and finding.file == relative
        and finding.severity is Severity.ERROR
    ]
    if not refused:
        return None
    steps = [f"  {number}. {step}" for number, step in enumerate(refused[0].fix.steps, start=1)]
    return "\n".join(
        [
            f"inwards: {relative} was not created: its package's shape does not allow it.",
            *finding_lines(refused),
            *steps,
        ]
    )


def _guidance(run: HookRun, relative: str) -> tuple[str | None, str]:
    """The guidance for this file, unless it was given in this session under the same
    rules; and the key of those rules."""
    session = run.session()
    key = rules_key(session.rule_set, canonical(run.loaded.table))
    for entry in run.log_entries():
        if (
            entry.get("event") == "PreToolUse"
            and entry.get("decision") == "guide"
            and entry.get("file") == relative
            and entry.get("rulesKey") == key
        ):
            return None, key
    text = guidance(session.config, session.tree(), session.rules, run.project_dir, relative)
    return text, key


def _lines_added(run: HookRun, path: Path) -> int:
    old = None
    if run.payload.tool_name == "Write" and os.path.lexists(path):
        try:
            old = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES).decode("utf-8", "replace")
        except OSError:
            old = None
    return lines_added(run.payload.tool_name, run.payload.tool_input, old)
