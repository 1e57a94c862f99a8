"""`--output-file`, colour and `--statistics`, through the installed CLI."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import pytest

from inwards_cli.commands.check.output import use_colour
from tests.e2e.helpers import REAL_PROCESS, run_inwards
from tests.e2e.test_check_examples import PLANTED

ESC = "\x1b["


@pytest.fixture
def violations(copy_example) -> Path:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    return project


@pytest.mark.parametrize("fmt", ["text", "concise", "json"])
def test_output_file_gets_what_stdout_would(violations: Path, fmt: str) -> None:
    to_stdout = run_inwards("check", "--no-cache", "--format", fmt, cwd=violations)
    target = violations / "reports" / f"inwards.{fmt}"
    to_file = run_inwards(
        "check", "--no-cache", "--format", fmt, "--output-file", str(target), cwd=violations
    )
    assert (to_file.code, to_stdout.code) == (1, 1)
    assert to_file.stdout == ""
    strip = (
        (lambda t: json.loads(t)["diagnostics"])
        if fmt == "json"
        else (lambda t: t.rsplit("Found", 1)[0])
    )
    assert strip(target.read_text(encoding="utf-8")) == strip(to_stdout.stdout)
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temp left


def test_output_file_short_option_and_replacing_an_old_report(violations: Path) -> None:
    target = violations / "report.txt"
    target.write_text("old report\n")
    done = run_inwards("check", "--no-cache", "-o", str(target), cwd=violations)
    assert done.code == 1 and "INW001" in target.read_text()


def test_an_unwritable_output_file_is_a_usage_error(violations: Path) -> None:
    (violations / "taken").mkdir()
    done = run_inwards("check", "--no-cache", "--output-file", "taken/", cwd=violations)
    assert done.code == 2
    assert done.stdout == ""
    blocked = violations / "blocked"
    blocked.write_text("a file, not a directory")
    done = run_inwards(
        "check", "--no-cache", "--output-file", str(blocked / "report.txt"), cwd=violations
    )
    assert done.code == 2 and "can't write the report" in done.stderr
    assert blocked.read_text() == "a file, not a directory"


def test_no_colour_in_a_pipe_unless_forced(violations: Path) -> None:
    plain = run_inwards("check", "--no-cache", cwd=violations)
    assert ESC not in plain.stdout
    forced = run_inwards("check", "--no-cache", cwd=violations, env={"FORCE_COLOR": "1"})
    assert f"{ESC}1m" in forced.stdout and f"{ESC}31m" in forced.stdout
    assert next(line for line in forced.stdout.split("\n") if "INW001" in line).startswith(
        f"{ESC}1m"
    )
    vetoed = run_inwards(
        "check", "--no-cache", cwd=violations, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}
    )
    assert ESC not in vetoed.stdout
    machine = run_inwards(
        "check", "--no-cache", "--format", "json", cwd=violations, env={"FORCE_COLOR": "1"}
    )
    assert ESC not in machine.stdout


def test_colour_rules() -> None:
    assert use_colour(True, {}) is True
    assert use_colour(False, {}) is False
    assert use_colour(True, {"NO_COLOR": "1"}) is False
    assert use_colour(True, {"NO_COLOR": ""}) is True  # empty means unset (no-color.org)
    assert use_colour(False, {"FORCE_COLOR": "1"}) is True
    assert use_colour(False, {"FORCE_COLOR": "0"}) is False
    assert use_colour(True, {"TERM": "dumb"}) is False


def test_statistics_count_findings_per_rule(violations: Path) -> None:
    done = run_inwards("check", "--no-cache", "--statistics", "--format", "concise", cwd=violations)
    assert done.code == 1
    table = done.stdout.split("Findings per rule:\n", 1)[1]
    expected = collections.Counter(code for _file, _line, code, _severity in PLANTED)
    rows = {line.split()[1]: int(line.split()[0]) for line in table.strip().split("\n")}
    assert rows == dict(expected)
    first, second = (int(line.split()[0]) for line in table.strip().split("\n")[:2])
    assert first >= second  # most first
    assert "INW006   unassigned-module (2 warnings)" in table


@pytest.mark.parametrize("output", ["json", "sarif", "github"])
def test_statistics_with_a_format_that_has_no_counts_is_refused(
    violations: Path, output: str
) -> None:
    done = run_inwards("check", "--statistics", "--format", output, cwd=violations)
    assert (done.code, done.stdout) == (2, "")
    assert done.stderr == (
        f"--statistics can't be used with --format {output}: the counts per rule are written "
        "with the text and concise formats.\n"
    )


def test_check_help_names_what_each_option_takes(tmp_path: Path) -> None:
    """No metavar of a Python type or function (`<str>`, `<_output_format>`)."""
    done = run_inwards("check", "--help", cwd=tmp_path)
    assert done.code == 0
    assert re.findall(r"^\s+(?:-\w, )?--[\w-]+ <", done.stdout, re.MULTILINE) == []
    for shown in ("--format FORMAT", "--select RULES", "--ignore RULES", "--explain RULE"):
        assert shown in done.stdout


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and subcommand of the installed CLI, as words after `inwards`."""
    import typer.main

    from inwards_cli.typer_app import app

    found: list[tuple[str, ...]] = []

    def walk(group: object, words: tuple[str, ...]) -> None:
        for name, command in sorted(getattr(group, "commands", {}).items()):
            found.append((*words, name))
            walk(command, (*words, name))

    walk(typer.main.get_command(app), ())
    return found


