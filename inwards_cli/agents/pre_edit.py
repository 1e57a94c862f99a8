"""PreToolUse (placeholder)."""

from __future__ import annotations

from inwards_cli.agents.reply import ALLOW, HookReply
from inwards_cli.agents.run import HookRun


def pre_tool_use(run: HookRun) -> HookReply:
    return ALLOW
