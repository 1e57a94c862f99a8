"""`inwards baseline`: record today's error findings so that `inwards check` accepts them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from inwards_cli.adapters.atomic import failure_reason, write_user_file
from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.check.run import check
from inwards_cli.commands.console import display_from, fail, warn
from inwards_cli.commands.options import (
    ConfigOption,
    DisablePluginOption,
    IsolatedOption,
    NoCacheOption,
    OldOutputOption,
    output_file_given,
    output_file_option,
)
from inwards_core.baseline import BASELINE_FILE_NAME, MAX_BASELINE_BYTES, BaselineError
from inwards_core.baseline.reading import parse_baseline
from inwards_core.baseline.writing import baseline_of_report, serialise_baseline
from inwards_core.reporting import plural


def baseline_command(
    config: ConfigOption = None,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    output_file: Annotated[
        Path | None,
        output_file_option(
            "Write the baseline to this file instead of inwards-baseline.json next to "
            "the config (then pass it to `inwards check --baseline FILE`)."
        ),
    ] = None,
    no_cache: NoCacheOption = False,
    old_output: OldOutputOption = None,
) -> None:
    """Check the whole project and record its error findings in inwards-baseline.json,
    next to the config, so that `inwards check` accepts them while new ones still fail.

    Entries hold the rule code, the module and the message, with a count and no line
    numbers: moving an import keeps it accepted, a second copy of it fails. Warnings are
    not recorded (they never fail a check). Run it again to drop the findings fixed since.

    Exit status: 0 written, 2 usage or configuration error, or a file that can't be written.
    """
    output = output_file_given(output_file, old_output)
    outcome = check(
        CheckArguments(
            config=config,
            isolated=isolated,
            disable_plugin=tuple(disable_plugin or ()),
            no_cache=no_cache,
            no_baseline=True,
        )
    )
    report = outcome.report
    for item in report.not_checked:
        warn(item.message)
    baseline = baseline_of_report(report)
    target = output if output is not None else outcome.project_dir / BASELINE_FILE_NAME
    shown = (
        str(output) if output is not None else display_from(outcome.project_dir)(BASELINE_FILE_NAME)
    )
    data = serialise_baseline(baseline)
    previous = _previous(target)
    accepted = plural(baseline.accepted, "error")
    entries = f"{len(baseline.entries)} {'entry' if len(baseline.entries) == 1 else 'entries'}"
    if previous == data:
        print(f"{shown} is up to date: it accepts {accepted} ({entries}).")
    else:
        _write(target, data)
        was = _accepted_before(previous, shown)
        print(f"Wrote {shown}: it accepts {accepted} ({entries}){was}.")
        if baseline.accepted:
            print("Commit it: `inwards check` accepts these findings and still fails on new ones.")
    warnings = len(report.warnings)
    if warnings:
        print(
            f"{plural(warnings, 'warning')} not recorded: warnings never fail a check, so "
            "they stay in the report."
        )
    raise SystemExit(0)


def _previous(target: Path) -> bytes | None:
    """The baseline being replaced: a regular file only. A link is not read (it is refused
    when written), nor is a FIFO or a device, which could block or never end."""
    try:
        return read_regular_file(target, follow_symlinks=False, max_bytes=MAX_BASELINE_BYTES)
    except OSError:
        return None


def _accepted_before(previous: bytes | None, shown: str) -> str:
    """ ", was N" when a readable baseline is being replaced."""
    if previous is None:
        return ""
    try:
        before = parse_baseline(previous, file=shown)
    except BaselineError:
        return ", replacing a file that was not a readable baseline"
    return f", was {before.accepted}"


def _write(target: Path, data: bytes) -> None:
    try:
        write_user_file(target, data)
    except OSError as error:
        fail(f"can't write the baseline to {target}: {failure_reason(error)}.")
