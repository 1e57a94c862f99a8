"""Worker processes that a hostile file can't take down (POSIX: they are forked).

Each file is parsed one at a time under the budget `inwards_core.extraction.limits` sets
for its size:

- CPU time: a profiling timer (ITIMER_PROF) is armed before each file, so the kernel
  stops a worker that uses up the file's seconds (SIGPROF); a worker that stalls without
  using CPU is killed after three times that in wall time.
- Memory: the worker's address space (RLIMIT_AS, Linux) may grow by the file's budget;
  past it allocations fail (a MemoryError becomes the file's problem) or the parser aborts.
- A worker that dies, for whatever reason, costs only the file it was reading: that file
  is reported (INW020, naming the limit), a new worker takes the rest of its batch.

Workers end with their parent: the parent holds the only write end of each worker's
request pipe, so a worker waiting for work reads end-of-file when the parent is gone, and
on Linux the kernel also kills them when the parent dies (PR_SET_PDEATHSIG). They never
write to the terminal or the report (standard output and error point at /dev/null) and
never dump core into the project.

The parent may read files too (`read_here`): between two looks at its workers it takes
the next file a worker has not taken, when it is one the caller lets this process read
(see `parallel.py`). On two cores one worker and the parent then read in parallel, and
only the worker's half of the facts crosses a pipe.

This module is the parent's side (`_Supervisor`); what a worker runs is `worker_process.py`.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_cli.adapters.worker_process import (
    FRAME_HEADER,
    facts_from_wire,
    frame,
    worker_main,
)
from inwards_core.extraction.facts_reading import ParseJob, parse_serially
from inwards_core.extraction.limits import LimitReason, ReadBudget, budget_for, limit_problem
from inwards_core.model.facts import ModuleFacts
from inwards_core.ports import GrammarBinaries

if TYPE_CHECKING:
    from inwards_cli.adapters.progress import Progress

MAX_BATCH = 32
# A worker that stalls without using CPU is killed after this many times its CPU budget.
WALL_CLOCK_FACTOR = 3.0
# Seconds this process reads between two looks at its workers: each look costs system
# calls, and a worker has two batches waiting (tens of files), far more than this.
READ_HERE_SLICE = 0.002

# Reads one job in this process, or returns None when a worker must read it.
ReadHere = Callable[[ParseJob], ModuleFacts | None]


def parse_in_workers(
    jobs: Sequence[ParseJob],
    grammars: GrammarBinaries,
    workers: int,
    progress: Progress | None = None,
    read_here: ReadHere | None = None,
) -> list[ModuleFacts]:
    """Facts for every job, in order, parsed by up to `workers` forked workers, and by this
    process too with `read_here`; a file that exceeds its budget or crashes its worker gets
    a LIMIT problem instead."""
    # Imported before forking, so that workers share it instead of each importing it.
    import inwards_core.extraction.pipeline

    if any(job.content for job in jobs):
        import inwards_core.extraction.content  # noqa: F401

    return _Supervisor(jobs, grammars, max(1, workers), progress, read_here).run()


@attrs.define
class _Worker:
    pid: int
    requests: int  # write end of the worker's request pipe
    results: int  # read end of the worker's result pipe
    batch: deque[int] = attrs.Factory(deque)  # job indexes sent and not yet answered
    deadline: float = 0.0  # when the job at batch[0] counts as stalled
    killed_for_time: bool = False
    received: bytearray = attrs.Factory(bytearray)  # results read, not yet taken
    outgoing: bytearray = attrs.Factory(bytearray)  # requests not yet taken by the pipe


class _Supervisor:
    def __init__(
        self,
        jobs: Sequence[ParseJob],
        grammars: GrammarBinaries,
        workers: int,
        progress: Progress | None = None,
        read_here: ReadHere | None = None,
    ) -> None:
        self._jobs = jobs
        self._progress = progress
        self._done = 0  # results taken
        self._grammars = grammars
        self._target = workers
        self._read_here = read_here
        self._pending: deque[int] = deque(range(len(jobs)))
        # Jobs this process may not read: workers take them before the others.
        self._workers_only: deque[int] = deque()
        self._results: list[ModuleFacts | None] = [None] * len(jobs)
        self._workers: dict[int, _Worker] = {}  # by result descriptor

    def run(self) -> list[ModuleFacts]:
        try:
            while (
                self._pending or self._workers_only or any(w.batch for w in self._workers.values())
            ):
                if not self._dispatch():
                    self._parse_rest_here()
                    break
                if self._read_here is not None and self._pending:
                    self._read_some_here(self._read_here)
                    self._wait(block=False)
                else:
                    self._wait()
                if self._progress is not None:
                    self._progress(self._done, len(self._jobs))
        finally:
            self._stop_all()
        return [facts if facts is not None else ModuleFacts() for facts in self._results]

    # -- giving out work --

    def _read_some_here(self, read_here: ReadHere) -> None:
        """Read jobs no worker has taken in this process for about `READ_HERE_SLICE`, from
        the back (workers take from the front); a job this process may not read is left to
        the workers."""
        until = time.monotonic() + READ_HERE_SLICE
        while self._pending:
            index = self._pending.pop()
            facts = read_here(self._jobs[index])
            if facts is None:
                self._workers_only.append(index)
            else:
                self._results[index] = facts
                self._done += 1
            if time.monotonic() >= until:
                return

    def _take(self, count: int) -> list[int]:
        """Up to `count` jobs for a worker, those only a worker may read first."""
        taken: list[int] = []
        for queue in (self._workers_only, self._pending):
            while queue and len(taken) < count:
                taken.append(queue.popleft())
        return taken

    def _dispatch(self) -> bool:
        """Start workers and hand idle ones a batch; False when no worker can start."""
        while (self._pending or self._workers_only) and len(self._workers) < self._target:
            try:
                self._spawn()
            except OSError:
                if not self._workers:
                    return False
                break  # out of processes or descriptors: go on with those running
        queued = len(self._pending) + len(self._workers_only)
        for worker in list(self._workers.values()):
            if not worker.batch and not queued:
                self._retire(worker)
                continue
            # Two batches in flight: a worker finds its next batch waiting in its pipe
            # the moment it finishes one, instead of idling until this process is
            # scheduled to send one. This process, reading too, counts as one more.
            readers = self._target + (self._read_here is not None)
            size = max(1, min(MAX_BATCH, queued // (readers * 4)))
            if not queued or len(worker.batch) >= size:
                continue
            indexes = self._take(size)
            queued -= len(indexes)
            batch = [(index, _fields(self._jobs[index])) for index in indexes]
            idle = not worker.batch
            worker.batch.extend(indexes)
            if idle:
                self._started(worker)
            payload = pickle.dumps(batch, protocol=5)
            worker.outgoing += frame(payload)
            self._send(worker)
        return True

    def _send(self, worker: _Worker) -> None:
        """Write what the pipe takes now, never waiting: a worker blocked writing its
        results while this process blocked writing its next batch would be a deadlock."""
        while worker.outgoing:
            try:
                written = os.write(worker.requests, worker.outgoing)
            except BlockingIOError:
                return  # the pipe is full: the rest goes when select says it may
            except OSError:
                self._reap(worker)  # it died before reading: blames its current file
                return
            del worker.outgoing[:written]

    def _spawn(self) -> None:
        request_read, request_write = os.pipe()
        result_read, result_write = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the worker: keep only its own ends of its own pipes
            os.close(request_write)
            os.close(result_read)
            for other in self._workers.values():
                os.close(other.requests)
                os.close(other.results)
            worker_main(request_read, result_write, self._grammars, parent)
        os.close(request_read)
        os.close(result_write)
        _widen(request_write)
        os.set_blocking(request_write, False)
        self._workers[result_read] = _Worker(pid, request_write, result_read)

    # -- collecting results --

    def _wait(self, *, block: bool = True) -> None:
        """Take what workers have written and send what they may read, waiting for the
        first of them (or a deadline) with `block`; kill workers past their deadline."""
        busy = [w for w in self._workers.values() if w.batch]
        if not busy:
            return
        now = time.monotonic()
        deadline = min(w.deadline for w in busy)
        sending = {w.requests: w for w in busy if w.outgoing}
        readable, writable, _ = select.select(
            [w.results for w in busy],
            list(sending),
            [],
            max(0.0, deadline - now) if block else 0.0,
        )
        for descriptor in writable:
            if sending[descriptor].results in self._workers:
                self._send(sending[descriptor])
        for descriptor in readable:
            worker = self._workers.get(descriptor)
            if worker is not None:
                self._receive(worker)
        now = time.monotonic()
        for worker in [w for w in self._workers.values() if w.batch]:
            if now > worker.deadline:
                worker.killed_for_time = True
                _kill(worker.pid)
                self._reap(worker)

    def _started(self, worker: _Worker) -> None:
        """The job at the head of the worker's batch starts now."""
        if worker.batch:
            budget = budget_for(len(self._jobs[worker.batch[0]].data))
            worker.deadline = time.monotonic() + budget.seconds * WALL_CLOCK_FACTOR

    def _receive(self, worker: _Worker) -> None:
        """Take every result the worker has written so far (one read, many frames)."""
        try:
            chunk = os.read(worker.results, 1 << 20)
        except OSError:
            chunk = b""
        worker.received += chunk
        while len(worker.received) >= FRAME_HEADER.size:
            size = FRAME_HEADER.unpack_from(worker.received)[0]
            end = FRAME_HEADER.size + size
            if len(worker.received) < end:
                break
            index, wire = pickle.loads(worker.received[FRAME_HEADER.size : end])
            del worker.received[:end]
            self._results[index] = facts_from_wire(wire)
            self._done += 1
            if worker.batch and worker.batch[0] == index:
                worker.batch.popleft()
                self._started(worker)
        if not chunk:  # end of file: the worker is gone (its last results are taken)
            self._reap(worker)

    def _reap(self, worker: _Worker) -> None:
        """A worker ended (or was killed) while it had work: blame the file it was
        reading, give the rest of its batch back."""
        status = _wait_for(worker.pid)
        self._forget(worker)
        if not worker.batch:
            return
        culprit = worker.batch.popleft()
        self._pending.extendleft(reversed(worker.batch))
        worker.batch.clear()
        budget = budget_for(len(self._jobs[culprit].data))
        reason, detail = _why_it_ended(status, budget, worker.killed_for_time)
        self._results[culprit] = ModuleFacts(problem=limit_problem(budget, reason, detail))

    def _retire(self, worker: _Worker) -> None:
        """An idle worker with nothing left to do: end-of-file tells it to exit."""
        self._forget(worker)
        _wait_for(worker.pid)

    def _forget(self, worker: _Worker) -> None:
        self._workers.pop(worker.results, None)
        for descriptor in (worker.requests, worker.results):
            with contextlib.suppress(OSError):
                os.close(descriptor)

    def _stop_all(self) -> None:
        for worker in list(self._workers.values()):
            if worker.batch:  # interrupted: don't wait for it
                _kill(worker.pid)
            self._forget(worker)
            _wait_for(worker.pid)

    def _parse_rest_here(self) -> None:
        """No worker could be started at all: parse in this process, without limits."""
        rest = [*self._workers_only, *self._pending]
        self._pending.clear()
        self._workers_only.clear()
        for index, facts in zip(
            rest, parse_serially([self._jobs[i] for i in rest], self._grammars), strict=True
        ):
            self._results[index] = facts


