"""What a hook run answers, in Claude Code's hook contract
(https://code.claude.com/docs/en/hooks): exit status 0 with an optional JSON object on
standard output (`hookSpecificOutput`, `additionalContext`, `systemMessage`), 2 to block
with the reason on standard error (which the model reads), or 1 to fail open (shown to the
user, the agent goes on)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import attrs

from inwards_core.model.diagnostics import diagnostics_document
from inwards_core.model.findings import Finding, Report
from inwards_core.model.value_repr import value_repr
from inwards_core.reporting.escaping import printable

MAX_CONTEXT_CHARACTERS = 8000
"""Claude Code keeps at most 10,000 characters of what a hook adds to the context; what the
hooks write stays under that, with room for the JSON around it."""
MAX_DIAGNOSTICS = 10
"""The findings one reply lists; the document says how many more there are."""


@attrs.frozen
class HookReply:
    """One hook run's answer: the command writes `stdout` and `stderr` and exits with
    `exit_code` (0 ok, 2 block, 1 fail open)."""

    __repr__ = value_repr

    exit_code: int
    stdout: str
    stderr: str


ALLOW = HookReply(0, "", "")


def _json(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def with_context(event: str, text: str) -> HookReply:
    """Exit 0, with `text` added to the agent's context."""
    output = {"hookEventName": event, "additionalContext": clipped(text)}
    return HookReply(0, _json({"hookSpecificOutput": output}), "")


def deny(reason: str) -> HookReply:
    """PreToolUse: the tool call does not run; the model reads `reason`."""
    output = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": clipped(reason),
    }
    return HookReply(0, _json({"hookSpecificOutput": output}), "")


def block(text: str) -> HookReply:
    """Exit 2: the model reads `text` (PostToolUse: the edit stays; Stop: the turn goes on)."""
    return HookReply(2, "", text if text.endswith("\n") else text + "\n")


def tell_user(text: str) -> HookReply:
    """Exit 0 with a message shown to the user."""
    return HookReply(0, _json({"systemMessage": clipped(text)}), "")


def fail_open(message: str) -> HookReply:
    """Exit 1: Claude Code shows the one line to the user and the agent goes on."""
    line = printable(" ".join(message.split()))
    if len(line) > 300:
        line = line[:299] + "…"
    return HookReply(1, "", f"inwards: {line}\n")


def clipped(text: str, limit: int = MAX_CONTEXT_CHARACTERS) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 60].rsplit("\n", 1)[0]
    return f"{cut}\n(… {len(text) - len(cut):,} more characters left out)"


def diagnostics_text(report: Report, findings: Sequence[Finding], notes: Sequence[str]) -> str:
    """The compact `inwards/diagnostics@1` document of `findings` (the first
    `MAX_DIAGNOSTICS`), with `notes`. Its duration is 0: a hook's reply depends only on the
    project and the payload (the session log keeps each run's time)."""
    shown = list(findings[:MAX_DIAGNOSTICS])
    listed = attrs.evolve(
        report,
        findings=tuple(findings),
        suppressed=(),
        notes=tuple(notes),
        duration_ms=0.0,
        baselined=(),
        baselined_by=(),
        baseline_resolved=(),
        baseline_file=None,
    )
    omitted = len(findings) - len(shown)
    document = diagnostics_document(listed, shown=shown, omitted=omitted if omitted else None)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def finding_line(finding: Finding) -> str:
    """One finding on one line: where, the rule, the severity when not an error, the
    message and the fix's summary."""
    level = "" if finding.severity.value == "error" else f" ({finding.severity.value})"
    line = f"{finding.file}:{finding.span.line}:{finding.span.column}: {finding.code}{level}"
    return printable(f"{line} {finding.message} Fix: {finding.fix.summary}")


def finding_lines(findings: Sequence[Finding], limit: int = MAX_DIAGNOSTICS) -> list[str]:
    lines = [f"- {finding_line(finding)}" for finding in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"- … and {len(findings) - limit} more")
    return lines
