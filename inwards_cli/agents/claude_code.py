"""`inwards hook claude-code`: one run of a Claude Code hook, as `run_hook`.

Claude Code writes a JSON payload on the hook's standard input and reads the exit status:
0 goes on (with an optional JSON object on standard output), 2 blocks (the model reads
standard error), anything else is an error of the hook that Claude Code shows the user
while the agent goes on (https://code.claude.com/docs/en/hooks). So this hook blocks only
on purpose: a payload it can't read, a configuration that can't be used, an unusable state
directory and its own bugs all fail open, exit 1 with one line.

`run_hook` is pure of process state: it never prints or exits (the command does), and it
answers the same, byte for byte, with the daemon's warm session as without one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from inwards_cli.agents.payload import HookPayload, PayloadError, parse_payload
from inwards_cli.agents.project import open_hook_session
from inwards_cli.agents.reply import ALLOW, HookReply, fail_open
from inwards_cli.agents.run import HookRun
from inwards_cli.agents.state import StateError
from inwards_cli.config_file import LoadedConfig, find_config, read_config
from inwards_core.baseline import BaselineError
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import ConfigError
from inwards_core.plugins import FamilyLoadError
from inwards_core.session import Session

__all__ = ["HookReply", "open_hook_session", "run_hook"]

DEBUG_VARIABLE = "INWARDS_DEBUG"


def run_hook(
    payload: bytes,
    *,
    environ: Mapping[str, str],
    session: Session | None = None,
    project: Path | None = None,
) -> HookReply:
    """Answer one hook payload. `project` is the agent's project directory (else
    `CLAUDE_PROJECT_DIR` of `environ`; the payload's `cwd` is never trusted); `session`, when
    given, is a warm session on that project opened by `open_hook_session`."""
    try:
        parsed = parse_payload(payload)
    except PayloadError as error:
        return fail_open(str(error))
    handler = _handler(parsed.event)
    if handler is None:
        return ALLOW  # an event inwards has nothing to say about
    try:
        return _answer(parsed, handler, environ, session, project)
    except Exception as error:  # a bug of inwards must not block the agent
        return _internal_error(error, environ)


def _handler(event: str) -> Callable[[HookRun], HookReply] | None:
    # Imported by event: a PreToolUse run never loads the Stop gate, and so on.
    if event == "SessionStart":
        from inwards_cli.agents.session_start import session_start

        return session_start
    if event == "PreToolUse":
        from inwards_cli.agents.pre_edit import pre_tool_use

        return pre_tool_use
    if event == "PostToolUse":
        from inwards_cli.agents.post_edit import post_tool_use

        return post_tool_use
    if event == "Stop":
        from inwards_cli.agents.stop_gate import stop

        return stop
    return None


def _answer(
    payload: HookPayload,
    handler: Callable[[HookRun], HookReply],
    environ: Mapping[str, str],
    session: Session | None,
    project: Path | None,
) -> HookReply:
    directory = str(project) if project is not None else environ.get("CLAUDE_PROJECT_DIR", "")
    if not directory:
        return fail_open(
            "CLAUDE_PROJECT_DIR is not set, so the hook does not know the project; run it "
            "from Claude Code's hook settings."
        )
    claude_dir = Path(os.path.realpath(directory))
    if not claude_dir.is_dir():
        return fail_open(f"the project directory {claude_dir} is not a directory.")
    found = find_config(claude_dir)
    if found is None:
        return ALLOW  # no [tool.inwards]: nothing to check
    config_error = None
    try:
        loaded = read_config(found)
    except ConfigError as error:
        # The table can't be read: the guards and the Stop gate still work from the start
        # record; everything that checks code fails open.
        config_error = error
        loaded = LoadedConfig(found, found.parent, {}, TomlPositions(""), "")
    run = HookRun(
        payload,
        environ=environ,
        claude_dir=claude_dir,
        loaded=loaded,
        session=session,
        config_error=config_error,
    )
    try:
        return handler(run)
    except (ConfigError, BaselineError, FamilyLoadError) as error:
        return fail_open(
            f"the configuration can't be used, so this hook checked nothing: {_first_line(error)}"
        )
    except StateError as error:
        return fail_open(str(error))
    finally:
        run.close()


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _internal_error(error: Exception, environ: Mapping[str, str]) -> HookReply:
    reply = fail_open(
        f"internal error ({type(error).__name__}: {_first_line(error)}). This is a bug in "
        f"inwards, not a finding; the hook let the agent go on. {DEBUG_VARIABLE}=1 prints "
        "the traceback."
    )
    if environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
        import traceback

        trace = "".join(traceback.format_exception(error))
        return HookReply(reply.exit_code, reply.stdout, reply.stderr + trace)
    return reply
