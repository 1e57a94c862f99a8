"""`inwards hook claude-code`: read one Claude Code hook payload on standard input, answer it
(`inwards_cli.agents.claude_code.run_hook`), write the reply and exit with its status.

It runs without typer (`inwards_cli.main` sends `inwards hook ...` here first): a hook runs
on every edit. Whatever goes wrong here is exit 1, one line: Claude Code takes 2 as a
verdict that blocks the agent, and only the hook's own checks may give it.

PreToolUse and PostToolUse ask the project's daemon first (`inwards_cli.daemon.client`),
and are answered one-shot when it can't answer; so this module imports nothing the
daemon's client does not need before it knows (no `pathlib`, no `typing`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

EXIT_FAIL_OPEN = 1
USAGE = "usage: inwards hook claude-code (reads one Claude Code hook payload on standard input)"


def hook_main(arguments: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """Run `inwards hook ARGUMENTS`; returns the exit status."""
    if list(arguments) != ["claude-code"]:
        if not arguments:
            return _fail(f"inwards hook: name the agent. {USAGE}")
        return _fail(f"inwards hook: unknown agent {' '.join(arguments)[:100]!r}. {USAGE}")
    try:
        return _claude_code(os.environ if environ is None else environ)
    except BaseException as error:
        return _fail(f"inwards: the hook failed ({type(error).__name__}); the agent goes on.")


def _claude_code(environ: Mapping[str, str]) -> int:
    from inwards_cli.daemon.client import MAX_PAYLOAD_BYTES, daemon_reply

    data = _read_stdin(MAX_PAYLOAD_BYTES + 1)
    # Claude Code runs hooks in the project directory and sets CLAUDE_PROJECT_DIR; a hook
    # run by hand in the project works too.
    directory = environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    try:
        answered = daemon_reply(data, environ, directory)
    except Exception:  # whatever the daemon's client met, the hook answers one-shot
        answered = None
    if answered is None:
        answered = _one_shot(data, environ)
    code, out, err = answered
    _write(1, out)
    _write(2, err)
    return code


def _one_shot(data: bytes, environ: Mapping[str, str]) -> tuple[int, str, str]:
    from pathlib import Path

    from inwards_cli.agents.claude_code import run_hook

    project = None if environ.get("CLAUDE_PROJECT_DIR") else Path.cwd()
    reply = run_hook(data, environ=environ, project=project)
    return reply.exit_code, reply.stdout, reply.stderr


def _read_stdin(limit: int) -> bytes:
    """At most `limit` bytes of standard input (a bigger payload is refused by its size)."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(0, min(1024 * 1024, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _write(descriptor: int, text: str) -> None:
    view = memoryview(text.encode("utf-8", "surrogateescape"))
    while view:
        view = view[os.write(descriptor, view) :]


def _fail(line: str) -> int:
    try:  # noqa: SIM105 (contextlib is not imported on the hook's path)
        _write(2, line + "\n")
    except OSError:
        pass
    return EXIT_FAIL_OPEN
