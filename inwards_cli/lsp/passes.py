"""Whole passes, coalesced: a burst of saves or watched-file changes (a "save all", a branch
switch, a formatter writing every file) runs two passes, not one per event.

The first event after a quiet spell runs its pass at once (a lone save stays as fast as
before); events that come within `COALESCE_SECONDS` of the end of the last pass wait, and
one pass at the end of that window takes them all. Everything runs on the server's asyncio
loop, so the session is only ever used from that one thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

# How long after a pass further events are gathered into one more pass (seconds): longer
# than the gaps between the writes of one "save all", short enough to go unnoticed.
COALESCE_SECONDS = 0.1

_LOG = logging.getLogger(__name__)

PassRunner = Callable[[Sequence[Path], Sequence[str]], None]


class CoalescedPasses:
    """Gathers changed paths (and the documents to republish whatever happens, `also`) and
    hands them to `run` at the leading edge of a burst and once more at its end."""

    def __init__(self, run: PassRunner, window: float = COALESCE_SECONDS) -> None:
        self._run = run
        self._window = window
        self._paths: dict[Path, None] = {}  # insertion-ordered sets
        self._also: dict[str, None] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._last_end: float | None = None

    def add(self, paths: Iterable[Path], also: Iterable[str] = ()) -> None:
        self._paths.update(dict.fromkeys(paths))
        self._also.update(dict.fromkeys(also))
        if self._timer is not None:
            return  # the pass at the end of the window takes these too
        loop = asyncio.get_running_loop()
        wait = 0.0 if self._last_end is None else self._last_end + self._window - loop.time()
        if wait <= 0:
            self._flush()
        else:
            self._timer = loop.call_later(wait, self._flush)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _flush(self) -> None:
        self._timer = None
        paths, also = tuple(self._paths), tuple(self._also)
        self._paths.clear()
        self._also.clear()
        try:
            self._run(paths, also)
        except Exception:
            # A timer's callback has no request to fail: log it, keep serving.
            _LOG.exception("inwards: a whole pass failed")
        finally:
            self._last_end = asyncio.get_running_loop().time()
