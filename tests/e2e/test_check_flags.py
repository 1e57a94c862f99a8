"""The flags ruff users reach for, through the installed CLI: --select, --extend-select and
--ignore for one run, --show-files, shell completion, the progress bar of a long run at a
terminal, and a src layout checked without `root = "src"`."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable, run_inwards, write_tree


@pytest.fixture
def violations(copy_example) -> Path:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    return project


def _codes(project: Path, *args: str) -> set[str]:
    run = run_inwards("check", "--no-cache", "--format", "json", *args, cwd=project)
    assert run.code in (0, 1), run.stderr
    return {d["code"] for d in json.loads(run.stdout)["diagnostics"]}


def test_select_extend_select_and_ignore_override_the_configuration(violations: Path) -> None:
    everything = _codes(violations)
    assert {"INW001", "INW005", "INW010"} <= everything
    # Codes or names, comma-separated, repeatable; an always-on rule stays on.
    assert _codes(violations, "--select", "INW001,pure-domain") == {"INW000", "INW001", "INW005"}
    assert _codes(violations, "--select", "inw001", "--select", "INW010") == {
        "INW000",
        "INW001",
        "INW010",
    }
    assert _codes(violations, "--ignore", "INW001", "--ignore=unknown-first-party") == (
        everything - {"INW001", "INW010"}
    )
    assert _codes(violations, "--select", "INW001,INW005", "--ignore", "INW005") == {
        "INW000",
        "INW001",
    }
    # The configuration's own selection is replaced by --select, extended by the others.
    pyproject = violations / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8")
        + '\n[tool.inwards.rules]\nselect = ["INW001", "INW010"]\nignore = ["INW010"]\n',
        encoding="utf-8",
    )
    assert _codes(violations) == {"INW000", "INW001"}
    assert _codes(violations, "--extend-select", "INW010") == {"INW000", "INW001", "INW010"}
    assert _codes(violations, "--select", "INW005") == {"INW000", "INW005"}
    assert _codes(violations, "--ignore", "INW001") == {"INW000"}


def test_a_code_prefix_selects_every_rule_whose_code_starts_so(violations: Path) -> None:
    everything = _codes(violations)
    assert _codes(violations, "--select", "INW00") == {c for c in everything if c < "INW010"}
    # opt-in rules too (INW011 finds something here), but not INW015 without its `role`
    by_prefix = _codes(violations, "--select", "inw01,INW001")
    assert {"INW000", "INW001", "INW010", "INW011"} <= by_prefix
    assert all(code.startswith("INW01") for code in by_prefix - {"INW000", "INW001"})
    assert _codes(violations, "--ignore", "INW0") == {c for c in everything if c >= "INW1"} | {
        "INW000"  # always on: an ignored prefix leaves it on rather than refusing
    }
    assert _codes(violations, "--select", "FAPI", "--extend-select", "INW010") == {
        "INW000",
        "INW010",
    }


def _with_rules(project: Path, table: str) -> None:
    """The example's configuration (which has no rules table) with this one."""
    pyproject = project / "pyproject.toml"
    original = project / "pyproject.toml.orig"
    if not original.exists():
        original.write_bytes(pyproject.read_bytes())
    text = original.read_text(encoding="utf-8")
    pyproject.write_text(text + "\n[tool.inwards.rules]\n" + table, encoding="utf-8")


def test_the_configuration_takes_the_prefixes_the_command_line_takes(violations: Path) -> None:
    """select, extend-select and ignore in [tool.inwards.rules] cover what the same entry
    covers on the command line: one function decides what a prefix names."""
    by_flags = {
        "select": _codes(violations, "--select", "INW00,fapi"),
        "ignore": _codes(violations, "--ignore", "INW0"),
        "extend": _codes(violations, "--select", "INW00", "--extend-select", "INW01"),
    }
    _with_rules(violations, 'select = ["INW00", "fapi"]\n')
    assert _codes(violations) == by_flags["select"]
    assert "INW001" in by_flags["select"]
    assert all(code < "INW010" for code in by_flags["select"])
    _with_rules(violations, 'select = ["INW00"]\nextend-select = ["INW01"]\n')
    assert _codes(violations) == by_flags["extend"]
    _with_rules(violations, 'ignore = ["INW0"]\n')
    # INW000 is always on: an ignored prefix leaves it on, as --ignore does
    assert (
        _codes(violations)
        == by_flags["ignore"]
        == {"INW000"} | {code for code in _codes(violations, "--select", "INW") if code >= "INW1"}
    )
    # the command line's --extend-select wins over a prefix the configuration ignores
    assert "INW010" in _codes(violations, "--extend-select", "INW010")


