"""Standard output that can't end a run with a truncated report and a success status.

Writing to stdout can fail: a full disk (`> /dev/full`), a file-size limit (RLIMIT_FSIZE,
whose signal SIGXFSZ would kill us without a word), a reader that went away (`| head -1`).
Python raises from whichever print happened to fill its buffer (a traceback, exit 1, the
code for "violations found"), or at exit prints "Exception ignored" and ends with 120.

`guard_standard_output` (first thing in `main`) routes stdout through a writer that turns
the first failed write into one line on stderr and exit status 2; what is left to write is
dropped. A broken pipe ends the run quietly, by SIGPIPE, as `cat` or `grep` end: a shell
shows status 141, which no one mistakes for a verdict (0, 1) or a usage error (2), and
`set -o pipefail` treats it as it treats theirs.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import io
import os
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

__all__ = ["EXIT_NOT_WRITTEN", "guard_standard_output", "write_standard_output"]

# The usage/config error status: a report that could not be written is no verdict.
EXIT_NOT_WRITTEN = 2
_SIGPIPE_STATUS = 128 + 13


def guard_standard_output() -> None:
    """Make a failed write to stdout an error that ends the run (see the module doc).
    A file-size limit fails the write (EFBIG) instead of killing us: CPython ignores
    SIGXFSZ from the start (as it ignores SIGPIPE), so no `signal` import is paid here."""
    current = sys.stdout
    try:
        descriptor = current.fileno()
        current.flush()
    except (AttributeError, OSError, ValueError):
        return  # no real stdout (pythonw, a test's capture): nothing to guard
    guarded = GuardedDescriptor(descriptor)
    # Buffered as it was: PYTHONUNBUFFERED (or -u) keeps stdout and stderr in order in a log.
    unbuffered = isinstance(getattr(current, "buffer", None), io.RawIOBase)
    sys.stdout = io.TextIOWrapper(
        guarded if unbuffered else io.BufferedWriter(guarded),
        encoding=current.encoding,
        errors=current.errors,
        line_buffering=bool(current.line_buffering),
        write_through=unbuffered,
    )
    atexit.register(_flush_at_exit, guarded)


def write_standard_output(text: str, subject: str = "the output") -> None:
    """Write and flush `text`; a failure ends the run with a message about `subject`."""
    layer = getattr(sys.stdout, "buffer", None)  # the guard itself when unbuffered
    for guarded in (layer, getattr(layer, "raw", None)):
        if isinstance(guarded, GuardedDescriptor):
            guarded.subject = subject
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:  # stdout is not guarded: say the same
        stop(error, subject)


class GuardedDescriptor(io.RawIOBase):
    """A write-only descriptor whose first failed write ends the run (see `stop`)."""

    def __init__(self, descriptor: int) -> None:
        super().__init__()
        self.descriptor = descriptor
        self.subject = "the output"
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.descriptor

    def isatty(self) -> bool:
        return os.isatty(self.descriptor)

    def write(self, data: ReadableBuffer) -> int:
        """Write all of `data`: unbuffered, the text layer above drops what a short write
        (a file-size limit reached half-way) leaves over."""
        view = memoryview(data).cast("B")
        if self.failed:  # said once already; the rest goes nowhere
            return view.nbytes
        written = 0
        while written < view.nbytes:
            try:
                written += os.write(self.descriptor, view[written:])
            except BlockingIOError:  # a parent left the descriptor non-blocking
                _wait_until_writable(self.descriptor)
            except OSError as error:
                self.failed = True
                stop(error, self.subject)
        return written


def stop(error: OSError, subject: str) -> NoReturn:
    """End the run after a failed write to stdout: quietly by SIGPIPE for a broken pipe,
    otherwise with one line on stderr and `EXIT_NOT_WRITTEN`."""
    if error.errno == errno.EPIPE:
        _end_by_sigpipe()
    reason = error.strerror or str(error)
    _say(
        f"can't write {subject} to standard output: {reason[:1].lower()}{reason[1:]}; "
        "what was written is incomplete."
    )
    raise SystemExit(EXIT_NOT_WRITTEN)


def _end_by_sigpipe() -> NoReturn:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    import signal  # only on this rare path

    sigpipe = getattr(signal, "SIGPIPE", None)
    if sigpipe is not None:
        signal.signal(sigpipe, signal.SIG_DFL)  # Python ignores it from the start
        os.kill(os.getpid(), sigpipe)
    raise SystemExit(_SIGPIPE_STATUS)  # no SIGPIPE here (Windows) or it is blocked


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _wait_until_writable(descriptor: int) -> None:
    import select  # only on this rare path

    select.select([], [descriptor], [])


def _flush_at_exit(guarded: GuardedDescriptor) -> None:
    """Flush before the interpreter's own last flush, which could only print "Exception
    ignored" and end with status 120, and make a failed write the exit status whenever it
    happened: the interpreter also flushes after running a script and drops any exception
    that raises (our SystemExit included)."""
    with contextlib.suppress(SystemExit, OSError, ValueError):
        sys.stdout.flush()
    if guarded.failed:
        os._exit(EXIT_NOT_WRITTEN)
