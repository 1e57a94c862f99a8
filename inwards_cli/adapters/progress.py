"""A progress bar on standard error while files are parsed, for long runs at a terminal.

It shows only when it can help and can't get in the way: standard error is a terminal, no
CI runner is named in the environment, the report is for people (text or concise), and
the run is still parsing a second after it started. It redraws at most ten times a
second on one line and erases itself before the report is written.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import TextIO

# done, total: files parsed so far, and files to parse.
Progress = Callable[[int, int], None]

DELAY_SECONDS = 1.0
_REDRAW_SECONDS = 0.1
_BAR_WIDTH = 30
# Variables CI runners set (GitHub Actions, GitLab, Azure, Jenkins, Buildkite, CircleCI...).
_CI_VARIABLES = ("CI", "BUILD_NUMBER", "TF_BUILD", "GITHUB_ACTIONS", "GITLAB_CI")


def wanted(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether a bar may be drawn on `stream`: a terminal, outside CI, TERM not dumb."""
    if any(environ.get(name, "") not in ("", "0", "false") for name in _CI_VARIABLES):
        return False
    if environ.get("TERM", "") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream
        return False


class ProgressBar:
    """Called with (done, total) as files are parsed; draws nothing before DELAY_SECONDS
    have passed since it was made."""

    def __init__(
        self,
        stream: TextIO,
        clock: Callable[[], float] = time.monotonic,
        delay: float = DELAY_SECONDS,
    ) -> None:
        self._stream = stream
        self._clock = clock
        self._shown_from = clock() + delay
        self._drawn_at: float | None = None

    def __call__(self, done: int, total: int) -> None:
        now = self._clock()
        if now < self._shown_from or total <= 0:
            return
        if done >= total:
            self.close()
            return
        if self._drawn_at is not None and now - self._drawn_at < _REDRAW_SECONDS:
            return
        filled = _BAR_WIDTH * done // total
        bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
        self._write(f"\rinwards: parsing [{bar}] {done:,}/{total:,} files")
        self._drawn_at = now

    def close(self) -> None:
        """Erase the bar, if it was drawn."""
        if self._drawn_at is not None:
            self._write("\r\x1b[K")
            self._drawn_at = None

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):  # a bar is never worth failing the check for
            self._drawn_at = None


def progress_bar(stream: TextIO, environ: Mapping[str, str] = os.environ) -> ProgressBar | None:
    return ProgressBar(stream) if wanted(stream, environ) else None
