"""`inwards daemon`: one process per project that answers the hooks' PreToolUse and
PostToolUse requests from a warm session, one request at a time, over a Unix socket in the
user's private runtime directory (`place`).

Its life: take the project's lock (a second daemon finds it held and leaves), open and warm
the session, then bind the socket (so a socket that answers is one that is ready), serve
until no request came for `idle` seconds, a `stop` request, a request from another inwards
or protocol (the client runs one-shot and starts the new inwards' daemon), or its socket
was taken away; then remove the socket if it is still its own. A start that fails leaves a
back-off file: no hook starts another daemon for the project for a minute.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import time
from collections.abc import Callable, Mapping

from inwards_cli.daemon.client import (
    FORWARDED_VARIABLES,
    SERVED_EVENTS,
    SESSION_VARIABLES,
    hook_event,
    peer_is_us,
)
from inwards_cli.daemon.place import (
    MAX_SOCKET_PATH,
    PROTOCOL,
    Places,
    identity,
    runtime_directory,
)
from inwards_cli.daemon.wire import WireError, decode, encode, read_line, send_all
from inwards_core.version import inwards_version

DEFAULT_IDLE_SECONDS = 15 * 60
REQUEST_SECONDS = 10.0  # to send a whole request once connected
MAX_REQUEST_BYTES = 8 * 32 * 1024 * 1024 + 1024 * 1024  # a largest payload, escaped
CHECK_SECONDS = 30.0  # how often an idle daemon looks whether its socket is still there


class DaemonError(Exception):
    """The daemon could not start (the message says why)."""


class Daemon:
    """A daemon's state while it serves."""

    def __init__(self, project: str, places: Places, environ: Mapping[str, str]) -> None:
        from inwards_cli.daemon.warm import WarmProject

        self.project = project
        self.places = places
        self.identity = identity()
        self.environ = environ
        self.warm = WarmProject(project, environ)
        self.started = time.time()
        self.requests = 0
        self.last = time.monotonic()

    def status(self) -> dict[str, object]:
        return {
            "protocol": PROTOCOL,
            "identity": self.identity,
            "status": "ok",
            "version": inwards_version(),
            "pid": os.getpid(),
            "project": self.project,
            "socket": self.places.socket,
            "startedAt": round(self.started, 3),
            "requests": self.requests,
            "idleSeconds": round(time.monotonic() - self.last, 1),
            "sessionsOpened": self.warm.opened,
        }

    def handle(self, request: dict[str, object]) -> tuple[dict[str, object], bool]:
        """The answer to one request, and whether to go on serving."""
        kind = request.get("kind")
        if kind == "status":
            return self.status(), True
        if kind == "stop":
            return {**self.status(), "status": "stopping"}, False
        if request.get("protocol") != PROTOCOL or request.get("identity") != self.identity:
            # Another inwards asks: it answers one-shot and starts its own daemon.
            return self.refusal("mismatch"), False
        if kind != "hook":
            return self.refusal("unknown request"), True
        return self._hook(request), True

    def refusal(self, why: str) -> dict[str, object]:
        return {"protocol": PROTOCOL, "identity": self.identity, "status": why}

    def _hook(self, request: dict[str, object]) -> dict[str, object]:
        environ, payload = request.get("environ"), request.get("payload")
        directory, cwd = request.get("directory"), request.get("cwd")
        if (
            request.get("project") != self.project
            or not isinstance(environ, dict)
            or not all(isinstance(value, str) for value in environ.values())
            or not isinstance(payload, str)
            or not isinstance(directory, str)
            or not isinstance(cwd, str)
            or not os.path.isabs(cwd)
        ):
            return self.refusal("bad request")
        given = {name: environ[name] for name in FORWARDED_VARIABLES if name in environ}
        if any(given.get(name) != self.environ.get(name) for name in SESSION_VARIABLES):
            return self.refusal("environment")  # it would set up another session
        data = payload.encode("utf-8", "surrogateescape")
        if hook_event(data) not in SERVED_EVENTS:
            return self.refusal("event")  # SessionStart and Stop are always one-shot
        self.requests += 1
        reply = self.warm.answer(data, given, directory, cwd)
        self.last = time.monotonic()  # idle: no hook request (status asks don't count)
        return {
            "protocol": PROTOCOL,
            "identity": self.identity,
            "status": "ok",
            "exit": reply.exit_code,
            "stdout": reply.stdout,
            "stderr": reply.stderr,
        }


