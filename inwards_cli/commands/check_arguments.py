"""The arguments of `inwards check`, and the parser of its fast path.

A plain `inwards check ...` is parsed here without typer (it alone costs more than a
one-file check); anything else goes to the typer signature in `check.py`, which declares
every option with its help and owns every message. The tables below are that signature
as this parser reads it: tests/e2e/test_check_arguments.py holds the two equal (names,
short names, which take values, the choices of --format) and checks that both give the
same `CheckArguments` for a table of command lines.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterator
from pathlib import Path

import attrs

from inwards_core.model.value_repr import value_repr


class OutputFormat(enum.StrEnum):
    text = "text"
    concise = "concise"
    json = "json"
    sarif = "sarif"
    github = "github"


@attrs.frozen
class CheckArguments:
    __repr__ = value_repr

    paths: tuple[Path, ...] = ()
    output_format: OutputFormat = OutputFormat.text
    max_diagnostics: int | None = None
    config: Path | None = None
    no_cache: bool = False
    full_parse: bool = False
    isolated: bool = False
    # The plugins to run without (--disable-plugin, repeatable; each value may be a list).
    disable_plugin: tuple[str, ...] = ()
    output_file: Path | None = None
    statistics: bool = False
    # The baseline to read instead of inwards-baseline.json next to the config; or none.
    baseline: Path | None = None
    no_baseline: bool = False
    # Re-derive everything read from the cache; exit 2 on any difference.
    verify_cache: bool = False
    # [tool.inwards.rules] for this run: each option as given (repeatable, each value a
    # comma-separated list of codes or names); None: --select not given.
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exit_zero: bool = False
    quiet: bool = False  # findings only: no summary, no lines after it
    silent: bool = False  # nothing on standard output: the exit status alone
    show_fixes: bool = False  # the steps of every finding's fix, not once per rule
    no_fixes: bool = False
    show_files: bool = False  # list the files a check would read, and stop
    watch: bool = False  # check again on every save, printing what changed
    # A rule's code or name: also say why it reported what it did (never from the memo).
    explain: str | None = None


# Option -> the CheckArguments field it sets.
FLAGS = {
    "--no-cache": "no_cache",
    "--full-parse": "full_parse",
    "--isolated": "isolated",
    "--statistics": "statistics",
    "--no-baseline": "no_baseline",
    "--verify-cache": "verify_cache",
    "--exit-zero": "exit_zero",
    "-e": "exit_zero",
    "--quiet": "quiet",
    "-q": "quiet",
    "--silent": "silent",
    "-s": "silent",
    "--show-fixes": "show_fixes",
    "--no-fixes": "no_fixes",
    "--show-files": "show_files",
    "--watch": "watch",
}
VALUE_OPTIONS = {
    "--format": "output_format",
    "--max-diagnostics": "max_diagnostics",
    "--config": "config",
    "--disable-plugin": "disable_plugin",
    "--output-file": "output_file",
    "--baseline": "baseline",
    "--select": "select",
    "--extend-select": "extend_select",
    "--ignore": "ignore",
    "--explain": "explain",
}
# Value options that may be given more than once; each time adds to the list.
REPEATABLE = frozenset({"select", "extend_select", "ignore", "disable_plugin"})
SHORT_OPTIONS = {"-o": "--output-file"}  # only as `-o VALUE`; other spellings go to typer
# Fields of options that name a file: typer refuses a directory there (`dir_okay=False`).
# A link is left to the write or the read, which refuse it naming the link and where it
# leads (the path of an attack: docs/hostile-input.md).
FILE_FIELDS = frozenset({"output_file", "baseline"})


def fast_arguments(argv: list[str]) -> CheckArguments | None:
    """Parse a plain `check` command line without typer, or None to let typer handle it
    (help, anything unusual, anything wrong, an option given twice: typer owns the
    messages)."""
    if not argv or argv[0] != "check":
        return None
    paths: list[Path] = []
    flags: set[str] = set()
    values: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
    tokens = iter(argv[1:])
    only_paths = False
    for token in tokens:
        if only_paths or not token.startswith("-") or token == "-":
            paths.append(Path(token))
        elif token == "--":
            only_paths = True
        elif token in FLAGS:
            flags.add(FLAGS[token])
        else:
            option = _option_value(token, tokens)
            if option is None or option[0] in values:
                return None
            if option[0] in REPEATABLE:
                lists.setdefault(option[0], []).append(option[1])
            else:
                values[option[0]] = option[1]
    return _check_arguments(paths, flags, values, lists)


def _option_value(token: str, tokens: Iterator[str]) -> tuple[str, str] | None:
    """(field, value) of a value option, as `--name VALUE`, `--name=VALUE` or `-o VALUE`."""
    if token in SHORT_OPTIONS:
        name, equals, value = SHORT_OPTIONS[token], "", ""
    else:
        name, equals, value = token.partition("=")
    if name not in VALUE_OPTIONS:
        return None
    if not equals:
        value = next(tokens, "")
        if value.startswith("-"):
            return None
    return (VALUE_OPTIONS[name], value) if value else None


def _check_arguments(
    paths: list[Path], flags: set[str], values: dict[str, str], lists: dict[str, list[str]]
) -> CheckArguments | None:
    output_format = values.get("output_format", "text")
    if output_format not in OutputFormat.__members__:
        return None
    limit = values.get("max_diagnostics")
    if limit is not None and not (limit.isascii() and limit.isdigit()):  # not "³", not "٣"
        return None
    if any(_plain_directory(values[field]) for field in FILE_FIELDS.intersection(values)):
        return None

    def path(field: str) -> Path | None:
        return Path(values[field]) if field in values else None

    return CheckArguments(
        paths=tuple(paths),
        output_format=OutputFormat(output_format),
        max_diagnostics=None if limit is None else int(limit),
        config=path("config"),
        no_cache="no_cache" in flags,
        full_parse="full_parse" in flags,
        isolated="isolated" in flags,
        disable_plugin=tuple(lists.get("disable_plugin", ())),
        output_file=path("output_file"),
        statistics="statistics" in flags,
        baseline=path("baseline"),
        no_baseline="no_baseline" in flags,
        verify_cache="verify_cache" in flags,
        select=tuple(lists["select"]) if "select" in lists else None,
        extend_select=tuple(lists.get("extend_select", ())),
        ignore=tuple(lists.get("ignore", ())),
        exit_zero="exit_zero" in flags,
        quiet="quiet" in flags,
        silent="silent" in flags,
        show_fixes="show_fixes" in flags,
        no_fixes="no_fixes" in flags,
        show_files="show_files" in flags,
        watch="watch" in flags,
        explain=values.get("explain"),
    )


def _plain_directory(path: str) -> bool:
    return os.path.isdir(path) and not os.path.islink(path)
