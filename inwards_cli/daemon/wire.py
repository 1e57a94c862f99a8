"""The daemon's wire: one JSON object per line each way, UTF-8, over a Unix stream socket.

Text that is not valid UTF-8 (a payload's bytes decoded with `surrogateescape`, a reply
quoting a file name that is not UTF-8) crosses as lone surrogates, encoded with
`surrogatepass`, so both ends get back the very bytes they meant.
"""

from __future__ import annotations

import json
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from _socket import socket

MAX_REPLY_BYTES = 8 * 1024 * 1024
NEWLINE = b"\n"


class WireError(Exception):
    """A line that did not come, came too long, or is not one JSON object."""


def encode(message: dict[str, object]) -> bytes:
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass") + NEWLINE


def decode(line: bytes) -> dict[str, object]:
    try:
        message = json.loads(line.decode("utf-8", "surrogatepass"))
    except (UnicodeDecodeError, ValueError) as error:
        raise WireError(f"not a JSON line ({type(error).__name__})") from None
    if not isinstance(message, dict):
        raise WireError("not a JSON object")
    return message


def read_line(connection: socket, *, limit: int, deadline: float) -> bytes:
    """Bytes up to the first newline, within `limit` bytes and before `deadline`
    (`time.monotonic()`); raises `WireError` (or `OSError`) otherwise."""
    chunks: list[bytes] = []
    size = 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise WireError("no whole line in time")
        connection.settimeout(remaining)
        chunk = connection.recv(65536)
        if not chunk:
            raise WireError("the line ended early")
        end = chunk.find(NEWLINE)
        if end >= 0:
            chunks.append(chunk[:end])
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise WireError("the line is too long")


def send_all(connection: socket, data: bytes, *, deadline: float) -> None:
    view = memoryview(data)
    while view:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise WireError("could not send in time")
        connection.settimeout(remaining)
        view = view[connection.send(view) :]