def serve(
    project: str,
    *,
    idle: float,
    environ: Mapping[str, str],
    ready: Callable[[Daemon], None] = lambda daemon: None,
) -> bool:
    """Serve the hooks of `project` (a real path) until idle for `idle` seconds or told to
    stop. False when another daemon holds the project's lock; raises `DaemonError` when
    it can't start (and leaves the back-off file)."""
    places = _places(project, environ)
    lock = _take_lock(places.lock)
    if lock is None:
        return False
    listener: socket.socket | None = None
    inode = 0
    daemon = None
    try:
        try:
            daemon = Daemon(project, places, environ)
            daemon.warm.prepare()
            listener, inode = _listen(places.socket)
        except Exception as error:
            _back_off(places.backoff)
            raise DaemonError(f"the daemon could not start: {error}") from error
        with contextlib.suppress(FileNotFoundError):
            os.unlink(places.backoff)
        ready(daemon)
        _loop(daemon, listener, inode, idle)
        return True
    finally:
        if listener is not None:
            _remove_own_socket(places.socket, inode)
            listener.close()
        if daemon is not None:
            daemon.warm.close()
        os.close(lock)


def _places(project: str, environ: Mapping[str, str]) -> Places:
    try:
        runtime = runtime_directory(environ, create=True)
    except Exception as error:
        raise DaemonError(f"no private runtime directory: {error}") from error
    assert runtime is not None  # made when missing
    places = Places(runtime, project)
    if len(places.socket) > MAX_SOCKET_PATH:
        raise DaemonError(f"the socket path {places.socket} is too long for a Unix socket")
    return places


def _take_lock(path: str) -> int | None:
    """The project's lock, held for the daemon's life; None when another daemon holds it
    (waiting a few seconds for one that is leaving)."""
    import fcntl

    try:
        descriptor = os.open(
            path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, stat.S_IRUSR | stat.S_IWUSR
        )
    except OSError as error:
        raise DaemonError(f"the lock file {path} can't be opened: {error}") from error
    found = os.fstat(descriptor)
    if not stat.S_ISREG(found.st_mode) or found.st_uid != os.geteuid():
        os.close(descriptor)
        raise DaemonError(f"the lock file {path} is not a file of this user's")
    deadline = time.monotonic() + 3.0
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            if time.monotonic() > deadline:
                os.close(descriptor)
                return None
            time.sleep(0.05)
            continue
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        return descriptor


def _back_off(path: str) -> None:
    with contextlib.suppress(OSError):
        descriptor = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
        )
        os.write(descriptor, f"{time.time():.0f}\n".encode())
        os.close(descriptor)


def _listen(path: str) -> tuple[socket.socket, int]:
    """A listening socket at `path` and its inode. Whatever is at the path is a leftover of
    a daemon that died (this one holds the lock), unless it is not the user's or a folder:
    then the daemon does not start."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        pass
    else:
        if stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid():
            raise DaemonError(f"{path} is in the way, and not a leftover socket of this user's")
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        old = os.umask(0o177)
        try:
            listener.bind(path)
        finally:
            os.umask(old)
        listener.listen(16)
        return listener, os.lstat(path).st_ino
    except BaseException:
        listener.close()
        raise


def _remove_own_socket(path: str, inode: int) -> None:
    with contextlib.suppress(OSError):
        if os.lstat(path).st_ino == inode:
            os.unlink(path)


def _loop(daemon: Daemon, listener: socket.socket, inode: int, idle: float) -> None:
    while True:
        left = idle - (time.monotonic() - daemon.last)
        if left <= 0:
            return
        listener.settimeout(min(left, CHECK_SECONDS))
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            if not _socket_is_ours(daemon.places.socket, inode):
                return  # removed or replaced: no client can reach this daemon any more
            continue
        try:
            going_on = _one(daemon, connection)
        finally:
            connection.close()
        if not going_on:
            return


def _socket_is_ours(path: str, inode: int) -> bool:
    try:
        return os.lstat(path).st_ino == inode
    except OSError:
        return False


def _one(daemon: Daemon, connection: socket.socket) -> bool:
    """Serve one connection; whether to go on serving."""
    try:
        if not peer_is_us(connection):
            return True  # another user's process: no answer at all
    except OSError:
        return True
    deadline = time.monotonic() + REQUEST_SECONDS
    try:
        request = decode(read_line(connection, limit=MAX_REQUEST_BYTES, deadline=deadline))
    except (OSError, WireError):
        return True
    try:
        answer, going_on = daemon.handle(request)
    except Exception as error:  # a bug: this client answers one-shot, the next may not
        daemon.warm.forget()
        answer, going_on = daemon.refusal(f"error: {type(error).__name__}"), True
    with contextlib.suppress(OSError, WireError):
        send_all(connection, encode(answer), deadline=time.monotonic() + REQUEST_SECONDS)
    return going_on
