"""The options of `inwards check`, declared once in `CHECK_OPTIONS`, and the parser of its
fast path.

A plain `inwards check ...` is parsed here without typer (it alone costs more than a
one-file check); anything else goes to the typer signature that `command.py` builds from
the same `CHECK_OPTIONS`, and which owns every message. tests/e2e/test_check_arguments.py
checks that both read every option, and a table of command lines, into the same
`CheckArguments`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.commands.option_specs import (
    CONFIG,
    DISABLE_PLUGIN,
    ISOLATED,
    NO_CACHE,
    OptionSpec,
)
from inwards_core.model.value_repr import value_repr
from inwards_core.reporting.formats import (
    DEFAULT_FORMAT,
    FORMAT_NAMES,
    FORMATS,
    format_named,
    listed,
)


@attrs.frozen
class CheckArguments:
    __repr__ = value_repr

    paths: tuple[Path, ...] = ()
    output_format: str = DEFAULT_FORMAT  # a name in FORMAT_NAMES
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
    # comma-separated list of codes, code prefixes or names); None: --select not given.
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


# Every option of `inwards check`, in the order of its help.
CHECK_OPTIONS = (
    OptionSpec(
        "output_format",
        ("--format",),
        f"Output format: {listed([output.description for output in FORMATS], 'or')}.",
        value=str,
        choices=FORMAT_NAMES,
        metavar="FORMAT",
    ),
    OptionSpec(
        "max_diagnostics",
        ("--max-diagnostics",),
        "Show at most N findings (errors first); the summary still counts all.",
        value=int,
        minimum=0,
        metavar="N",
    ),
    CONFIG,
    NO_CACHE,
    OptionSpec(
        "full_parse",
        ("--full-parse",),
        "Parse every file whole, so a syntax error anywhere is reported (files named as "
        "PATHS always are). Without it a whole-project run reads the import statements and "
        "the blocks around them only, which is several times faster.",
    ),
    OptionSpec(
        "output_file",
        ("--output-file", "-o"),
        "Write the report to this file (atomically) instead of standard output.",
        value=Path,
        names_a_file=True,
        metavar="FILE",
    ),
    OptionSpec(
        "statistics",
        ("--statistics",),
        "After the report, count the findings per rule (text and concise formats).",
    ),
    ISOLATED,
    DISABLE_PLUGIN,
    OptionSpec(
        "baseline",
        ("--baseline",),
        "Accept the findings recorded in this baseline file instead of "
        "inwards-baseline.json next to the config (see `inwards baseline`).",
        value=Path,
        names_a_file=True,
        metavar="FILE",
    ),
    OptionSpec(
        "no_baseline", ("--no-baseline",), "Ignore inwards-baseline.json: report every finding."
    ),
    OptionSpec(
        "verify_cache",
        ("--verify-cache",),
        "Trust nothing in .inwards/cache: read every cached file again and parse every "
        "cached rule definition again, and fail (exit 2, naming each entry) when the cache "
        "differs. Use it when the cache comes from a run you don't trust. Costs about as "
        "much as a run without the cache.",
    ),
    OptionSpec(
        "select",
        ("--select",),
        "Only these rules for this run, in place of [tool.inwards.rules]'s select, "
        "extend-select and ignore: codes, code prefixes or names, comma-separated, the option "
        "repeatable (--select FAPI,INW001,layer-dependency).",
        value=str,
        repeatable=True,
        metavar="RULES",
    ),
    OptionSpec(
        "extend_select",
        ("--extend-select",),
        "Also these rules for this run (turns opt-in rules on, wins over the "
        "configuration's ignore): codes, code prefixes or names, comma-separated.",
        value=str,
        repeatable=True,
        metavar="RULES",
    ),
    OptionSpec(
        "ignore",
        ("--ignore",),
        "Turn these rules off for this run, whatever selects them: codes, code prefixes or "
        "names, comma-separated.",
        value=str,
        repeatable=True,
        metavar="RULES",
    ),
    OptionSpec(
        "exit_zero",
        ("--exit-zero", "-e"),
        "Exit 0 even when errors are found (a usage or configuration error is still 2).",
    ),
    OptionSpec(
        "quiet", ("--quiet", "-q"), "Print the findings only: no summary and no lines after it."
    ),
    OptionSpec(
        "silent",
        ("--silent", "-s"),
        "Print nothing on standard output: the exit status tells (--output-file is still "
        "written; errors still go to standard error).",
    ),
    OptionSpec(
        "show_fixes",
        ("--show-fixes",),
        "Text format: show the steps of the fix under every finding (by default under the "
        "first finding of each rule).",
    ),
    OptionSpec(
        "no_fixes",
        ("--no-fixes",),
        "Text and concise formats: show no fix, only the findings and their source.",
    ),
    OptionSpec(
        "show_files",
        ("--show-files",),
        "Print the files the check would read, one a line, and exit 0 without checking them.",
    ),
    OptionSpec(
        "explain",
        ("--explain",),
        "After the report, say why this rule (code or name) reported what it did, or "
        "nothing: its definitions, whether it is on and by which key, the files it did not "
        "judge, what comments and the baseline hid (see `inwards rules why`). The run is "
        "never recalled from the cache's memo.",
        value=str,
        metavar="RULE",
    ),
    OptionSpec(
        "watch",
        ("--watch",),
        "Check, then check again whenever a Python file, the configuration or a rule "
        "definition is saved, printing only the findings that appeared or went away and a "
        "summary; Ctrl-C stops (exit 0). Text, concise or github output. "
        'Needs watchfiles: pip install "inwards-lint[watch]".',
    ),
)
_SPECS = {spec.field: spec for spec in CHECK_OPTIONS}
# What the fast parser reads: option -> the CheckArguments field it sets.
FLAGS = {name: spec.field for spec in CHECK_OPTIONS if spec.is_flag for name in spec.names}
VALUE_OPTIONS = {spec.names[0]: spec.field for spec in CHECK_OPTIONS if not spec.is_flag}
# Value options that may be given more than once; each time adds to the list.
REPEATABLE = frozenset(spec.field for spec in CHECK_OPTIONS if spec.repeatable)
# Short names of value options, only as `-o VALUE`; other spellings go to typer.
SHORT_OPTIONS = {
    name: spec.names[0] for spec in CHECK_OPTIONS if not spec.is_flag for name in spec.names[1:]
}
# Fields of options that name a file: typer refuses a directory there (`dir_okay=False`).
# A link is left to the write or the read, which refuse it naming the link and where it
# leads (the path of an attack: docs/hostile-input.md).
FILE_FIELDS = frozenset(spec.field for spec in CHECK_OPTIONS if spec.names_a_file)


def check_arguments(paths: tuple[Path, ...], given: dict[str, Any]) -> CheckArguments:
    """The arguments of options as typer or the fast parser read them: a repeatable
    option's list becomes a tuple; an option not given (None) keeps its default."""
    fields: dict[str, Any] = {
        field: tuple(value) if field in REPEATABLE else value
        for field, value in given.items()
        if value is not None
    }
    return CheckArguments(paths=paths, **fields)


def shows_frames(arguments: CheckArguments) -> bool:
    """Whether the report has a frame of source under each finding (text, written)."""
    written = not arguments.silent or arguments.output_file is not None
    return format_named(arguments.output_format).frames and written


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
    if values.get("output_format", DEFAULT_FORMAT) not in FORMAT_NAMES:
        return None
    limit = values.get("max_diagnostics")
    if limit is not None and not (limit.isascii() and limit.isdigit()):  # not "³", not "٣"
        return None
    if any(_plain_directory(values[field]) for field in FILE_FIELDS.intersection(values)):
        return None
    given: dict[str, Any] = dict.fromkeys(flags, True)
    given.update({field: _read(_SPECS[field], value) for field, value in values.items()})
    given.update(lists)
    return check_arguments(tuple(paths), given)


def _read(spec: OptionSpec, value: str) -> object:
    """A value as typer reads it: a path, a number or the text."""
    return value if spec.value is None else spec.value(value)


def _plain_directory(path: str) -> bool:
    return os.path.isdir(path) and not os.path.islink(path)
