"""Output hygiene and guidance templates, through the installed CLI under a budget.

A file or directory name may hold ESC, line breaks and bidi controls; the text, concise
and github formats and the lines on stderr show them as escapes, so a name can't clear the
screen, pose as a finding or issue a CI runner's command. A layer name can't hold them (the
configuration is refused: `test_names.py`), but may hold a workflow command and `%`. Guidance templates are
plain `{name}` fields only: a format spec or attribute access is a definition error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inwards_core.config.load import TOP_LEVEL_KEYS
from tests.hostile.harness import Budget, run_limited

BUDGET = Budget(seconds=20, memory_mb=1024)
# A project directory and a file whose names hold ESC, a line break, a workflow command
# and a percent sign (Linux allows all of it in a name).
PROJECT = "proj\x1b[2J\n::error::pwned%0A"
ODD_FILE = "evil\x1b[31m\n::warning::x%.py"
LAYER = "dom::error file=a::b%ain"
GHOST = "ghost%0A::warning::x"
CONFIG = """\
[tool.inwards]
root = "src"
layers = [
  { name = "dom::error file=a::b%ain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
  { name = "ghost%0A::warning::x", modules = ["shop.nothing"] },
]
"""
# Our own colours are SGR codes; nothing else may reach a terminal raw.
OWN_COLOURS = re.compile(r"\x1b\[[0-9;]*m")
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def hostile_project(base: Path) -> Path:
    project = base / PROJECT
    files = {
        "pyproject.toml": CONFIG,
        "src/shop/__init__.py": "",
        "src/shop/domain/__init__.py": "",
        "src/shop/adapters/__init__.py": "",
        "src/shop/domain/orders.py": "import shop.adapters\n",
        f"src/shop/domain/{ODD_FILE}": "import shop.adapters\n",
    }
    for name, text in files.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return project


def check_from_above(
    base: Path, *options: str, named: bool = False, env: dict[str, str] | None = None
) -> str:
    """`inwards check` from the directory above the project, so every path it shows
    starts with the project's hostile name. With `named`, only the odd file is checked
    (it holds no module, so it is reported as not checked: by the text formats on stderr,
    which is returned after stdout); else the whole project."""
    paths = [f"{PROJECT}/src/shop/domain/{ODD_FILE}"] if named else []
    run = run_limited(
        "check",
        "--config",
        f"{PROJECT}/pyproject.toml",
        *options,
        *paths,
        cwd=base,
        budget=BUDGET,
        env=env,
    )
    assert run.code == (2 if named else 1), run.output
    return run.stdout + run.stderr if named else run.stdout


def assert_nothing_raw(output: str) -> None:
    assert not RAW.search(OWN_COLOURS.sub("", output)), output
    for line in output.splitlines():
        assert not line.lstrip().startswith(("::error::", "::warning::")), line


@pytest.mark.parametrize("output_format", ["text", "concise"])
def test_names_with_control_characters_are_escaped_in_text(
    tmp_path: Path, output_format: str
) -> None:
    hostile_project(tmp_path)
    stdout = check_from_above(tmp_path, "--format", output_format)
    assert_nothing_raw(stdout)
    shown_project = "proj\\x1b[2J\\n::error::pwned%0A"
    assert f"{shown_project}/src/shop/domain/orders.py:1:8: INW001" in stdout
    assert f'Layer "{LAYER}" imports' in stdout
    assert f"{shown_project}/pyproject.toml:6:3: INW006" in stdout
    assert GHOST in stdout
    if output_format == "concise":  # one line per finding, and the summary
        assert len(stdout.splitlines()) == 4, stdout
    named = check_from_above(tmp_path, "--format", output_format, named=True)
    assert_nothing_raw(named)
    assert "evil\\x1b[31m\\n::warning::x%.py holds no Python module" in named


def test_our_own_colours_survive_escaping(tmp_path: Path) -> None:
    hostile_project(tmp_path)
    stdout = check_from_above(tmp_path, env={"FORCE_COLOR": "1"})
    assert "\x1b[1m" in stdout and "\x1b[31m" in stdout and "\x1b[0m" in stdout
    assert "\x1b[2J" not in stdout and "\x1b]0;" not in stdout
    assert_nothing_raw(stdout)


def test_github_annotations_cannot_be_ended_or_injected(tmp_path: Path) -> None:
    hostile_project(tmp_path)
    github = {"GITHUB_WORKSPACE": str(tmp_path)}
    stdout = check_from_above(tmp_path, "--format", "github", env=github)
    stdout += check_from_above(tmp_path, "--format", "github", named=True, env=github)
    assert_nothing_raw(stdout)
    lines = stdout.splitlines()
    commands = [line.split(" ", 1)[0] for line in lines if line.startswith("::")]
    # INW001, INW006 for the empty layer and its entry; the odd file, not checked.
    assert sorted(commands) == ["::error", "::error", "::warning", "::warning"], stdout
    for line in lines:
        assert line.startswith(("::error ", "::warning ", "Found ", "Nothing checked")), line
    annotation = next(line for line in lines if "title=INW001" in line)
    # In a property `:` and `%` are the toolkit's escapes; in the message only `%` is.
    assert "file=proj\\x1b[2J\\n%3A%3Aerror%3A%3Apwned%250A/src/shop/domain/orders.py," in (
        annotation
    )
    assert 'Layer "dom::error file=a::b%25ain" imports' in annotation
    assert "evil\\x1b[31m\\n::warning::x%25.py holds no Python module" in stdout


def test_a_newline_in_a_path_round_trips_in_json(tmp_path: Path) -> None:
    hostile_project(tmp_path)
    document = json.loads(check_from_above(tmp_path, "--format", "json"))
    files = {finding["file"] for finding in document["diagnostics"]}
    assert f"{PROJECT}/src/shop/domain/orders.py" in files
    assert f"{PROJECT}/pyproject.toml" in files
    assert any(LAYER in finding["message"] for finding in document["diagnostics"])


def test_config_errors_and_warnings_on_stderr_are_escaped(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.inwards]\n"\\u001b[2J\\n::error::x" = 1\n'
        'layers = [{ name = "domain", modules = ["shop.domain"] }]\n',
        encoding="utf-8",
    )
    run = run_limited("check", cwd=project, budget=BUDGET)
    assert run.code == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [
        'config error: pyproject.toml:2:1: tool.inwards."\\x1b[2J\\n::error::x": is not a '
        f"[tool.inwards] key. Known keys: {', '.join(TOP_LEVEL_KEYS)}."
    ]
    # A line of broken TOML is quoted under the error: it can't issue a command either.
    (project / "pyproject.toml").write_text(
        "[tool.inwards]\nlayers = [\n::error::injected\x1b[2J\n", encoding="utf-8"
    )
    run = run_limited("check", cwd=project, budget=BUDGET)
    assert run.code == 2
    assert "    \\x3a:error::injected\\x1b[2J" in run.stderr.splitlines()
    assert_nothing_raw(run.stderr)


def test_a_user_definition_warning_is_escaped(tmp_path: Path) -> None:
    project = hostile_project(tmp_path)
    rules = tmp_path / "config" / "inwards" / "rules"
    rules.mkdir(parents=True)
    (rules / "ACME001.toml").write_text(
        'code = "ACME001"\nname = "bad\\u001b[2J\\n::error::x"\nsummary = "s"\n'
        'check = "inw.forbidden"\n',
        encoding="utf-8",
    )
    run = run_limited(
        "check", cwd=project, budget=BUDGET, env={"XDG_CONFIG_HOME": str(tmp_path / "config")}
    )
    assert run.code == 1
    warnings = [line for line in run.stderr.splitlines() if "ACME001.toml" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: "), run.stderr
    assert '"bad\\x1b[2J\\n::error::x" must be kebab-case' in warnings[0]
    assert_nothing_raw(run.stderr)


# -- guidance templates ------------------------------------------------------------------

FORBIDDEN_RULE = """\
code = "ACME001"
name = "no-adapters-in-domain"
summary = "The domain imports an adapter."
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["shop.adapters"]

[guidance]
summary = "Keep {forbidden} out."
steps = [
  "Delete `{statement}`.",
  "Look at {module}.",
  "%s",
]
"""


def template_project(base: Path, step: str) -> Path:
    project = hostile_project(base)
    (project / "pyproject.toml").write_text(
        '[tool.inwards]\nroot = "src"\nlayers = [\n'
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "adapters", modules = ["shop.adapters"] },\n]\n',
        encoding="utf-8",
    )
    (project / "src/shop/domain" / ODD_FILE).unlink()
    rules = project / ".inwards" / "rules"
    rules.mkdir(parents=True)
    (rules / "ACME001.toml").write_text(FORBIDDEN_RULE % step, encoding="utf-8")
    return project


@pytest.mark.parametrize(
    ("step", "why"),
    [
        ("{statement:>300000000}", "`{statement:>300000000}` has a format spec"),
        ("{statement.__class__.__init__.__doc__}", "reads an attribute or an item"),
        ("{statement!r}", "has a conversion"),
        ("{statement[0]}", "reads an attribute or an item"),
        ("{0}", "is a positional field"),
        ("{}", "is a positional field"),
        ("{password}", "`{password}` is not a parameter of inw.forbidden; it gives {chain},"),
        ("a { b", "has a `{` that opens no field"),
        ("a } b", "has a `}` that closes no field"),
    ],
)
def test_a_bad_guidance_template_in_the_project_root_stops_the_run(
    tmp_path: Path, step: str, why: str
) -> None:
    project = template_project(tmp_path, step)
    run = run_limited("check", cwd=project, budget=Budget(seconds=20, memory_mb=400))
    assert run.code == 2 and run.stdout == "", run.output
    (line,) = run.stderr.splitlines()
    assert line.startswith("config error: .inwards/rules/ACME001.toml:15:3: guidance.steps[2]: ")
    assert why in line


def test_a_bad_guidance_template_in_the_user_root_only_warns(tmp_path: Path) -> None:
    project = template_project(tmp_path, "fine")
    (project / ".inwards" / "rules" / "ACME001.toml").unlink()
    rules = tmp_path / "config" / "inwards" / "rules"
    rules.mkdir(parents=True)
    inw001 = Path(__file__).parents[2] / "inwards_core/families/inw/definitions/INW001.toml"
    shadow = inw001.read_text(encoding="utf-8").replace(
        'summary = \'Invert the dependency: let "{layer}"',
        'summary = \'{statement.__class__.__init__.__doc__} "{layer}"',
    )
    assert "__doc__" in shadow
    (rules / "INW001.toml").write_text(shadow, encoding="utf-8")
    run = run_limited(
        "check",
        cwd=project,
        budget=Budget(seconds=20, memory_mb=400),
        env={"XDG_CONFIG_HOME": str(tmp_path / "config")},
    )
    assert run.code == 1, run.output
    assert "INW001.toml:10:1: guidance.summary: " in run.stderr
    assert "(this user definition is not used)" in run.stderr
    assert "Invert the dependency" in run.stdout  # the core guidance stays in force
    assert "Initialize self" not in run.stdout and "__doc__" not in run.stdout


def test_a_good_template_fills_only_names(tmp_path: Path) -> None:
    project = template_project(tmp_path, "Braces {{statement}} stay; {imported} is filled.")
    run = run_limited("check", cwd=project, budget=BUDGET)
    assert run.code == 1, run.output
    assert "3. Braces {statement} stay; shop.adapters is filled." in run.stdout
    assert "1. Delete `import shop.adapters`." in run.stdout


def test_rules_status_and_rule_pages_escape_what_they_quote(tmp_path: Path) -> None:
    """The other commands print definition paths, summaries and guidance: project text."""
    project = hostile_project(tmp_path)
    rules = project / ".inwards" / "rules"
    rules.mkdir(parents=True)
    (rules / "ACME001.toml").write_text(
        'code = "ACME001"\nname = "no-os"\n'
        'summary = "evil \\u001b[2J\\n::error::x \\u202e"\n'
        'check = "inw.forbidden"\n[options]\nmodules = ["shop.domain"]\nforbidden = ["os"]\n'
        '[guidance]\nsummary = "\\u001b]0;title\\u0007"\n',
        encoding="utf-8",
    )
    for args in (("rules",), ("rules", "explain", "ACME001"), ("rule", "ACME001"), ("status",)):
        run = run_limited(*args, cwd=project, budget=BUDGET)
        assert run.code == 0, run.output
        assert not RAW.search(run.stdout), (args, run.stdout)
        assert not any(line.lstrip().startswith("::") for line in run.stdout.splitlines())
    shown = run_limited("rules", "explain", "ACME001", cwd=project, budget=BUDGET).stdout
    assert "ACME001 no-os: evil \\x1b[2J\\n::error::x \\u202e\n" in shown  # one line
    assert "Guidance: \\x1b]0;title\\x07\n" in shown
