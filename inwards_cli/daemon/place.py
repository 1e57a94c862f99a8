"""Where a project's daemon lives and who it is: the user-private runtime directory, the
socket, lock and back-off files of one project in it, and the identity of the installed
inwards a daemon and its clients compare.

Imported by the hook's client on every run, so it imports only what an interpreter has
loaded already (`os`, `sys`, `stat`) and a C hash: `hashlib` costs about 3 ms to import,
`typing` about 11 (python -S -X importtime, docs/benchmarks.md#daemon).
"""

from __future__ import annotations

import os
import stat
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

PROTOCOL = "inwards-daemon/1"
"""The version of the wire protocol: one JSON object per line each way. A daemon that gets
another exits, and the client runs one-shot."""

RUNTIME_VARIABLE = "XDG_RUNTIME_DIR"
SOCKET_SUFFIX = ".sock"
LOCK_SUFFIX = ".lock"
BACKOFF_SUFFIX = ".backoff"
# The package directories whose files make the identity, beside `inwards_cli`.
PACKAGES = ("inwards_core", "inwards_cli", "inwards_rules_fastapi")
DIST_INFO_PREFIX = "inwards_lint-"  # the distribution's folder of metadata: NAME-VERSION.dist-info
MAX_SOCKET_PATH = 100  # AF_UNIX paths are at most 107 bytes on Linux, 103 on macOS


class UnsafeRuntimeDirectory(Exception):
    """The runtime directory is there but not the user's own private directory."""


def _sha256_hex(data: bytes) -> str:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # an interpreter without the C module
        from hashlib import sha256
    hexdigest: str = sha256(data).hexdigest()
    return hexdigest


def runtime_directory(environ: Mapping[str, str], *, create: bool) -> str | None:
    """The user's private directory of daemon sockets: `$XDG_RUNTIME_DIR/inwards` when that
    variable names a directory of the user's, else `inwards-UID` in the temporary directory.
    None when it is not there and `create` is False. Raises `UnsafeRuntimeDirectory` when the
    path is a link, not a directory, another user's, or open to others; `OSError` when it
    can't be made."""
    base = environ.get(RUNTIME_VARIABLE, "")
    if base and os.path.isabs(base) and _owned_directory(base):
        path = os.path.join(base, "inwards")
    else:
        temporary = environ.get("TMPDIR", "")
        if not (temporary and os.path.isabs(temporary) and os.path.isdir(temporary)):
            temporary = "/tmp"
        path = os.path.join(temporary, f"inwards-{os.geteuid()}")
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        if not create:
            return None
        try:  # noqa: SIM105 (contextlib is not imported on the hook's path)
            os.mkdir(path, 0o700)
        except FileExistsError:  # made by another process just now: judged below
            pass
        found = os.lstat(path)
    _judge_directory(path, found)
    return path


def _owned_directory(path: str) -> bool:
    try:
        found = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.geteuid()


def _judge_directory(path: str, found: os.stat_result) -> None:
    if stat.S_ISLNK(found.st_mode):
        raise UnsafeRuntimeDirectory(f"{path} is a symbolic link")
    if not stat.S_ISDIR(found.st_mode):
        raise UnsafeRuntimeDirectory(f"{path} is not a directory")
    if found.st_uid != os.geteuid():
        raise UnsafeRuntimeDirectory(f"{path} belongs to another user (uid {found.st_uid})")
    if found.st_mode & 0o077:
        raise UnsafeRuntimeDirectory(
            f"{path} is open to other users (mode {stat.S_IMODE(found.st_mode):o})"
        )


def project_key(project: str) -> str:
    """The name of a project's files in the runtime directory: a digest of its real path."""
    return _sha256_hex(os.fsencode(project))[:24]


class Places:
    """The files of one project's daemon in the runtime directory."""

    __slots__ = ("backoff", "directory", "lock", "socket")

    def __init__(self, directory: str, project: str) -> None:
        stem = os.path.join(directory, project_key(project))
        self.directory = directory
        self.socket = stem + SOCKET_SUFFIX
        self.lock = stem + LOCK_SUFFIX
        self.backoff = stem + BACKOFF_SUFFIX


def real_project(directory: str) -> str:
    return os.path.realpath(directory)


def identity() -> str:
    """Who answers: the installed inwards, as a digest of its version file's bytes, the
    name and inode of every file and folder of its packages, the stamp of its installation
    record (a wheel's RECORD, rewritten by every install), the interpreter, and the folders
    distributions are installed in (installing or removing one, a rule family or a rule pack
    among them, changes theirs). An upgrade, a reinstall, a module replaced in an editable
    checkout (`git checkout`, an editor's save), another interpreter: another identity. (A
    module rewritten in place keeps its inode: `inwards daemon stop` then.)"""
    parts: list[str] = [sys.version, os.path.realpath(sys.executable)]
    home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    top = os.path.dirname(home)
    try:
        with open(os.path.join(top, "inwards_core", "version.py"), "rb") as stream:
            parts.append(stream.read(4096).decode("utf-8", "replace"))
    except OSError:
        parts.append("no version file")
    for package in PACKAGES:
        parts.extend(_folder_stamps(os.path.join(top, package)))
    for entry in sys.path:
        # Where distributions are installed (a rule family, a rule pack), not the script's
        # own folder or the working directory, which differ from run to run.
        if os.path.basename(entry) in ("site-packages", "dist-packages"):
            parts.append(f"{entry}:{_stamp(entry)}")
            if entry == top:
                parts.extend(_records(top))
    return _sha256_hex("\n".join(parts).encode("utf-8", "surrogateescape"))[:32]


def _records(top: str) -> list[str]:
    """The stamps of the installation records of inwards beside its packages."""
    try:
        names = [name for name in os.listdir(top) if name.startswith(DIST_INFO_PREFIX)]
    except OSError:
        return []
    return [f"{name}:{_stamp(os.path.join(top, name, 'RECORD'))}" for name in sorted(names)]


def _stamp(path: str) -> str:
    try:
        found = os.stat(path)
    except OSError:
        return "-"
    return f"{found.st_ino}:{found.st_size}:{found.st_mtime_ns}"


def _folder_stamps(directory: str) -> list[str]:
    """Each entry of `directory` and of every folder below it, by name and inode (one
    listing each, no stat: a directory entry carries its inode). A module replaced (a
    checkout, an editor's save through a rename) has a new inode; a `__pycache__` folder
    appearing does not count, though it changes its parent folder's time: the first import
    of a module in a fresh checkout writes one, and the daemon must not look upgraded."""
    found = []
    pending = [directory]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name == "__pycache__":
                        continue
                    found.append(f"{entry.path}:{entry.inode()}")
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
        except OSError:
            found.append(f"{folder}:-")
    return sorted(found)
