"""SIGTERM and SIGHUP end a run as Ctrl-C does: an exception raised in the main thread, so
that what is being written is unwound (the atomic writer removes its temp file,
import-config puts back the files it had written), then the run ends with 128 + the
signal's number (143 for SIGTERM), as Ctrl-C ends it with 130.

Installed by the console script only (`main.py`): a script that uses `inwards_core` keeps its
own signal handlers.
"""

from __future__ import annotations

# The C module `signal` wraps, already loaded by every interpreter: `import signal` builds
# its enums, 0.7 ms of every start-up, for names we don't need. It has no type stubs.
import _signal  # type: ignore[import-not-found]

TYPE_CHECKING = False
if TYPE_CHECKING:  # `typing` costs about 10 ms of a hook's start (its daemon's client)
    from types import FrameType
    from typing import Any

_SIGNAL: Any = _signal
# The signals a run is ended by, with their names (SIGHUP: the terminal went away). SIGINT
# stays Python's own KeyboardInterrupt.
ENDING = {
    number: name
    for name in ("SIGTERM", "SIGHUP")
    if (number := getattr(_SIGNAL, name, None)) is not None
}
_received: list[int] = []


class Terminated(BaseException):
    """Raised by SIGTERM or SIGHUP; a BaseException, as KeyboardInterrupt is, so that no
    `except Exception` stops it."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number

    @property
    def exit_status(self) -> int:
        return 128 + self.number

    @property
    def message(self) -> str:
        return f"inwards: terminated by {ENDING.get(self.number, f'signal {self.number}')}"


def end_on_termination() -> None:
    """Install the handlers: the first SIGTERM or SIGHUP raises `Terminated`; any after it
    is ignored, so that the unwinding it started is not cut short."""
    for number in ENDING:
        _SIGNAL.signal(number, _terminate)


def _terminate(number: int, frame: FrameType | None) -> None:
    _received.append(number)
    for ending in ENDING:
        _SIGNAL.signal(ending, _SIGNAL.SIG_IGN)
    raise Terminated(number)


def received() -> Terminated | None:
    """The termination a signal asked for, when one came (watchfiles turns any exception of
    a signal handler into KeyboardInterrupt: this tells the two apart)."""
    return Terminated(_received[0]) if _received else None
