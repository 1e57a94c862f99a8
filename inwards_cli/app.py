"""The `inwards` console script.

A plain `inwards check ...` or `inwards --version` runs without importing typer (a one-file
check has a budget of tens of milliseconds, and typer alone costs about a hundred); every
other command line, help, and every usage error go through the typer application in
`inwards_cli.cli`, which owns the interface.
"""

from __future__ import annotations

import gc
import os
import sys


def main(argv: list[str] | None = None) -> None:
    from inwards_cli.adapters.standard_output import guard_standard_output

    guard_standard_output()  # a report that can't be written is exit 2, never a truncated 0
    # A check is a short-lived batch that builds many small immutable objects and frees
    # almost nothing: the cyclic collector only costs time here (about half of a warm run).
    gc.disable()
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        from inwards_core.version import inwards_version

        sys.stdout.write(inwards_version() + "\n")
        raise SystemExit(0)
    from inwards_cli.commands.run_check import fast_arguments, run_check

    fast = fast_arguments(args)
    if fast is not None:
        code = run_check(fast)
        # Everything is written and the cache flushed: skip the interpreter's teardown of
        # thousands of objects (tens of milliseconds a run).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    from inwards_cli.cli import app

    app(args=args, prog_name="inwards")
