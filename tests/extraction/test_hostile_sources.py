"""Hostile sources through the real worker path: random and mutated Python, seeded with the
shapes that hurt parsers (deep nesting, long operator chains, newer syntax, huge lines),
each read by `parse_in_processes` within a per-example budget. Whatever the input, reading
it ends within the file's budget with facts (a LIMIT problem at worst), and never takes the
run down."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from inwards_cli.adapters.parallel import parse_in_processes
from inwards_cli.adapters.workers import WALL_CLOCK_FACTOR
from inwards_core.extraction.facts_reading import ParseJob
from inwards_core.extraction.limits import budget_for
from inwards_core.model.facts import FileProblemKind, ModuleFacts

from .helpers import GRAMMARS

hypothesis = pytest.importorskip("hypothesis")
strategies = pytest.importorskip("hypothesis.strategies")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="limits need fork")

FIXTURES = Path(__file__).parent.parent / "fixtures" / "extraction"
SEEDS = [path.read_bytes() for path in sorted(FIXTURES.glob("*.py"))]
NEWER_SYNTAX = [b"type X = int\n", b"def f[T](x: T) -> T: ...\n", b"except A, B:\n", b't"{x}"\n']
DYNAMIC = [b"__import__('shop.adapters')\n", b"importlib.import_module(name)\n"]
# (prefix, repeated piece, suffix): each repeated `count` times.
SHAPES = [
    (b"x = ", b"(", b"0"),
    (b"x = (\n", b"-\n", b"1)"),
    (b"x = ", b"not ", b"1"),
    (b"x = (\n", b"lambda:\n", b"1)"),
    (b"x = a", b"()", b""),
    (b"x = a", b".b", b""),
    (b"x = ", b"[", b""),
    (b"x = ", b"1+", b"1"),
    (b"x = ", b"f'{", b""),
    (b"import a", b", os", b""),
    (b"from x import (n", b",\n n", b")"),
]


@strategies.composite
def hostile_source(draw: strategies.DrawFn) -> bytes:
    data = bytearray(draw(strategies.sampled_from(SEEDS)))
    pieces = draw(
        strategies.lists(
            strategies.one_of(
                strategies.sampled_from(NEWER_SYNTAX + DYNAMIC),
                strategies.builds(
                    lambda shape, count: shape[0] + shape[1] * count + shape[2] + b"\n",
                    strategies.sampled_from(SHAPES),
                    strategies.integers(1, 1500),
                ),
                strategies.binary(max_size=40),
            ),
            min_size=1,
            max_size=4,
        )
    )
    for piece in pieces:
        position = draw(strategies.integers(0, len(data)))
        data[position:position] = piece
    return bytes(data)


def read_within_budget(data: bytes) -> ModuleFacts:
    job = ParseJob("pkg/mod.py", data, "pkg.mod", False)
    started = time.monotonic()
    [facts] = parse_in_processes([job], GRAMMARS)
    elapsed = time.monotonic() - started
    allowed = budget_for(len(data)).seconds * WALL_CLOCK_FACTOR + 2
    assert elapsed < allowed, f"{elapsed:.1f} s for {len(data)} bytes (allowed {allowed} s)"
    return facts


@hypothesis.settings(max_examples=60, deadline=None, derandomize=True)
@hypothesis.given(hostile_source())
def test_hostile_sources_are_read_within_their_budget(data: bytes) -> None:
    facts = read_within_budget(data)
    assert isinstance(facts, ModuleFacts)
    if facts.problem is not None:
        assert facts.problem.message
        # Our own failures are not a way out: only the parser's verdict or a limit.
        assert "inwards could not read" not in facts.problem.message
        if facts.problem.kind is FileProblemKind.LIMIT:
            # Reported at the start of the file, naming the limit that stopped it.
            assert facts.problem.span.line == 1
            assert "limits for a file of its size" in facts.problem.message or (
                "Python 3.11" in facts.problem.message
            )


@hypothesis.settings(max_examples=60, deadline=None, derandomize=True)
@hypothesis.given(strategies.binary(max_size=2000))
def test_random_bytes_are_read_within_their_budget(data: bytes) -> None:
    assert isinstance(read_within_budget(data), ModuleFacts)