@pytest.mark.parametrize(
    ("table", "key", "entry"),
    [
        ('select = ["INW001", "IL"]', "tool.inwards.rules.select[1]", "IL"),
        ('extend-select = ["INW9"]', "tool.inwards.rules.extend-select[0]", "INW9"),
        ('ignore = ["layer-"]', "tool.inwards.rules.ignore[0]", "layer-"),
    ],
)
def test_a_configured_prefix_that_names_no_rule_is_an_error(
    violations: Path, table: str, key: str, entry: str
) -> None:
    _with_rules(violations, table + "\n")
    line = len((violations / "pyproject.toml").read_text(encoding="utf-8").splitlines())
    run = run_inwards("check", "--no-cache", cwd=violations)
    assert run.code == 2
    assert run.stdout == ""
    assert f"pyproject.toml:{line}:" in run.stderr
    assert f'{key}: "{entry}" is not a rule code' in run.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--select", "IL"), '--select: "IL" is not the code or name of a rule'),
        (("--extend-select", "INW9"), '--extend-select: "INW9" is not the code or name'),
        (("--ignore", "layer-"), '--ignore: "layer-" is not the code or name of a rule'),
        (("--select", "INW999"), '--select: "INW999" is not the code or name of a rule'),
        (("--extend-select", "layer-dependancy"), 'Did you mean "layer-dependency"?'),
        (("--ignore", "INW001,"), '--ignore: "" is not the code or name of a rule'),
        (("--ignore", "INW000"), "--ignore: INW000 is always on"),
        (("--select", "\x1b[2J"), '--select: "\\x1b[2J" is not'),
    ],
)
def test_a_rule_the_project_has_not_is_a_usage_error(
    violations: Path, args: tuple[str, ...], said: str
) -> None:
    run = run_inwards("check", *args, cwd=violations)
    assert (run.code, run.stdout) == (2, "")
    assert said in run.stderr
    assert "\x1b" not in run.stderr


def test_show_files_lists_what_a_check_would_read_and_stops(violations: Path) -> None:
    run = run_inwards("check", "--show-files", cwd=violations)
    assert run.code == 0, run.stderr
    files = run.stdout.splitlines()
    assert files == sorted(files) and len(files) == 17  # the files the summary counts
    assert "src/shop/domain/discounts.py" in files and "pyproject.toml" not in files
    named = run_inwards("check", "--show-files", "src/shop/domain", cwd=violations)
    assert named.code == 0
    assert named.stdout.splitlines() == [f for f in files if f.startswith("src/shop/domain/")]
    below = run_inwards("check", "--show-files", cwd=violations / "src" / "shop")
    assert below.stdout.splitlines()[0] == "adapters/__init__.py"  # relative to where I stand
    assert not (violations / ".inwards" / "cache").exists()  # nothing was read


def test_shell_completion_is_offered_and_completes_options(tmp_path: Path) -> None:
    help_text = run_inwards("--help", cwd=tmp_path).stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text
    # The shell named: typer otherwise looks for one among the test's parent processes.
    script = run_inwards("--show-completion", "bash", cwd=tmp_path)
    assert script.code == 0 and "_INWARDS_COMPLETE" in script.stdout
    completing = run_inwards(
        cwd=tmp_path,
        env={
            "_INWARDS_COMPLETE": "complete_bash",
            "COMP_WORDS": "inwards check --ext",
            "COMP_CWORD": "2",
        },
    )
    assert (completing.code, completing.stdout.split()) == (0, ["--extend-select"])


SRC_LAYOUT = {
    "pyproject.toml": """\
[project]
name = "shop"

[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
""",
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "from shop.adapters import db\n",
    "src/shop/adapters/__init__.py": "",
    "src/shop/adapters/db.py": "",
    "tests/test_order.py": "import shop.domain.order\n",
}


