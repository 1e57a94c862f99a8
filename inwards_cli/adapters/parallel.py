"""Parsing many files on several processes (the only work the engine lets fan out)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from inwards_core.engine import ParseJob, parse_serially
from inwards_core.facts import ModuleFacts, facts_from_data, facts_to_data
from inwards_core.ports import GrammarBinaries

# Below this many files a pool costs more to start than it saves.
PARALLEL_THRESHOLD = 300


def worker_count() -> int:
    env = os.environ.get("INWARDS_WORKERS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def _chunk(jobs: Sequence[ParseJob], grammars: GrammarBinaries) -> list[dict[str, Any]]:
    # Plain lists and strings cross the process boundary several times faster than
    # attrs objects (whose pickling runs Python code per object).
    return [facts_to_data(facts) for facts in parse_serially(jobs, grammars)]


def parse_in_processes(jobs: Sequence[ParseJob], grammars: GrammarBinaries) -> list[ModuleFacts]:
    workers = worker_count()
    if workers < 2 or len(jobs) < PARALLEL_THRESHOLD:
        return parse_serially(jobs, grammars)
    # Imported here: a small run never pays for them.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork is cheap and needs no re-import; elsewhere the platform default is used.
    method = "fork" if sys.platform == "linux" else None
    context = multiprocessing.get_context(method)
    # Interleave files into chunks so big and small files spread evenly.
    chunks = [list(jobs[start :: workers * 4]) for start in range(workers * 4)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        results = list(pool.map(_chunk, chunks, [grammars] * len(chunks)))
    ordered: list[ModuleFacts | None] = [None] * len(jobs)
    step = workers * 4
    for start, chunk_result in enumerate(results):
        for offset, data in enumerate(chunk_result):
            ordered[start + offset * step] = facts_from_data(data)
    return [facts for facts in ordered if facts is not None]
