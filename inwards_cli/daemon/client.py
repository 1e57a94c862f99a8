"""The hook's side of the daemon: ask the project's daemon for the reply to a PreToolUse or
PostToolUse payload, and start one in the background when none answers.

`daemon_reply` returns None whenever the daemon can't be trusted to answer: switched off,
another event, no runtime directory or one that is not the user's own, a socket that is a
link or a file or another user's, a peer of another user, a daemon of another inwards or
another protocol, an environment that would set up another session, no reply in
`REPLY_SECONDS`, a reply that is not one. The hook then answers one-shot, as if there were no
daemon: the daemon only ever saves time. SessionStart and the Stop gate never ask it, so a
forged daemon could at most let one edit through, never end a turn.

Imported on every hook run before the one-shot path: only modules an interpreter has
loaded already, `json` (the console script has imported `re` for it) and the C module of
sockets (`socket` itself builds enums, a few milliseconds).
"""

from __future__ import annotations

import _socket
import json
import os
import stat
import sys
import time

from inwards_cli.daemon.place import (
    MAX_SOCKET_PATH,
    PROTOCOL,
    Places,
    UnsafeRuntimeDirectory,
    identity,
    real_project,
    runtime_directory,
)
from inwards_cli.daemon.wire import MAX_REPLY_BYTES, WireError, decode, encode, read_line, send_all

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SWITCH_VARIABLE = "INWARDS_DAEMON"
"""`0` never asks or starts a daemon, `1` asks and starts one even where `CI` is set."""
SERVED_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
# The variables a hook run reads: the daemon answers with these, and with its own only
# when those that shape a session (`SESSION_VARIABLES`) are the same as the client's.
SESSION_VARIABLES = (
    "HOME",
    "XDG_CONFIG_HOME",
    "APPDATA",
    "INWARDS_USER_RULES_DIR",
    "INWARDS_ORG_RULES_DIR",
    "INWARDS_DISABLE_PLUGINS",
)
FORWARDED_VARIABLES = ("CLAUDE_PROJECT_DIR", "INWARDS_DEBUG", *SESSION_VARIABLES)
MAX_PAYLOAD_BYTES = 32 * 1024 * 1024  # as `inwards_cli.agents.payload`: bigger is refused
REPLY_SECONDS = 3.0
"""How long a client waits for its reply (a busy daemon answers another run first) before
answering one-shot."""
BACKOFF_SECONDS = 60.0
"""After a daemon failed to start, no hook starts another for this long."""
EXIT_CODES = (0, 1, 2)


def forwarded(environ: Mapping[str, str]) -> dict[str, str]:
    return {name: environ[name] for name in FORWARDED_VARIABLES if name in environ}


def daemon_reply(
    payload: bytes, environ: Mapping[str, str], directory: str
) -> tuple[int, str, str] | None:
    """The daemon's reply to `payload` (exit status, standard output, standard error), or
    None: answer one-shot. `directory` is the project directory the hook works in (its
    CLAUDE_PROJECT_DIR, else the working directory). Starts a daemon when none answers."""
    switch = environ.get(SWITCH_VARIABLE, "")
    if (
        switch == "0"
        or len(payload) > MAX_PAYLOAD_BYTES
        or hook_event(payload) not in SERVED_EVENTS
    ):
        return None
    try:
        runtime = runtime_directory(environ, create=False)
    except (UnsafeRuntimeDirectory, OSError):
        return None  # a daemon could not start there either
    project = real_project(directory)
    ours = identity()
    places = None if runtime is None else Places(runtime, project)
    if places is not None:
        if len(places.socket) > MAX_SOCKET_PATH:
            return None
        request: dict[str, object] = {
            "protocol": PROTOCOL,
            "identity": ours,
            "kind": "hook",
            "project": project,
            "directory": directory,
            "cwd": os.getcwd(),
            "environ": forwarded(environ),
            "payload": payload.decode("utf-8", "surrogateescape"),
        }
        answer = ask(places.socket, request, ours)
        if answer is not None:
            reply = _hook_reply(answer)
            if reply is not None:
                return reply
    if switch == "1" or not environ.get("CI"):
        start_in_background(project, environ)
    return None


