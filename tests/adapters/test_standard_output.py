"""The guarded standard output: a failed write is one line on stderr and exit 2."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from inwards_cli.adapters.standard_output import (
    EXIT_NOT_WRITTEN,
    GuardedDescriptor,
    write_standard_output,
)

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@pytest.fixture
def full() -> Iterator[int]:
    descriptor = os.open("/dev/full", os.O_WRONLY)
    yield descriptor
    os.close(descriptor)


def test_a_failed_write_ends_the_run_once_and_drops_the_rest(
    full: int, capsys: pytest.CaptureFixture[str]
) -> None:
    guarded = GuardedDescriptor(full)
    with pytest.raises(SystemExit) as ended:
        guarded.write(b"report")
    assert ended.value.code == EXIT_NOT_WRITTEN
    assert guarded.failed
    assert capsys.readouterr().err == (
        "can't write the output to standard output: no space left on device; what was "
        "written is incomplete.\n"
    )
    assert guarded.write(b"more") == 4  # dropped, not said again
    assert capsys.readouterr().err == ""


def test_write_standard_output_names_what_it_writes(
    full: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = io.TextIOWrapper(io.BufferedWriter(GuardedDescriptor(full)), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stream)
    with pytest.raises(SystemExit):
        write_standard_output("All clear\n", "the report")
    assert capsys.readouterr().err.startswith("can't write the report to standard output: ")


def test_an_unguarded_stdout_fails_the_same_way(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Full(io.StringIO):
        def flush(self) -> None:
            raise OSError(27, "File too large")

    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(SystemExit) as ended:
        write_standard_output("x", "the report")
    assert ended.value.code == EXIT_NOT_WRITTEN
    assert capsys.readouterr().err.startswith(
        "can't write the report to standard output: file too large;"
    )


def test_a_non_blocking_descriptor_is_waited_on_not_failed() -> None:
    """Some parents leave stdout non-blocking: a full pipe is then EAGAIN, not an error."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    received = bytearray()

    def drain() -> None:
        time.sleep(0.1)
        while chunk := os.read(read_end, 1 << 16):
            received.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        payload = b"x" * (1 << 20)  # far more than a pipe holds
        stream = io.BufferedWriter(GuardedDescriptor(write_end))
        stream.write(payload)
        stream.flush()
    finally:
        os.close(write_end)
        reader.join(10)
        os.close(read_end)
    assert bytes(received) == payload
