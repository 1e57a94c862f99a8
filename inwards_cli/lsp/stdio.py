"""Reading the client's messages on the event loop itself.

pygls's own stdio server reads stdin in a worker thread, one blocking call per header line
and per body, each handed back to the loop: a keystroke's `didChange` costs three thread
hand-offs and their wake-ups before the server even sees it, which on an idle machine is
more than the check of the unsaved text takes. Here stdin is an asyncio pipe, read where
the messages are handled; what is read and how it is handled is pygls's own loop
(`pygls.io_.run_async`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading

from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer

_LOG = logging.getLogger(__name__)


def serve_in_loop(server: LanguageServer) -> bool:
    """Serve `server` on stdin and stdout until the client exits; False, having read
    nothing, when stdin is not something the event loop can wait on (a regular file, or
    any stdin on Windows, whose console and anonymous pipes the proactor loop can't read)."""
    if os.name != "posix":
        return False
    stdin = sys.stdin.buffer
    try:
        asyncio.run(_serve(server, stdin))
    except _NotAPipe:
        return False
    except BrokenPipeError:
        _LOG.error("inwards: the client is gone; the server stops")
    except (KeyboardInterrupt, SystemExit):
        pass
    server.shutdown()  # type: ignore[no-untyped-call]  # pygls leaves it untyped
    return True


class _NotAPipe(Exception):
    pass


async def _serve(server: LanguageServer, stdin: object) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**31 - 1, loop=loop)  # a message may be large
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
    except ValueError as error:  # a regular file: epoll can't wait on it
        raise _NotAPipe from error
    stop = threading.Event()
    server._stop_event = stop  # what pygls's `shutdown` sets
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    await run_async(
        stop_event=stop,
        reader=_Reader(reader),
        protocol=server.protocol,
        logger=_LOG,
        error_handler=server.report_server_error,
    )


class _Reader:
    """pygls's reader interface over an asyncio stream: b"" at the end of the input."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self._stream = stream

    async def readline(self) -> bytes:
        return await self._stream.readline()

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self._stream.readexactly(n)
        except asyncio.IncompleteReadError:
            return b""
