"""How fast `inwards mcp` answers an agent: the installed server, driven by the MCP SDK's
client over stdio on the synthetic project (``generate.py``, 2,105 files).

Times the first `check_files` of the whole project (the session opens and reads the tree),
then ``--calls`` calls of each: the whole project again (warm, nothing changed on disk), one
file's unsaved draft alone (`paths` + `contents`), `where_should_this_go` with one import
(a probe in each layer), `explain_rule`, `rules_status`, and `why` for one folder and for
the whole project. Prints the median, p95 and maximum of each, in milliseconds, as the
agent sees them (the protocol's round trip included).

usage: python bench/mcp_latency.py [--synthetic DIR] [--calls N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate


async def _timed(call: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    result = await call()
    elapsed = (time.perf_counter() - started) * 1000
    if getattr(result, "is_error", False):
        raise SystemExit(f"the call failed: {result.content}")
    return elapsed


def _line(name: str, times: Sequence[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"{name:<34} p50 {statistics.median(ordered):7.1f} ms  p95 {p95:7.1f} ms  "
        f"max {ordered[-1]:7.1f} ms"
    )


async def _measure(project: Path, calls: int) -> None:
    inwards = shutil.which("inwards", path=str(Path(sys.executable).parent)) or "inwards"
    parameters = StdioServerParameters(command=inwards, args=["mcp"], cwd=project)
    project_info = generate.layout(generate.DEFAULT_MODULES)
    sample = project_info[len(project_info) // 2].path
    draft = (project / sample).read_text(encoding="utf-8") + "\nEXTRA = 1\n"
    async with Client(parameters, read_timeout_seconds=600) as client:
        first = await _timed(lambda: client.call_tool("check_files", {}))
        print(f"{'first check_files (whole project)':<34} {first:7.1f} ms")
        whole = [await _timed(lambda: client.call_tool("check_files", {})) for _ in range(calls)]
        print(_line("check_files, whole project, warm", whole))
        arguments = {"paths": [sample], "contents": {sample: draft}}
        one = [
            await _timed(lambda: client.call_tool("check_files", arguments)) for _ in range(calls)
        ]
        print(_line("check_files, one unsaved draft", one))
        probe = {"imports": ["os.path"]}
        placed = [
            await _timed(lambda: client.call_tool("where_should_this_go", probe))
            for _ in range(calls)
        ]
        print(_line("where_should_this_go, one import", placed))
        folder = str(Path(sample).parent)
        for name, tool, given in (
            ("explain_rule INW001", "explain_rule", {"rule": "INW001"}),
            ("rules_status", "rules_status", {}),
            ("why INW001, one folder", "why", {"rule": "INW001", "path": folder}),
            ("why INW001, whole project", "why", {"rule": "INW001"}),
        ):
            times = [
                await _timed(lambda tool=tool, given=given: client.call_tool(tool, given))
                for _ in range(calls)
            ]
            print(_line(name, times))
        # The whole project once more: a `why` must leave the session warm.
        print(
            _line(
                "check_files, after the why calls",
                [await _timed(lambda: client.call_tool("check_files", {}))],
            )
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--synthetic", type=Path, help="a generated project to copy")
    parser.add_argument("--calls", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch) / "synthetic"
        if args.synthetic is not None:
            shutil.copytree(args.synthetic, project)
        else:
            generate.generate(project)
        anyio.run(_measure, project, args.calls)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
