"""One hook run's view of its project: the payload, the configuration, the session that
checks (opened when first needed, or the daemon's warm one), the state directory, the
session's start record and its log."""

from __future__ import annotations

import contextlib
import datetime
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inwards_cli.agents.payload import HookPayload
from inwards_cli.agents.project import session_for
from inwards_cli.agents.record import StartRecord
from inwards_cli.agents.state import (
    LOG_SUFFIX,
    MAX_START_BYTES,
    START_SUFFIX,
    StateDirectory,
    StateError,
    dumps,
    session_stem,
)
from inwards_cli.config_file import LoadedConfig
from inwards_core.config.values import Config, ConfigError
from inwards_core.session import Session

LOG_VERSION = 1
MAX_KEPT_RECORDS = 16
# Start records parsed, by project and file, with the stamp of the file they were read from.
_START_RECORDS: dict[tuple[str, str], tuple[tuple[int, int, int], StartRecord | None]] = {}


class HookRun:
    """What the event handlers share. Not thread-safe; `close` it when done (it closes the
    session it opened, never one it was given)."""

    def __init__(
        self,
        payload: HookPayload,
        *,
        environ: Mapping[str, str],
        claude_dir: Path,
        loaded: LoadedConfig,
        session: Session | None,
        config_error: ConfigError | None = None,
        clock: Any = time.perf_counter,
    ) -> None:
        self.payload = payload
        self.environ = environ
        self.claude_dir = claude_dir
        self.loaded = loaded
        self.project_dir = Path(os.path.realpath(loaded.project_dir))
        self.stem = session_stem(payload.session_id)
        # Set when `[tool.inwards]` can't be read (`loaded.table` is then empty).
        self.config_error = config_error
        self._given = session
        self._session: Session | None = None
        self._state: StateDirectory | None = None
        self._clock = clock
        self._started = clock()

    # -- what the run opens -----------------------------------------------------------

    def session(self) -> Session:
        """The session that checks (`ConfigError` and the like when it can't be opened)."""
        if self.config_error is not None:
            raise self.config_error
        if self._given is not None:
            return self._given
        if self._session is None:
            self._session = session_for(self.loaded)
        return self._session

    def config(self) -> Config:
        return self.session().config

    def state(self) -> StateDirectory:
        """The state directory, made when missing (`StateError` when it can't be used)."""
        if self._state is None:
            self._state = StateDirectory.open(self.project_dir, create=True)
            assert self._state is not None  # made when missing
        return self._state

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None
        if self._state is not None:
            self._state.close()
            self._state = None

    # -- the session's files ------------------------------------------------------------

    @property
    def start_name(self) -> str:
        return self.stem + START_SUFFIX

    @property
    def log_name(self) -> str:
        return self.stem + LOG_SUFFIX

    def start_record(self) -> StartRecord | None:
        """The session's start record; None when there is none or it is no record. A
        process that answers many runs (the daemon) parses it again only when the file
        changed: it holds the digests of every Python file of the project."""
        try:
            state = self.state()
            stamp = state.stamp(self.start_name)
            key = (str(self.project_dir), self.start_name)
            known = _START_RECORDS.get(key)
            if stamp is not None and known is not None and known[0] == stamp:
                return known[1]
            document = state.read_json(self.start_name, max_bytes=MAX_START_BYTES)
        except StateError:
            return None
        record = StartRecord.from_json(document)
        if stamp is not None:
            if len(_START_RECORDS) >= MAX_KEPT_RECORDS:
                _START_RECORDS.pop(next(iter(_START_RECORDS)))
            _START_RECORDS[key] = (stamp, record)
        return record

    def log_entries(self) -> list[dict[str, Any]]:
        try:
            return self.state().read_lines(self.log_name)
        except StateError:
            return []

    def log(self, entry: Mapping[str, Any]) -> None:
        """One line of the session log for this run, with its time and latency. A log that
        can't be written costs the record, never the reply."""
        line: dict[str, Any] = {
            "v": LOG_VERSION,
            "at": now_text(),
            "event": self.payload.event,
        }
        if self.payload.tool_name:
            line["tool"] = self.payload.tool_name
        if self.payload.tool_use_id:
            line["toolUseId"] = self.payload.tool_use_id[:200]
        line.update(entry)
        line["latencyMs"] = round((self._clock() - self._started) * 1000, 1)
        with contextlib.suppress(StateError, OSError):
            self.state().append(self.log_name, (dumps(line) + "\n").encode("utf-8"))

    # -- paths --------------------------------------------------------------------------

    def inside(self, path: str) -> str | None:
        """`path` (absolute, or relative to the agent's project directory; the payload's
        `cwd` is not trusted) as a POSIX path relative to the project directory, links
        resolved; None when it is outside."""
        absolute = Path(path) if os.path.isabs(path) else self.claude_dir / path
        real = Path(os.path.realpath(absolute))
        try:
            return real.relative_to(self.project_dir).as_posix()
        except ValueError:
            return None


def now_text() -> str:
    moment = datetime.datetime.now(datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
