"""Where each file is parsed: in this process, or in a worker a crash can't take down.

Every byte inwards reads may come from a stranger's pull request, and the parsers are not
ours: libcst's native parser aborts or crashes on some inputs, and any parser can be made
to take minutes or gigabytes on a big enough file. Each file is therefore read within the
budget of time and memory `inwards_core.extraction.limits` sets for its size:

- A small file (up to 256 KB) that CPython's parser can read is read in this process. No
  input of that size takes CPython's parser near the budget (its worst shapes cost about
  2 µs and 600 bytes a byte: 0.5 s and 150 MB), and it can't crash it. This is what keeps a
  one-file check from paying for a worker.
- Every other file is read in a forked worker under the budget (`workers.py`): a file over
  256 KB, or one that needs libcst (syntax newer than Python 3.11): reading it here stops
  with `ParserRefused` and it goes to a worker.
- A run with enough files for two readers or more reads them in parallel: forked workers
  and this process, which reads the files it may read (as above) between two looks at
  its workers, so one reader fewer is forked and its facts cross no pipe.

Where fork is missing (Windows) files are parsed in a process pool for big runs and in this
process otherwise, without limits.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from inwards_core.extraction.facts_reading import ParseJob, parse_job, parse_serially
from inwards_core.model.facts import ModuleFacts
from inwards_core.model.facts_data import facts_from_data, facts_to_data
from inwards_core.ports import GrammarBinaries, ParserRefused

if TYPE_CHECKING:
    import ast

    import libcst

    from inwards_cli.adapters.progress import Progress

# Files per reader (this process or a worker) below which another worker costs more than
# it saves: a worker costs its fork and the pages both processes then copy, and about a
# fifth more CPU a file it reads (pipes, pickles). On 2 free cores one worker beside this
# process starts to pay at about 300 files (docs/benchmarks.md, "Cold runs").
FILES_PER_WORKER = 150
# Files up to this size that CPython's parser reads are read in this process.
IN_PROCESS_MAX_BYTES = 256 * 1024

_CAN_FORK = hasattr(os, "fork")


def worker_count() -> int:
    env = os.environ.get("INWARDS_WORKERS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def parse_in_processes(
    jobs: Sequence[ParseJob], grammars: GrammarBinaries, progress: Progress | None = None
) -> list[ModuleFacts]:
    """Facts for every job, in order; a file that exceeds its budget or crashes the parser
    gets a LIMIT problem instead (see the module's doc). `progress` hears (done, total)
    as files are parsed."""
    if not jobs:
        return []
    if not _CAN_FORK:
        return _parse_without_limits(jobs, grammars)
    read_here = _reader_here(grammars)
    # Imported only when used: the in-process path needs no pipes, signals or pickles.
    readers = min(worker_count(), len(jobs) // FILES_PER_WORKER)
    if readers >= 2:
        from inwards_cli.adapters.workers import parse_in_workers

        return parse_in_workers(jobs, grammars, readers - 1, progress, read_here)
    results: list[ModuleFacts | None] = [None] * len(jobs)
    elsewhere: list[int] = []
    for index, job in enumerate(jobs):
        results[index] = read_here(job)
        if results[index] is None:
            elsewhere.append(index)
        if progress is not None:
            progress(index + 1 - len(elsewhere), len(jobs))
    if elsewhere:
        from inwards_cli.adapters.workers import parse_in_workers

        parsed = parse_in_workers([jobs[index] for index in elsewhere], grammars, 1)
        for index, facts in zip(elsewhere, parsed, strict=True):
            results[index] = facts
    if progress is not None:
        progress(len(jobs), len(jobs))
    return [facts if facts is not None else ModuleFacts() for facts in results]


def _reader_here(grammars: GrammarBinaries) -> Callable[[ParseJob], ModuleFacts | None]:
    """Reads a job in this process, or returns None for a job a worker must read: a big
    file, or one that needs libcst's native parser."""
    here = _WithoutNativeParser(grammars)

    def read_here(job: ParseJob) -> ModuleFacts | None:
        if len(job.data) > IN_PROCESS_MAX_BYTES:
            return None
        try:
            return parse_job(job, here)
        except ParserRefused:
            return None

    return read_here


class _WithoutNativeParser(GrammarBinaries):
    """The same grammars, except that libcst's native parser is refused in this process:
    the file that needs it is read by a worker. The ids are the same, so are the facts."""

    def __init__(self, grammars: GrammarBinaries) -> None:
        self._grammars = grammars

    @property
    def grammar_ids(self) -> tuple[str, ...]:
        return self._grammars.grammar_ids

    def parse_python(self, text: str, filename: str) -> ast.Module:
        return self._grammars.parse_python(text, filename)

    def check_python(self, text: str, filename: str) -> None:
        self._grammars.check_python(text, filename)

    def parse_concrete(self, text: str) -> libcst.Module:
        raise ParserRefused("libcst's native parser runs in a worker process only")


# -- without fork ---------------------------------------------------------------------

# Without fork a pool of fresh interpreters costs more than it saves below this.
_POOL_THRESHOLD = 300


def _chunk(jobs: Sequence[ParseJob], grammars: GrammarBinaries) -> list[dict[str, Any]]:
    # Plain lists and strings cross the process boundary several times faster than
    # attrs objects (whose pickling runs Python code per object).
    return [facts_to_data(facts) for facts in parse_serially(jobs, grammars)]


def _parse_without_limits(jobs: Sequence[ParseJob], grammars: GrammarBinaries) -> list[ModuleFacts]:
    workers = worker_count()
    if workers < 2 or len(jobs) < _POOL_THRESHOLD:
        return parse_serially(jobs, grammars)
    from concurrent.futures import ProcessPoolExecutor

    step = workers * 4
    chunks = [list(jobs[start::step]) for start in range(step)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_chunk, chunks, [grammars] * len(chunks)))
    ordered: list[ModuleFacts | None] = [None] * len(jobs)
    for start, chunk_result in enumerate(results):
        for offset, data in enumerate(chunk_result):
            ordered[start + offset * step] = facts_from_data(data)
    return [facts for facts in ordered if facts is not None]
