"""What a forked worker of `workers.py` runs: its set-up (the parent's death ends it, no
terminal, no core dumps), the limits armed before each file, and the frames both sides
write on the pipes (a length, then a pickle). `workers.py` is the parent's side.
"""

from __future__ import annotations

import functools
import os
import pickle
import signal
import struct
import sys
from typing import Any, NoReturn

from inwards_core.extraction.facts_reading import ParseJob, parse_job
from inwards_core.extraction.limits import ReadBudget, budget_for
from inwards_core.model.facts import ImportFact, ImportStyle, ModuleFacts
from inwards_core.model.facts_data import facts_from_data, facts_to_data
from inwards_core.model.findings import Span
from inwards_core.ports import GrammarBinaries

# Room in a worker's address space beyond a file's memory budget, for what parsing maps
# besides the heap: libcst's thread reserves a 256 MB stack and a malloc arena.
ADDRESS_SPACE_HEADROOM = 384 * 1024 * 1024

FRAME_HEADER = struct.Struct("<Q")  # the length of the pickle that follows
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_PR_SET_PDEATHSIG = 1


# -- frames on pipes ------------------------------------------------------------------


def frame(payload: bytes) -> bytes:
    """A pickle as it goes on a pipe: its length first, so the reader knows where it ends."""
    return FRAME_HEADER.pack(len(payload)) + payload


def _write_frame(descriptor: int, payload: bytes) -> None:
    view = memoryview(frame(payload))
    while view:
        written = os.write(descriptor, view)
        view = view[written:]


def _read_exactly(descriptor: int, size: int) -> bytes | None:
    """`size` bytes, or None at end of file (the writer is gone)."""
    chunks: list[bytes] = []
    while size:
        chunk = os.read(descriptor, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _read_frame(descriptor: int) -> bytes | None:
    header = _read_exactly(descriptor, FRAME_HEADER.size)
    if header is None:
        return None
    return _read_exactly(descriptor, FRAME_HEADER.unpack(header)[0])


# -- facts on pipes -------------------------------------------------------------------

# A file's facts as a worker sends them: its imports as flat rows, then the grammar, the
# line count, the names, and the cache's plain data of the facts when they hold more than
# that (dynamic imports, suppressions, a problem, `__path__` facts; rare). Flat tuples
# pickle and load several times faster than the cache's dictionaries and lists, and the
# parent builds the facts without checking every value again: the data is our worker's,
# not a file's that may have been tampered with.
_STYLES = {style.value: style for style in ImportStyle}


def facts_to_wire(facts: ModuleFacts) -> tuple[Any, ...]:
    if facts.content is not None:
        # Content facts are many small records: pickled as they are, they cross the pipe
        # in a third of the time that rows checked field by field take (our own worker,
        # fed by us, wrote them: nothing here comes from a cache).
        return ((), "", 0, (), facts)
    if (
        facts.dynamic_imports
        or facts.suppressions
        or facts.problem is not None
        or facts.extends_path
        or facts.registers
        or facts.import_hook_line
        or facts.content is not None
    ):
        return ((), "", 0, (), facts_to_data(facts))
    rows = [
        (
            fact.style.value,
            fact.module,
            fact.name,
            fact.target,
            fact.level,
            fact.span.line,
            fact.span.column,
            fact.span.end_line,
            fact.span.end_column,
            fact.statement,
            fact.type_checking,
            fact.in_function,
            fact.lazy,
            fact.raw_module,
            fact.statement_line,
        )
        for fact in facts.imports
    ]
    return (rows, facts.grammar, facts.line_count, facts.names, None)


def facts_from_wire(wire: tuple[Any, ...]) -> ModuleFacts:
    rows, grammar, line_count, names, data = wire
    if isinstance(data, ModuleFacts):
        return data
    if data is not None:
        return facts_from_data(data)
    styles = _STYLES
    imports = tuple(
        [
            ImportFact(
                styles[style],
                module,
                name,
                target,
                level,
                Span(line, column, end_line, end_column),
                statement,
                type_checking,
                in_function,
                lazy,
                raw_module,
                statement_line,
            )
            for (
                style,
                module,
                name,
                target,
                level,
                line,
                column,
                end_line,
                end_column,
                statement,
                type_checking,
                in_function,
                lazy,
                raw_module,
                statement_line,
            ) in rows
        ]
    )
    return ModuleFacts(imports=imports, grammar=grammar, line_count=line_count, names=names)


# -- the worker -----------------------------------------------------------------------


def worker_main(requests: int, results: int, grammars: GrammarBinaries, parent: int) -> NoReturn:
    """Parse batches of jobs until the parent closes the request pipe. Never returns."""
    try:
        _prepare_worker(parent)
        while True:
            request = _read_frame(requests)
            if request is None:
                break
            batch: list[tuple[int, Any]] = pickle.loads(request)
            for index, fields in batch:
                job = ParseJob(*fields)
                _limit_next_file(budget_for(len(job.data)))
                facts = parse_job(job, grammars)
                signal.setitimer(signal.ITIMER_PROF, 0)
                payload = pickle.dumps((index, facts_to_wire(facts)), protocol=5)
                _write_frame(results, payload)
    finally:
        os._exit(0)  # never run the parent's exit handlers or flush its buffers


def _prepare_worker(parent: int) -> None:
    if sys.platform == "linux":
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # the end-of-file on the request pipe still ends the worker
    if os.getppid() != parent:
        os._exit(0)  # the parent died before the death signal was armed
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent cleans up
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # not the parent's unwinding handlers
    signal.signal(signal.SIGPROF, signal.SIG_DFL)
    _set_soft_limit(_resource().RLIMIT_CORE, 0)
    _statm.cache_clear()  # opened in this process, it must name this process
    import faulthandler

    faulthandler.disable()  # a host (pytest) may have pointed it at its own stderr
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def _resource() -> Any:
    import resource

    return resource


def _set_soft_limit(which: int, soft: int) -> None:
    resource = _resource()
    try:
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(which, (soft, hard))
    except (OSError, ValueError):
        pass  # not supported here (macOS and RLIMIT_AS): the wall clock still applies


def _limit_next_file(budget: ReadBudget) -> None:
    # The profiling timer counts this process's CPU time; its signal, left at its default
    # action, ends the process even in the middle of native code.
    signal.setitimer(signal.ITIMER_PROF, budget.seconds)
    mapped = _address_space()
    if mapped is not None:
        room = budget.memory_mb * 1024 * 1024 + ADDRESS_SPACE_HEADROOM
        _set_soft_limit(_resource().RLIMIT_AS, mapped + room)


@functools.cache
def _statm() -> int | None:
    """/proc/self/statm, opened once per worker: read again with pread, it costs a
    microsecond instead of ten."""
    try:
        return os.open("/proc/self/statm", os.O_RDONLY)
    except OSError:
        return None


def _address_space() -> int | None:
    """The bytes this process has mapped (Linux), or None where that can't be read."""
    descriptor = _statm()
    if descriptor is None:
        return None
    try:
        pages = int(os.pread(descriptor, 128, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * _PAGE_SIZE
