"""The `inwards` console script.

A plain `inwards check ...` or `inwards --version` runs without importing typer (a one-file
check has a budget of tens of milliseconds, and typer alone costs about a hundred); every
other command line, help, and every usage error go through the typer application in
`inwards_cli.typer_app`, which owns the interface.
"""

from __future__ import annotations

import gc
import os
import sys

DEBUG_VARIABLE = "INWARDS_DEBUG"
EXIT_INTERNAL_ERROR = 2  # a run that broke is no verdict: never 0 or 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def main(argv: list[str] | None = None) -> None:
    """Run the command line; an error of inwards itself is one line and exit status 2."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["hook"] and not _asks_for_help(args):
        _hook(args[1:])  # first, and importing next to nothing (its daemon's client)
    from inwards_cli.termination import Terminated, end_on_termination

    try:
        end_on_termination()  # SIGTERM and SIGHUP unwind what is being written, as Ctrl-C
        _run(args)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        _stop(EXIT_INTERRUPTED, "inwards: interrupted")
    except Terminated as ended:
        _stop(ended.exit_status, ended.message)
    except BaseException as error:
        _internal_error(error)


def _hook(args: list[str]) -> None:
    """`inwards hook ...`: a hook's failures are exit 1, never the 2 that blocks an agent,
    and it runs without typer (docs/agents.md)."""
    try:
        from inwards_cli.adapters.python_path import forget_working_directory
        from inwards_cli.commands.hook import hook_main
        from inwards_cli.termination import end_on_termination

        end_on_termination()
        gc.disable()
        forget_working_directory()  # no plugin is ever imported from the project
        code = hook_main(args)
    except BaseException as error:  # even a broken installation fails open
        _stop(1, f"inwards: the hook could not run ({type(error).__name__}).")
    os._exit(code)


def _internal_error(error: BaseException) -> None:
    import contextlib

    if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
        import traceback

        with contextlib.suppress(Exception):
            traceback.print_exception(error, file=sys.stderr)
    from inwards_core.reporting.escaping import printable

    detail = printable(str(error))  # it may quote a path or a value from the project
    if len(detail) > 200:
        detail = detail[:200] + "…"
    _stop(
        EXIT_INTERNAL_ERROR,
        f"inwards: internal error ({type(error).__name__}{': ' + detail if detail else ''}). "
        f"This is a bug in inwards, not a finding. Please report it with the command you ran "
        f"and the traceback ({DEBUG_VARIABLE}=1 prints it).",
    )


def _asks_for_help(args: list[str]) -> bool:
    return any(arg in ("--help", "-h") for arg in args)


def _stop(code: int, message: str) -> None:
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except Exception:
        pass
    os._exit(code)  # no teardown: it may be what broke


def _run(args: list[str]) -> None:
    from inwards_cli.adapters.standard_output import guard_standard_output

    guard_standard_output()  # a report that can't be written is exit 2, never a truncated 0
    # A check is a short-lived batch that builds many small immutable objects and frees
    # almost nothing: the cyclic collector only costs time here (about half of a warm run).
    gc.disable()
    from inwards_cli.adapters.python_path import forget_working_directory

    forget_working_directory()
    if "--version" in args:
        from inwards_cli.commands.version import version_arguments, version_text

        verbose = version_arguments(args)
        if verbose is not None:  # `--version`, `--version -v`: without typer, as typer would
            sys.stdout.write(version_text(verbose=verbose))
            raise SystemExit(0)
    from inwards_cli.commands.check.options import fast_arguments

    fast = fast_arguments(args)
    if fast is not None:
        from inwards_cli.commands.check.entry import run_check

        code = run_check(fast)
        # Everything is written and the cache flushed: skip the interpreter's teardown of
        # thousands of objects (tens of milliseconds a run).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    from inwards_cli.typer_app import app

    app(args=args, prog_name="inwards")