def test_a_src_layout_without_its_root_says_what_to_write(tmp_path: Path) -> None:
    project = write_tree(tmp_path, SRC_LAYOUT)
    for args in ((), ("src/shop/domain/order.py",), ("--show-files",), ("--format", "json")):
        run = run_inwards("check", *args, cwd=project)
        assert (run.code, run.stdout) == (2, ""), args
        assert run.stderr == (
            "config error: pyproject.toml:4:7: tool.inwards.root: no layer owns a module under "
            'root ".", but the directory "src" holds the packages the layers name. Did you mean '
            'root = "src"?\n'
        ), args
    (project / "pyproject.toml").write_text(
        SRC_LAYOUT["pyproject.toml"].replace("[tool.inwards]\n", '[tool.inwards]\nroot = "src"\n'),
        encoding="utf-8",
    )
    fixed = run_inwards("check", cwd=project)
    assert fixed.code == 1 and "INW001" in fixed.stdout, fixed.stderr


def test_a_root_that_names_nothing_without_a_better_one_is_left_to_the_findings(
    tmp_path: Path,
) -> None:
    files = {**SRC_LAYOUT, "pyproject.toml": SRC_LAYOUT["pyproject.toml"].replace("shop.", "shoq.")}
    run = run_inwards("check", cwd=write_tree(tmp_path, files))
    assert run.code == 1 and "Did you mean root" not in run.stderr
    assert "owns no module" in run.stdout


def _many_files(root: Path, count: int) -> Path:
    body = "".join(f"import shop.domain.m{i % 50}\n" for i in range(40)) + "x = 1\n" * 200
    files = {f"shop/domain/m{i}.py": body for i in range(count)}
    files["shop/__init__.py"] = files["shop/domain/__init__.py"] = ""
    files["pyproject.toml"] = (
        '[tool.inwards]\nlayers = [{ name = "domain", modules = ["shop.domain"] }]\n'
    )
    return write_tree(root, files)


def _run_at_a_terminal(project: Path, env: dict[str, str]) -> tuple[int, str, str, float]:
    """`inwards check --no-cache` with standard error on a pseudo-terminal: (exit status,
    stdout, what the terminal received, seconds)."""
    controller, terminal = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    for name in ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILD_NUMBER", "TF_BUILD"):
        environment.pop(name, None)
    environment.update(XDG_CONFIG_HOME=str(NO_USER_CONFIG), TERM="xterm", **env)
    started = time.monotonic()
    process = subprocess.Popen(
        [*inwards_executable(), "check", "--no-cache"],
        cwd=project,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=terminal,
    )
    os.close(terminal)
    received = bytearray()
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed: the process is done with it
            break
        if not chunk:
            break
        received += chunk
    stdout = process.communicate(timeout=300)[0].decode()
    os.close(controller)
    return process.returncode, stdout, received.decode(), time.monotonic() - started


def test_a_long_run_at_a_terminal_shows_progress_on_stderr(tmp_path: Path) -> None:
    project = _many_files(tmp_path, 2500)
    code, stdout, terminal, seconds = _run_at_a_terminal(project, {"INWARDS_WORKERS": "1"})
    assert code == 0, terminal
    assert "All clear" in stdout and "parsing" not in stdout
    # The bar waits a second from the start of the check, so what counts is the check's
    # own duration (the summary's), not the process's: a loaded machine can spend that
    # second starting Python.
    checked = float(re.findall(r"\(([0-9.]+) ms\)", stdout)[-1]) / 1000
    if checked < 1.5:
        pytest.skip(f"the check took {checked:.1f} s ({seconds:.1f} s in all): too quick for a bar")
    assert "inwards: parsing [" in terminal and "/2,501 files" in terminal
    assert terminal.endswith("\r\x1b[K")  # erased before the report
    in_ci = _run_at_a_terminal(project, {"INWARDS_WORKERS": "1", "CI": "true"})
    assert in_ci[2] == ""
    piped = run_inwards("check", "--no-cache", cwd=project)  # stderr is a pipe
    assert (piped.code, piped.stderr) == (0, "")