def _widen(descriptor: int) -> None:
    """Let a request pipe hold two batches (Linux: 1 MiB instead of 64 KiB), so sending
    one to a busy worker doesn't wait for it to read."""
    if sys.platform != "linux":
        return
    import fcntl

    with contextlib.suppress(OSError):
        fcntl.fcntl(descriptor, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)


def _fields(job: ParseJob) -> tuple[str, bytes, str, bool, bool, bool, bool]:
    # A plain tuple pickles several times faster than an attrs instance.
    return (
        job.file,
        job.data,
        job.module,
        job.is_package,
        job.check_syntax,
        job.names,
        job.content,
    )


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _wait_for(pid: int) -> int:
    while True:
        try:
            return os.waitpid(pid, 0)[1]
        except ChildProcessError:
            return 0
        except InterruptedError:
            continue


def _why_it_ended(
    status: int, budget: ReadBudget, killed_for_time: bool
) -> tuple[LimitReason, str]:

    if killed_for_time:
        return LimitReason.STALLED, f"no result after {budget.seconds * WALL_CLOCK_FACTOR:g} s"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number in (signal.SIGPROF, signal.SIGXCPU):
            return LimitReason.TIME, ""
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        if number == signal.SIGABRT:
            # Native code aborts when an allocation fails under the memory limit.
            return LimitReason.MEMORY, f"the parser aborted, {name}"
        if number == signal.SIGKILL:
            return LimitReason.MEMORY, f"{name}, most likely the system's out-of-memory killer"
        return LimitReason.CRASH, name
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    return LimitReason.CRASH, f"its worker ended with status {code}"