def test_no_help_shows_a_python_metavar(tmp_path: Path) -> None:
    """What an option or argument takes reads as a word (FILE, RULE, user|project), never
    a Python type or parameter name (`<str>`, `<path>`, `{rule}`), on every command."""
    commands = _command_paths()
    assert ("rules", "new") in commands and ("diagram",) in commands
    # The help's text is what is read here, not the process: the walk runs in-process (a
    # real `--help` runs in test_one_spelling_of_the_output_file and, for the main
    # commands, in test_first_hour_cli.py's test_h_is_help_everywhere).
    in_process = REAL_PROCESS.set(False)
    try:
        for words in commands:
            done = run_inwards(*words, "--help", cwd=tmp_path)
            assert done.code == 0, (words, done.stderr)
            shown = re.findall(r"^\s+(?:-\w, )?--[\w-]+ <.*", done.stdout, re.MULTILINE)
            assert shown == [], words
            assert not re.search(r"[{\[][a-z_]+[}\]]", done.stdout.splitlines()[0]), words
    finally:
        REAL_PROCESS.reset(in_process)


@pytest.mark.parametrize("command", ["check", "diagram", "baseline"])
def test_one_spelling_of_the_output_file(command: str, tmp_path: Path) -> None:
    done = run_inwards(command, "--help", cwd=tmp_path)
    assert "-o, --output-file FILE" in done.stdout
    assert re.search(r"--output\b(?!-)", done.stdout) is None  # the old name is hidden


@pytest.mark.parametrize(
    ("args", "written"),
    [
        (("diagram", "--output", "docs/layers.md"), "docs/layers.md"),
        (("baseline", "--output", "accepted.json"), "accepted.json"),
    ],
)
def test_the_old_output_spelling_still_writes_with_one_warning(
    violations: Path, args: tuple[str, ...], written: str
) -> None:
    (violations / "docs").mkdir(exist_ok=True)
    old = run_inwards(*args, cwd=violations)
    assert old.code == 0, old.stderr
    assert old.stderr == (
        "warning: --output is deprecated and will go: use -o/--output-file "
        "(it takes the same FILE).\n"
    )
    target = violations / written
    before = target.read_bytes()
    target.unlink()
    new = run_inwards(args[0], "-o", written, cwd=violations)
    assert (new.code, new.stderr) == (0, "")
    assert target.read_bytes() == before
    both = run_inwards(*args, "--output-file", written, cwd=violations)
    assert both.code == 2 and "give only --output-file" in both.stderr


def test_the_short_output_option_takes_the_fast_path() -> None:
    """`-o FILE` is as common as `--output-file FILE`: it must not pay for typer."""
    from inwards_cli.commands.check.options import fast_arguments

    parsed = fast_arguments(["check", "-o", "report.txt", "src"])
    assert parsed is not None
    assert parsed.output_file == Path("report.txt") and parsed.paths == (Path("src"),)
    assert fast_arguments(["check", "-o"]) is None  # typer says what is missing
    assert fast_arguments(["check", "-o", "a", "--output-file", "b"]) is None  # twice
    assert fast_arguments(["check", "-oreport.txt"]) is None  # typer's spelling, typer's job
