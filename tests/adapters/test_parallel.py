"""parse_in_processes gives the facts parse_serially gives, wherever it reads a file: small
plain files in this process, libcst's files and big ones in a worker, big runs in several
workers beside this process; and a file that kills its worker costs only itself."""

from __future__ import annotations

import pickle
import sys

import pytest

from inwards_cli.adapters.parallel import IN_PROCESS_MAX_BYTES, parse_in_processes
from inwards_cli.adapters.worker_process import facts_from_wire, facts_to_wire
from inwards_cli.adapters.workers import parse_in_workers
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.extraction.facts_reading import ParseJob, parse_job, parse_serially
from inwards_core.model.facts import FileProblemKind, ModuleFacts

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="workers need fork")

GRAMMARS = StandardGrammars()
PLAIN = b"import os\nfrom shop.domain import order\n"
NEWER = b"type Amount = int\nimport os\nfrom shop.adapters import db\n"
BIG = b"import json\n" + b"# padding\n" * (IN_PROCESS_MAX_BYTES // 10 + 1)
KILLER = b"# __import__\ntype X = int\nx = (\n" + b"lambda:\n" * 4000 + b"1)\n"


def job(name: str, data: bytes) -> ParseJob:
    return ParseJob(f"shop/{name}.py", data, f"shop.{name}", False)


def test_every_path_gives_the_serial_facts() -> None:
    jobs = [job("plain", PLAIN), job("newer", NEWER), job("big", BIG)]
    facts = parse_in_processes(jobs, GRAMMARS)
    assert facts == parse_serially(jobs, GRAMMARS)
    assert [f.grammar for f in facts] == ["skeleton", "libcst", "skeleton"]


def test_a_big_run_in_several_workers_gives_the_serial_facts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("INWARDS_WORKERS", "2")
    jobs = [job(f"m{i}", PLAIN if i % 3 else NEWER) for i in range(320)]
    assert parse_in_processes(jobs, GRAMMARS) == parse_serially(jobs, GRAMMARS)


CONTENT = b"from fastapi import APIRouter\nrouter = APIRouter()\n\n@router.get('/')\nasync def a():\n    return 1\n"


def test_content_facts_cross_from_the_workers_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INWARDS_WORKERS", "2")
    jobs = [
        ParseJob(f"shop/m{i}.py", CONTENT, f"shop.m{i}", False, content=True) for i in range(320)
    ]
    facts = parse_in_workers(jobs, GRAMMARS, 2)
    assert facts == parse_serially(jobs, GRAMMARS)
    assert all(f.content is not None and f.content.functions for f in facts)
    (back,) = [facts_from_wire(pickle.loads(pickle.dumps(facts_to_wire(facts[0]))))]
    assert back == facts[0]


@pytest.mark.parametrize("files", [3, 320])
def test_a_file_that_kills_its_worker_costs_only_itself(
    monkeypatch: pytest.MonkeyPatch, files: int
) -> None:
    monkeypatch.setenv("INWARDS_WORKERS", "2")
    jobs = [job(f"m{i}", PLAIN) for i in range(files)]
    jobs[1] = job("killer", KILLER)
    facts = parse_in_processes(jobs, GRAMMARS)
    problem = facts[1].problem
    assert problem is not None and problem.kind is FileProblemKind.LIMIT
    assert "ran out of memory" in problem.message
    others = [f for i, f in enumerate(facts) if i != 1]
    assert others == parse_serially([j for i, j in enumerate(jobs) if i != 1], GRAMMARS)


def test_this_process_reads_beside_its_workers() -> None:
    jobs = [job(f"m{i}", PLAIN if i % 5 else NEWER) for i in range(400)]
    read_here: list[str] = []

    def here(one: ParseJob) -> ModuleFacts | None:
        if one.data is NEWER:
            return None  # only a worker may read it
        read_here.append(one.module)
        return parse_job(one, GRAMMARS)

    facts = parse_in_workers(jobs, GRAMMARS, 1, read_here=here)
    assert facts == parse_serially(jobs, GRAMMARS)
    # Both sides read: this process some of the plain files, the worker the rest.
    assert 0 < len(read_here) < 320
    assert not {j.module for j in jobs if j.data is NEWER} & set(read_here)


def test_facts_cross_the_pipe_unchanged() -> None:
    sources = [PLAIN, NEWER, KILLER[:40], b"import os\n# inwards: ignore[INW001]\n", b"x = (\n"]
    for data in sources:
        for names in (False, True):
            facts = parse_job(ParseJob("shop/m.py", data, "shop.m", False, names=names), GRAMMARS)
            assert facts_from_wire(pickle.loads(pickle.dumps(facts_to_wire(facts)))) == facts


def test_a_package_import_hook_crosses_the_pipe() -> None:
    data = b"import sys\nsys.meta_path.append(Finder())\n"
    facts = parse_job(ParseJob("shop/__init__.py", data, "shop", True), GRAMMARS)
    assert facts.import_hook_line == 2
    assert facts_from_wire(pickle.loads(pickle.dumps(facts_to_wire(facts)))) == facts
