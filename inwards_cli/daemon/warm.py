"""The daemon's project: a hook session kept warm, and kept true to the disk.

Before each request the stamps of `freshness` say what changed since the last: the
configuration or a rule root (the session is opened afresh), a file (the session reads it
again), a folder's entries (it lists the tree again). So the reply is the one a one-shot
run would give on the same disk, byte for byte: `run_hook` answers the same with a warm
session as without one. A session that can't be opened (a configuration with an error) is
None, and `run_hook` then answers as a one-shot run does.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from inwards_cli.agents.claude_code import HookReply, open_hook_session, run_hook
from inwards_cli.config_file import find_config
from inwards_cli.daemon.freshness import InotifyTreeWatch, TreeWatch, setup_stamp, tree_watch
from inwards_core.session import Session


class WarmProject:
    """One project's warm session (`claude_dir`: the hooks' project directory, real).
    `opener` opens it: the hooks' session by default, `inwards mcp` opens one as `inwards
    check` reads the project (with its baseline and cache)."""

    def __init__(
        self,
        claude_dir: str,
        environ: Mapping[str, str],
        opener: Callable[[Path], Session] = open_hook_session,
    ) -> None:
        self.claude_dir = claude_dir
        self._opener = opener
        self._environ = environ
        self._session: Session | None = None
        self._project_dir: str | None = None
        self._stamp: tuple[object, ...] | None = None
        self._watch: TreeWatch | InotifyTreeWatch | None = None
        self.opened = 0  # sessions opened, for `inwards daemon status`
        # Paths in replies are shown from the working directory (a rule's file, say): the
        # daemon works in its client's, and a session is opened again in another one.
        self._cwd = os.getcwd()

    def prepare(self) -> None:
        """Open the session and list the tree, and import what the hook events use, so
        that the first request is as quick as the others."""
        import inwards_cli.agents.guidance
        import inwards_cli.agents.post_edit
        import inwards_cli.agents.pre_edit  # noqa: F401

        self.session()

    def close(self) -> None:
        if self._session is not None:
            with contextlib.suppress(Exception):
                self._session.close()
        if self._watch is not None:
            self._watch.close()
        self._session = None
        self._watch = None

    def forget(self) -> None:
        """Close the session and forget the stamps: the next request opens it afresh."""
        self.close()
        self._stamp = None

    def session(self) -> Session | None:
        """The warm session, told what changed since the last request; None when it can't
        be opened."""
        found = find_config(Path(self.claude_dir))
        project_dir = None if found is None else os.path.realpath(found.parent)
        stamp = setup_stamp(self.claude_dir, project_dir, self._environ)
        if stamp != self._stamp or project_dir != self._project_dir:
            self.close()
            self._stamp, self._project_dir = stamp, project_dir
            if project_dir is not None:
                self._open(project_dir)
            return self._session
        session, watch = self._session, self._watch
        if session is None or watch is None or project_dir is None:
            return session
        changed, relist, lost = watch.changes()
        if lost:  # the kernel dropped events: start afresh
            self.close()
            self._open(project_dir)
            return self._session
        if changed:
            session.changed(changed)
        if relist:
            session.changed(["."])  # not a listed file: the session lists the tree again
        watch.follow(session.tree().listing)
        return session

    def _open(self, project_dir: str) -> None:
        try:
            session = self._opener(Path(self.claude_dir))
        except Exception:  # the one-shot run says what is wrong, in its own words
            return
        try:
            # Listed twice: the watch's first snapshot is taken between the two listings,
            # so what changes while the tree is listed is seen at the next request.
            watch = tree_watch(project_dir, session.tree().listing)
            session.changed(["."])
            watch.follow(session.tree().listing)
        except Exception:
            session.close()
            return
        self._session, self._watch = session, watch
        self.opened += 1

    def answer(
        self, payload: bytes, environ: Mapping[str, str], directory: str | None, cwd: str
    ) -> HookReply:
        """`run_hook`'s reply with the warm session, as a hook run in `cwd` would answer;
        `directory` is the project directory the client ran in when its environment has no
        CLAUDE_PROJECT_DIR."""
        if cwd != self._cwd:
            os.chdir(cwd)  # raises when it can't: the client answers one-shot
            self._cwd = cwd
            self.forget()
        try:
            session = self.session()
        except Exception:
            self.forget()
            session = None
        project = (
            None if environ.get("CLAUDE_PROJECT_DIR") or directory is None else Path(directory)
        )
        return run_hook(payload, environ=environ, session=session, project=project)
