"""`inwards check` without its argument parsing (no typer here: the fast start-up path of
`inwards_cli.main.main` calls it directly): at a uv workspace root each configuration
(`workspace.py`), with --watch again on every save (`watch.py`), else one check whose
report is written in the asked format."""

from __future__ import annotations

from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.check.output import emit, render
from inwards_cli.commands.check.run import check


def run_check(arguments: CheckArguments) -> int:
    """Check, write the report (to stdout or `--output-file`), and return the exit status
    (with --exit-zero, errors found are 0; anything else stays what it was). With --watch,
    check again on every save until Ctrl-C (see `watch.py`)."""
    if arguments.config is None:
        from inwards_cli.workspace_root import workspace_here

        workspace = workspace_here()
        if workspace is not None:  # a uv workspace root: each member with its own config
            from inwards_cli.commands.check.workspace import run_workspace_check

            return run_workspace_check(arguments, workspace)
    if arguments.watch:
        from inwards_cli.commands.check.watch import run_watch  # imports watchfiles

        return run_watch(arguments)
    outcome = check(arguments)
    text = render(outcome, arguments)
    if not arguments.silent or arguments.output_file is not None:
        emit(text, arguments.output_file)
    code = outcome.report.exit_code()
    return 0 if arguments.exit_zero and code == 1 else code
