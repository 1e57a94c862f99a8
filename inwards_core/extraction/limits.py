"""What reading one file may cost, and how a file that exceeds it is reported.

Every byte inwards reads may come from a stranger's pull request, so each file is read
within a budget of time and memory that grows with its size. The budget is policy, kept
here so that every adapter enforcing it (the CLI's worker processes, an editor's server)
words it the same way; enforcing it is the adapters' job, since the core neither forks
nor sets resource limits.
"""

from __future__ import annotations

import enum
import math
from typing import NamedTuple

from inwards_core.model.facts import FileProblem, FileProblemKind
from inwards_core.model.findings import Span

MEGABYTE = 1024 * 1024

# A file of up to 1 MB: 5 s of CPU time and 512 MB of memory, several times what the
# largest hand-written modules of Django, sympy or transformers need. Each further MB adds
# 2 s and 128 MB (generated code is big and plain), up to 60 s and 4 GB.
BASE_SECONDS = 5.0
BASE_MEMORY_MB = 512
SECONDS_PER_EXTRA_MB = 2.0
MEMORY_MB_PER_EXTRA_MB = 128
MAX_SECONDS = 60.0
MAX_MEMORY_MB = 4096


class ReadBudget(NamedTuple):
    """How much CPU time and memory reading one file may take (a NamedTuple: no attrs
    class to create on start-up)."""

    seconds: float
    memory_mb: int

    def describe(self) -> str:
        return f"{self.seconds:g} s of CPU time, {self.memory_mb} MB of memory"


def budget_for(size: int) -> ReadBudget:
    """The budget of a file of `size` bytes."""
    extra_mb = max(0, math.ceil((size - MEGABYTE) / MEGABYTE))
    return ReadBudget(
        seconds=min(BASE_SECONDS + SECONDS_PER_EXTRA_MB * extra_mb, MAX_SECONDS),
        memory_mb=min(BASE_MEMORY_MB + MEMORY_MB_PER_EXTRA_MB * extra_mb, MAX_MEMORY_MB),
    )


class LimitReason(enum.Enum):
    """Why reading a file was stopped."""

    TIME = "time"  # it used up its CPU time
    STALLED = "stalled"  # it made no progress for several times its CPU time
    MEMORY = "memory"  # it ran out of memory, or of Python's parser stack
    CRASH = "crash"  # the parser died (a signal, an abort)
    SHAPE = "shape"  # refused before parsing: a shape a parser can't read in bounded time


def limit_problem(budget: ReadBudget, reason: LimitReason, detail: str = "") -> FileProblem:
    """The problem INW020 reports for a file whose reading was stopped: what happened and
    the limit it hit. `detail` says what was seen: a signal, or for SHAPE the whole story
    (it names its own limit)."""
    if reason is LimitReason.SHAPE:
        return FileProblem(FileProblemKind.LIMIT, detail, Span.start_of_file())
    if reason is LimitReason.TIME:
        what = "reading it used up its CPU time"
    elif reason is LimitReason.STALLED:
        what = "reading it stalled"
    elif reason is LimitReason.MEMORY:
        what = "reading it ran out of memory"
    else:
        what = "the parser crashed on it"
    if detail:
        what += f" ({detail})"
    return FileProblem(
        FileProblemKind.LIMIT,
        f"{what}; the limits for a file of its size are {budget.describe()}",
        Span.start_of_file(),
    )
