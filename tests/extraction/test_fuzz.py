"""`extract` never raises: random bytes and random edits of real snippets.

On every input the default fast read equals the full read (imports and problem); on
inputs that parse, the skeleton without its syntax check equals it too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inwards_core.extraction import extract
from inwards_core.model.facts import ModuleFacts

from .helpers import GRAMMARS

hypothesis = pytest.importorskip("hypothesis")
strategies = pytest.importorskip("hypothesis.strategies")

FIXTURES = Path(__file__).parent.parent / "fixtures" / "extraction"
SEEDS = [path.read_bytes() for path in sorted(FIXTURES.glob("*.py"))]
# Bytes that matter to a Python reader: quotes, brackets, breaks, keywords' letters.
ALPHABET = b"\"'#()[]{}\\\n\r\t \x0c:;.,*@=ifmportlazydefclassTYPE_CHECKING\xc3\xa9\xff\x00"


def both(data: bytes) -> tuple[ModuleFacts, ModuleFacts]:
    quick = extract(data, module="pkg.mod", is_package=False, grammars=GRAMMARS)
    full = extract(data, module="pkg.mod", is_package=False, grammars=GRAMMARS, fast=False)
    assert isinstance(quick, ModuleFacts) and isinstance(full, ModuleFacts)
    assert quick.imports == full.imports
    assert quick.problem == full.problem
    return quick, full


@strategies.composite
def mutated(draw: strategies.DrawFn) -> bytes:
    data = bytearray(draw(strategies.sampled_from(SEEDS)))
    for _ in range(draw(strategies.integers(1, 4))):
        position = draw(strategies.integers(0, len(data)))
        action = draw(strategies.sampled_from(["insert", "delete", "replace"]))
        piece = bytes(
            draw(strategies.lists(strategies.sampled_from(ALPHABET), min_size=1, max_size=6))
        )
        if action == "insert":
            data[position:position] = piece
        elif action == "delete":
            del data[position : position + len(piece)]
        else:
            data[position : position + len(piece)] = piece
    return bytes(data)


@hypothesis.settings(max_examples=150, deadline=None)
@hypothesis.given(strategies.binary(max_size=300))
def test_random_bytes_never_raise(data: bytes) -> None:
    quick, full = both(data)
    assert quick.line_count == full.line_count
    if full.problem is not None:
        assert full.problem.message


@hypothesis.settings(max_examples=250, deadline=None)
@hypothesis.given(mutated())
def test_mutated_sources_never_raise_and_paths_agree(data: bytes) -> None:
    quick, full = both(data)
    assert quick.line_count == full.line_count
    assert "inwards could not read" not in (full.problem.message if full.problem else "")
    unchecked = extract(
        data, module="pkg.mod", is_package=False, grammars=GRAMMARS, check_syntax=False
    )
    if unchecked.grammar == "skeleton" and full.problem is None:
        assert unchecked.imports == full.imports