def hook_event(payload: bytes) -> object:
    try:
        document = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    return document.get("hook_event_name") if isinstance(document, dict) else None


def _hook_reply(answer: dict[str, object]) -> tuple[int, str, str] | None:
    code, out, err = answer.get("exit"), answer.get("stdout"), answer.get("stderr")
    if (
        answer.get("status") != "ok"
        or type(code) is not int
        or code not in EXIT_CODES
        or not isinstance(out, str)
        or not isinstance(err, str)
    ):
        return None
    return code, out, err


def ask(
    socket_path: str,
    request: dict[str, object],
    ours: str | None,
    *,
    seconds: float = REPLY_SECONDS,
) -> dict[str, object] | None:
    """The daemon's answer to `request` on `socket_path`; None when there is none to
    trust. With `ours`, an answer from another inwards (or protocol) is None too."""
    if not _safe_socket(socket_path):
        return None
    deadline = time.monotonic() + seconds
    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        connection.settimeout(seconds)
        connection.connect(socket_path)
        if not peer_is_us(connection):
            return None
        send_all(connection, encode(request), deadline=deadline)
        answer = decode(read_line(connection, limit=MAX_REPLY_BYTES, deadline=deadline))
    except (OSError, WireError):
        return None
    finally:
        connection.close()
    if answer.get("protocol") != PROTOCOL:
        return None
    if ours is not None and answer.get("identity") != ours:
        return None
    return answer


def _safe_socket(path: str) -> bool:
    """A socket of the user's own, not a link to one or anything else."""
    try:
        found = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISSOCK(found.st_mode) and found.st_uid == os.geteuid()


def peer_is_us(connection: _socket.socket) -> bool:
    """The process at the other end runs as this user (Linux's SO_PEERCRED: pid, uid, gid;
    elsewhere the private directory and the socket's owner are the whole check)."""
    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return True
    credentials = connection.getsockopt(_socket.SOL_SOCKET, option, 12)
    return int.from_bytes(credentials[4:8], sys.byteorder) == os.geteuid()


# -- starting one ---------------------------------------------------------------------------


def start_in_background(
    project: str, environ: Mapping[str, str], *, idle: float | None = None, force: bool = False
) -> int | None:
    """Start `inwards daemon` for `project` in a session of its own, its standard streams on
    /dev/null, unless one is starting or running (its lock is held) or, unless `force`, one
    failed to start less than `BACKOFF_SECONDS` ago. Returns the process id, or None."""
    try:
        runtime = runtime_directory(environ, create=True)
        assert runtime is not None  # made when missing
        places = Places(runtime, project)
        if (_backing_off(places.backoff) and not force) or lock_is_held(places.lock):
            return None
        null = os.devnull
        streams = [
            (os.POSIX_SPAWN_OPEN, 0, null, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, null, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, null, os.O_WRONLY, 0),
        ]
        # -P: the working directory (the project) never goes on the import path.
        command = [sys.executable, "-P", "-m", "inwards_cli", "daemon", "--foreground"]
        if idle is not None:
            command += ["--idle", repr(idle)]
        environment = dict(environ)
        environment.pop(SWITCH_VARIABLE, None)
        pid: int = os.posix_spawn(
            sys.executable,
            [*command, "--project", project],
            environment,
            file_actions=streams,
            setsid=True,
        )
    except (OSError, UnsafeRuntimeDirectory, AttributeError):
        return None  # not here (no posix_spawn): the hooks run one-shot
    return pid


def _backing_off(path: str) -> bool:
    try:
        found = os.lstat(path)
    except OSError:
        return False
    return time.time() - found.st_mtime < BACKOFF_SECONDS


def lock_is_held(path: str) -> bool:
    """Whether a daemon holds the lock (one is starting or serving)."""
    import fcntl

    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # a link or something unreadable: let no daemon start on it
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(descriptor)
    return False
