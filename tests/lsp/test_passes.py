"""The coalescing of whole passes (inwards_cli/lsp/passes.py) on a real asyncio loop: the
leading edge runs at once, a burst's other events run together once at the window's end,
with every path in the order it first came, and a failing pass does not stop the next."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from inwards_cli.lsp.passes import COALESCE_SECONDS, CoalescedPasses

WINDOW = 0.05


class Recorder:
    def __init__(self, fail_first: bool = False) -> None:
        self.runs: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        self.fail_first = fail_first

    def __call__(self, paths: Sequence[Path], also: Sequence[str]) -> None:
        self.runs.append((tuple(p.name for p in paths), tuple(also)))
        if self.fail_first and len(self.runs) == 1:
            raise RuntimeError("a broken pass")


def test_the_window_is_short() -> None:
    assert 0 < COALESCE_SECONDS <= 0.2


@pytest.mark.asyncio
async def test_a_burst_runs_at_once_then_once_more_with_the_rest() -> None:
    recorder = Recorder()
    passes = CoalescedPasses(recorder, WINDOW)
    passes.add([Path("a.py")], ["file:///a.py"])
    assert recorder.runs == [(("a.py",), ("file:///a.py",))]  # the leading edge, at once
    for name in ("b.py", "c.py", "b.py", "pyproject.toml"):
        passes.add([Path(name)], [f"file:///{name}"])
    assert len(recorder.runs) == 1
    await asyncio.sleep(WINDOW * 3)
    assert recorder.runs[1] == (
        ("b.py", "c.py", "pyproject.toml"),
        ("file:///b.py", "file:///c.py", "file:///pyproject.toml"),
    )
    assert len(recorder.runs) == 2

    await asyncio.sleep(WINDOW * 2)  # quiet: the next event runs at once again
    passes.add([Path("d.py")])
    assert recorder.runs[2] == (("d.py",), ())


@pytest.mark.asyncio
async def test_a_failing_pass_leaves_the_next_one_to_run() -> None:
    recorder = Recorder(fail_first=True)
    passes = CoalescedPasses(recorder, WINDOW)
    passes.add([Path("a.py")])  # fails, logged
    passes.add([Path("b.py")])
    await asyncio.sleep(WINDOW * 3)
    assert [run[0] for run in recorder.runs] == [("a.py",), ("b.py",)]


@pytest.mark.asyncio
async def test_cancel_drops_the_waiting_pass() -> None:
    recorder = Recorder()
    passes = CoalescedPasses(recorder, WINDOW)
    passes.add([Path("a.py")])
    passes.add([Path("b.py")])
    passes.cancel()
    await asyncio.sleep(WINDOW * 3)
    assert len(recorder.runs) == 1
