"""The fast parser of `inwards check` (check/options.py, no typer) and the typer signature
(check/command.py), both built from CHECK_OPTIONS, accept the same options and read a
command line alike: whenever the fast parser takes a line, typer gives the same
CheckArguments; every other line is typer's.

One difference is deliberate: a symbolic link to a directory given to --output-file or
--baseline is refused when written or read, naming the link and where it leads
(tests/hostile/test_writing.py), where typer would only say "is a directory"."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import inwards_cli.commands.check.command as check_module
from inwards_cli.commands.check.options import (
    FLAGS,
    REPEATABLE,
    SHORT_OPTIONS,
    VALUE_OPTIONS,
    CheckArguments,
    fast_arguments,
)
from inwards_cli.typer_app import app
from inwards_core.reporting.formats import FORMAT_NAMES

CHECK = typer.main.get_command(app).commands["check"]  # type: ignore[attr-defined]
OPTIONS = [p for p in CHECK.params if p.param_type_name == "option"]


def test_the_same_options_take_a_value_or_not() -> None:
    flags = {name: p.name for p in OPTIONS if p.is_flag for name in p.opts}
    values = {p.opts[0]: p.name for p in OPTIONS if not p.is_flag}
    shorts = {name: p.opts[0] for p in OPTIONS if not p.is_flag for name in p.opts[1:]}
    assert (flags, values, shorts) == (FLAGS, VALUE_OPTIONS, SHORT_OPTIONS)
    # The fast parser reads each option with one value, and no --x/--no-x pairs; only the
    # repeatable ones more than once.
    assert not [p.name for p in OPTIONS if p.secondary_opts or p.nargs != 1]
    assert {p.name for p in OPTIONS if p.multiple} == REPEATABLE
    [paths] = [p for p in CHECK.params if p.param_type_name == "argument"]
    assert (paths.name, paths.nargs) == ("paths", -1)


def typer_reading(line: list[str]) -> CheckArguments | None:
    """The CheckArguments typer builds from `inwards check LINE`, or None (a usage error)."""
    seen: list[CheckArguments] = []

    def record(arguments: CheckArguments) -> int:
        seen.append(arguments)
        return 0

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(check_module, "run_check", record)  # check_command passes it what it read
        CliRunner().invoke(app, ["check", *line])
    assert len(seen) <= 1
    return seen[0] if seen else None


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()  # a directory, where --output-file and --baseline refuse one
    monkeypatch.chdir(tmp_path)
    return tmp_path


FAST_LINES = [
    [],
    ["src", "tests/test_x.py"],
    *[["--format", value] for value in FORMAT_NAMES],
    ["--format=sarif"],
    ["--max-diagnostics", "0"],
    ["--max-diagnostics=12"],
    ["--config", "a/pyproject.toml"],
    ["--config=src"],
    ["-o", "report.txt"],
    ["--output-file", "report.txt"],
    ["--output-file=report.txt", "src"],
    ["--baseline", "b.json"],
    ["--baseline=b.json", "--no-baseline"],
    *[[flag] for flag in FLAGS],
    [*FLAGS, "--format", "json", "-o", "r.json", "--config", "p.toml", "src"],
    ["--no-cache", "--no-cache"],  # a flag twice is the flag
    ["src", "--statistics", "other", "--isolated"],  # options between paths
    ["--", "-weird.py", "--no-cache"],
    ["-"],
    ["--select", "INW001", "--select=INW005,layer-dependency", "--ignore", "INW010"],
    ["--extend-select", "INW003", "-q", "-e", "--show-fixes"],
    ["-s", "--no-fixes", "--show-files", "--quiet", "--silent", "--exit-zero"],
    ["--disable-plugin", "tidy", "--disable-plugin=a,b"],
]
TYPER_LINES = [
    ["--help"],
    ["--format", "xml"],
    ["--format", "JSON"],
    ["--format"],
    ["--format", "--no-cache"],
    ["--format", "json", "--format", "text"],  # a value option twice: the last wins
    ["-o", "a", "--output-file", "b"],
    ["-o"],
    ["-oreport.txt"],
    ["-o", "src"],  # a directory
    ["--baseline", "src"],
    ["--max-diagnostics", "-1"],
    ["--max-diagnostics", "+3"],
    ["--max-diagnostics", "³"],  # isdigit(), but not a number to int()
    ["--max-diagnostics", "٣"],  # a digit int() reads, but typer doesn't
    ["--output-file="],  # an empty path is the working directory
    ["--config="],
    ["--max-diagnostics", "x"],
    ["--no-cache=1"],
    ["--bogus"],
    ["-x"],
    ["-qe"],  # short flags together
    ["--select"],
    ["--select="],
    ["--ignore", "--no-cache"],
]


# A value each option of `inwards check --help` takes, by the type typer reads it as.
SAMPLE_VALUES = {
    "_output_format": "json",
    "int range": "3",
    "path": "pyproject.toml",
    "file": "report.txt",
    "str": "INW001",
}


def test_every_option_of_the_help_is_read_by_the_fast_parser_as_typer_reads_it(
    here: Path,
) -> None:
    for option in OPTIONS:
        for name in option.opts:
            line = [name] if option.is_flag else [name, SAMPLE_VALUES[option.type.name]]
            fast = fast_arguments(["check", *line])
            assert fast is not None, line
            assert fast != CheckArguments(), line  # the option was read
            assert fast == typer_reading(line), line


@pytest.mark.parametrize("line", FAST_LINES, ids=" ".join)
def test_lines_the_fast_parser_takes_read_as_typer_reads_them(line: list[str], here: Path) -> None:
    fast = fast_arguments(["check", *line])
    assert fast is not None
    assert fast == typer_reading(line)


@pytest.mark.parametrize("line", TYPER_LINES, ids=" ".join)
def test_lines_left_to_typer(line: list[str], here: Path) -> None:
    assert fast_arguments(["check", *line]) is None
    if line[-2:] == ["--format", "text"]:
        assert typer_reading(line) == CheckArguments()  # typer reads it, and may


TOKENS = [
    *FLAGS,
    *VALUE_OPTIONS,
    *SHORT_OPTIONS,
    *(f"{name}=" for name in VALUE_OPTIONS),
    "--format=json",
    "--select=INW001",
    "INW002,INW003",
    "-q",
    "-s",
    "--max-diagnostics=2",
    *FORMAT_NAMES,
    "XML",
    "0",
    "7",
    "-1",
    "³",
    "٣",
    ".",  # a directory
    "a.py",
    "",
    "-",
    "--",
    "--bogus",
]


@settings(max_examples=300, deadline=None)
@given(line=st.lists(st.sampled_from(TOKENS), max_size=6))
def test_any_line_the_fast_parser_takes_typer_reads_alike(line: list[str]) -> None:
    fast = fast_arguments(["check", *line])
    if fast is not None:
        assert typer_reading(line) == fast
