"""Latency of `inwards server` driven over stdio by a real LSP client (pygls's), on the
synthetic project (``generate.py``: 2,105 files), as an editor drives it.

- **first pass**: with the extraction cache an earlier `inwards check` left (``--cold``:
  none), from the `initialized` notification (the server opens the workspace
  folder's session and checks the whole project) to the diagnostics of a document opened
  right after it. ``--starts`` servers are started, one after another, and the median of
  their first passes is the figure (one start alone varies by a third on a busy machine);
- **later passes**: ``--saves`` times, a module drawn at random (``random.Random(SEED)``) is
  edited on disk (in turns an import of an outer layer, which must be reported, and the
  original text) and `didSave` is sent; the time to its diagnostics is one whole pass.
  Each save comes after a quiet spell longer than the server's coalescing window (saves
  closer together are gathered into one later pass: a burst, not a lone save);
- **keystroke**: ``--keystrokes`` times, `didChange` with an unsaved text (in turns with and
  without the outward import) and the time to that document's diagnostics.

The installation's own modules are compiled to bytecode first, as installing its wheel
does: an editable install run under ``PYTHONDONTWRITEBYTECODE`` would otherwise compile
every module it imports, on every start, inside the first pass.

Every answer is checked (the outward import must give INW001, the clean text nothing), so
a fast wrong server can't pass. Prints milliseconds (median, p95, max) against the targets
of issue 25 (first pass <= 500 ms, later passes <= 150 ms median, keystroke <= 5 ms median
and 15 ms p95).

usage: python bench/lsp.py [--synthetic DIR | --modules N] [--saves N] [--keystrokes N]
                           [--starts N] [--cold] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from inwards_cli.lsp.passes import COALESCE_SECONDS

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate
from hook_latency import inwards_command, outward_import, summary

SEED = 11
WAIT = 120.0
TARGETS = {
    "firstPassMs": 500.0,
    "saveMedianMs": 150.0,
    "keystrokeMedianMs": 5.0,
    "keystrokeP95Ms": 15.0,
}


class Client:
    """A pygls client that waits for the next diagnostics of one document."""

    def __init__(self) -> None:
        self.client = LanguageClient("inwards-bench", "1")
        self.waiting: dict[str, asyncio.Future[list[types.Diagnostic]]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(_: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            future = self.waiting.pop(params.uri, None)
            if future is not None and not future.done():
                future.set_result(list(params.diagnostics))

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(_: LanguageClient, params: types.RegistrationParams) -> None:
            return None

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def logged(_: LanguageClient, params: types.LogMessageParams) -> None:
            return None  # the server's line per whole pass: an editor's log, not ours

    def expect(self, uri: str) -> asyncio.Future[list[types.Diagnostic]]:
        future: asyncio.Future[list[types.Diagnostic]] = asyncio.get_running_loop().create_future()
        self.waiting[uri] = future
        return future


def codes(diagnostics: Sequence[types.Diagnostic]) -> list[str]:
    return [str(d.code) for d in diagnostics]


async def started_server(
    project: Path, command: Sequence[str], environment: dict[str, str], first: Path
) -> tuple[Client, float]:
    """A server started on `project` and initialized, and its first pass in milliseconds:
    from `initialized` to the (clean) diagnostics of `first`, opened right after it."""
    bench = Client()
    client = bench.client
    await client.start_io(*command, "server", env=environment, cwd=str(project))
    await asyncio.wait_for(
        client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="synthetic")],
            )
        ),
        WAIT,
    )
    uri = first.as_uri()
    started = time.perf_counter()
    client.initialized(types.InitializedParams())
    answer = bench.expect(uri)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=first.read_text("utf-8")
            )
        )
    )
    assert await asyncio.wait_for(answer, WAIT) == []
    return bench, (time.perf_counter() - started) * 1000


async def stop_server(client: LanguageClient) -> None:
    await asyncio.wait_for(client.shutdown_async(None), WAIT)
    client.exit(None)
    await client.stop()


def compile_bytecode(command: Sequence[str]) -> None:
    """Compile the measured installation's own modules, as installing its wheel does: an
    editable install under PYTHONDONTWRITEBYTECODE would compile every module it imports
    on each start, inside the first pass."""
    python = Path(command[0]).parent / "python"
    subprocess.run(
        [
            str(python),
            "-c",
            "import compileall, importlib.util, pathlib\n"
            "for name in ('inwards_core', 'inwards_cli', 'inwards_rules_fastapi'):\n"
            "    spec = importlib.util.find_spec(name)\n"
            "    if spec is not None and spec.origin:\n"
            "        compileall.compile_dir(pathlib.Path(spec.origin).parent, quiet=1)\n",
        ],
        check=True,
    )


async def measure(
    project: Path, saves: int, keystrokes: int, starts: int, *, cold: bool
) -> dict[str, object]:
    rng = random.Random(SEED)
    modules = sorted(
        path.relative_to(project).as_posix()
        for path in (project / "src").rglob("m*.py")
        if outward_import(path.relative_to(project).as_posix()) is not None
    )
    command = inwards_command()
    environment = dict(os.environ)
    if cold:
        environment["INWARDS_NO_CACHE"] = "1"
    else:  # as after an earlier `inwards check`: the extraction cache holds every file
        subprocess.run([*command, "check", "--quiet"], cwd=project, env=environment, check=False)
    first = project / modules[0]
    first_uri = first.as_uri()
    first_passes: list[float] = []
    for _ in range(starts - 1):  # servers started only for their first pass
        bench, elapsed = await started_server(project, command, environment, first)
        first_passes.append(elapsed)
        await stop_server(bench.client)
    bench, elapsed = await started_server(project, command, environment, first)
    first_passes.append(elapsed)
    client = bench.client

    save_times: list[float] = []
    for number in range(saves):
        path = project / rng.choice(modules)
        original = path.read_text("utf-8")
        outward = number % 2 == 0
        added = outward_import(path.relative_to(project).as_posix()) if outward else None
        path.write_text(original + (added or "\n"), "utf-8")
        uri = path.as_uri()
        await asyncio.sleep(COALESCE_SECONDS * 1.5)  # a lone save, not part of a burst
        started = time.perf_counter()
        answer = bench.expect(uri)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        found = await asyncio.wait_for(answer, WAIT)
        save_times.append((time.perf_counter() - started) * 1000)
        assert ("INW001" in codes(found)) == outward, (path, found)
        path.write_text(original, "utf-8")
        await asyncio.sleep(COALESCE_SECONDS * 1.5)
        answer = bench.expect(uri)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert "INW001" not in codes(await asyncio.wait_for(answer, WAIT))

    original = first.read_text("utf-8")
    drafts = [original + (outward_import(modules[0]) or ""), original]
    key_times: list[float] = []
    for number in range(keystrokes):
        answer = bench.expect(first_uri)
        started = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=first_uri, version=number + 2
                ),
                content_changes=[
                    types.TextDocumentContentChangeWholeDocument(text=drafts[number % 2])
                ],
            )
        )
        found = await asyncio.wait_for(answer, WAIT)
        key_times.append((time.perf_counter() - started) * 1000)
        assert ("INW001" in codes(found)) == (number % 2 == 0), found

    await stop_server(client)
    files = sum(1 for _ in (project / "src").rglob("*.py"))
    return {
        "files": files,
        "firstPassMs": round(statistics.median(first_passes), 1),
        "firstPassRunsMs": [round(value, 1) for value in first_passes],
        "saveMs": summary(save_times) if save_times else None,
        "keystrokeMs": summary(key_times) if key_times else None,
        "saves": saves,
        "keystrokes": keystrokes,
        "cache": "off" if cold else "warm",
        "targets": TARGETS,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--synthetic", type=Path, help="a generated project to copy")
    parser.add_argument("--modules", type=int, default=generate.DEFAULT_MODULES)
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--keystrokes", type=int, default=100)
    parser.add_argument(
        "--starts", type=int, default=5, help="servers started, each timed for its first pass"
    )
    parser.add_argument(
        "--cold", action="store_true", help="no extraction cache (INWARDS_NO_CACHE=1)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="inwards-bench-lsp-") as scratch:
        project = Path(scratch) / "synthetic"
        if options.synthetic is not None:
            shutil.copytree(options.synthetic, project)
        else:
            generate.generate(project, options.modules)
        compile_bytecode(inwards_command())
        figures = asyncio.run(
            measure(
                project,
                options.saves,
                options.keystrokes,
                max(1, options.starts),
                cold=options.cold,
            )
        )
        figures["loadAverage"] = round(os.getloadavg()[0], 2)
    if options.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
