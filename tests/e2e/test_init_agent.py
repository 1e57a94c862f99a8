"""`inwards init --agent ...` through the installed command in copies of the example shop:
the Claude Code settings it merges (fresh, beside the user's own hooks, updated in place,
shared or local, exec or launcher form), what it refuses (broken JSON, no object, links),
--dry-run, idempotence, the published settings schema, and the written command run through
the shell as Claude Code runs it; AGENTS.md for agents-md, Codex and OpenCode; Aider's
lint-cmd run as Aider runs it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.e2e.claude_code import payload
from tests.e2e.helpers import EXAMPLES, NO_USER_CONFIG, REPO, Run, inwards_executable, run_inwards

SCHEMA = REPO / "tests" / "fixtures" / "claude-code-settings-schema" / "claude-code-settings.json"
LOCAL = ".claude/settings.local.json"
SHARED = ".claude/settings.json"
EVENTS = {
    "SessionStart": None,
    "PreToolUse": "Edit|Write|MultiEdit|Bash",
    "PostToolUse": "Edit|Write|MultiEdit",
    "Stop": None,
}
ORDER = "src/shop/domain/order.py"
VIOLATION = "from shop.adapters.outbound.sql_orders import SqlOrders\n"


def _shop(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", project, ignore=shutil.ignore_patterns("cache"))
    (tmp_path / "home").mkdir()
    return project


def _init(project: Path, *args: str, xdg: str | None = None) -> Run:
    env = {"HOME": str(project.parent / "home")}
    if xdg is not None:
        env["XDG_CONFIG_HOME"] = xdg
    return run_inwards("init", "--agent", *args, cwd=project, env=env)


def _settings(project: Path, name: str = LOCAL) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((project / name).read_text(encoding="utf-8"))
    return document


def _ours(document: dict[str, Any], event: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [
        (group, hook)
        for group in document["hooks"][event]
        for hook in group["hooks"]
        if "inwards" in hook.get("command", "")
    ]


def _direct() -> str:
    return shlex.join([*inwards_executable(), "hook", "claude-code"])


def _valid(document: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = [error.message for error in jsonschema.Draft7Validator(schema).iter_errors(document)]
    assert errors == []


def _tree(project: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(project)): path.read_bytes()
        for path in sorted(project.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


# -- Claude Code: a fresh project -----------------------------------------------------------


def test_claude_writes_the_hooks_the_denials_and_the_gitignore_lines(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    run = _init(project, "claude")
    assert (run.code, run.stderr) == (0, ""), run
    document = _settings(project)
    assert list(document) == ["hooks", "permissions"]
    assert list(document["hooks"]) == list(EVENTS)
    for event, matcher in EVENTS.items():
        (group,) = document["hooks"][event]
        assert group.get("matcher") == matcher, event
        assert group["hooks"] == [{"type": "command", "command": _direct()}]
    user_root = (NO_USER_CONFIG / "inwards" / "rules").as_posix().lstrip("/")
    assert document["permissions"]["deny"] == [
        "Edit(/.inwards/**)",
        "Edit(/inwards-baseline.json)",
        f"Edit(/{LOCAL})",
        f"Edit(//{user_root}/**)",
    ]
    assert (project / ".gitignore").read_text().splitlines()[-2:] == [
        ".inwards/state/",
        LOCAL,
    ]
    assert f"    {_direct()}\n" in run.stdout
    assert not (project / SHARED).exists()
    _valid(document)


def test_a_second_run_changes_nothing_and_says_so(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    assert _init(project, "claude").code == 0
    before = _tree(project)
    run = _init(project, "claude")
    assert run.code == 0, run
    assert run.stdout == (
        f"Claude Code is set up already: {LOCAL} and .gitignore need no change.\n"
    )
    assert _tree(project) == before


def test_dry_run_prints_the_diffs_and_writes_nothing(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    (project / ".gitignore").write_text("dist/\n")
    before = _tree(project)
    run = _init(project, "claude", "--dry-run")
    assert run.code == 0, run
    assert _tree(project) == before
    assert not (project / ".claude").exists()
    assert f"--- a/{LOCAL}\n+++ b/{LOCAL}\n" in run.stdout
    assert '+        "matcher": "Edit|Write|MultiEdit|Bash",\n' in run.stdout
    assert f'+            "command": {json.dumps(_direct())}\n' in run.stdout
    assert "--- a/.gitignore\n+++ b/.gitignore\n@@ -1 +1,4 @@\n dist/\n" in run.stdout
    assert "+.inwards/state/\n" in run.stdout
    assert run.stdout.endswith("Nothing written (--dry-run).\n")
    # What the diff shows is what a real run writes.
    shown = re.findall(r"^\+(?!\+\+)(.*)$", run.stdout.split("--- a/.gitignore")[0], re.M)
    assert _init(project, "claude").code == 0
    assert "\n".join(shown) + "\n" == (project / LOCAL).read_text()


# -- Claude Code: the user's settings ---------------------------------------------------------

USERS = {
    "model": "opus",
    "env": {"FOO": "1"},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}
        ],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
    "permissions": {"allow": ["Bash(npm run *)"], "deny": ["Read(./.env)"]},
}


def test_the_users_settings_are_kept_and_ours_added_once(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    (project / ".claude").mkdir()
    (project / LOCAL).write_text(json.dumps(USERS))
    (project / ".gitignore").write_text("# ours\n/.inwards/\n")
    run = _init(project, "claude")
    assert run.code == 0, run
    document = _settings(project)
    assert list(document) == ["model", "env", "hooks", "permissions"]
    assert (document["model"], document["env"]) == ("opus", {"FOO": "1"})
    assert list(document["hooks"]) == [
        "PostToolUse",
        "Notification",
        "SessionStart",
        "PreToolUse",
        "Stop",
    ]
    assert document["hooks"]["PostToolUse"][0] == USERS["hooks"]["PostToolUse"][0]  # type: ignore[index]
    assert document["hooks"]["Notification"] == USERS["hooks"]["Notification"]  # type: ignore[index]
    for event in EVENTS:
        assert len(_ours(document, event)) == 1, event
    assert document["permissions"]["allow"] == ["Bash(npm run *)"]
    assert document["permissions"]["deny"][:2] == ["Read(./.env)", "Edit(/.inwards/**)"]
    # /.inwards/ keeps the state out of git already: only the settings file is added.
    assert (project / ".gitignore").read_text().splitlines()[-1] == LOCAL
    assert ".inwards/state/" not in (project / ".gitignore").read_text()
    _valid(document)
    before = _tree(project)
    assert "set up already" in _init(project, "claude").stdout
    assert _tree(project) == before


def test_our_hooks_set_up_by_hand_are_updated_in_place(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    (project / ".claude").mkdir()
    by_hand = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Edit|Write",
                    "hooks": [{"type": "command", "command": "inwards hook claude-code"}],
                },
            ],
            "Stop": [
                {
                    "hooks": [
                        {"type": "command", "command": "./audit.sh"},
                        {"type": "command", "command": "inwards", "args": ["hook", "claude-code"]},
                    ]
                }
            ],
        }
    }
    (project / LOCAL).write_text(json.dumps(by_hand))
    assert _init(project, "claude").code == 0
    document = _settings(project)
    # A group of ours alone gets our tools; one shared with the user's hook keeps its own.
    assert document["hooks"]["PreToolUse"] == [
        {
            "matcher": "Edit|Write|MultiEdit|Bash",
            "hooks": [{"type": "command", "command": _direct()}],
        }
    ]
    assert document["hooks"]["Stop"] == [
        {
            "hooks": [
                {"type": "command", "command": "./audit.sh"},
                {"type": "command", "command": _direct()},
            ]
        }
    ]
    for event in EVENTS:
        assert len(_ours(document, event)) == 1, event
    _valid(document)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"hooks": {,}}', f"error: {LOCAL}:1:12: not valid JSON (Expecting property name"),
        ("[1, 2]", f"error: {LOCAL}: holds a JSON array, not an object; nothing was written"),
        ("null", f"error: {LOCAL}: holds a JSON null, not an object; nothing was written"),
        ('{"hooks": []}', f"error: {LOCAL}: `hooks` is not an object; nothing was written"),
        (
            '{"hooks": {"Stop": {}}}',
            f"error: {LOCAL}: `hooks.Stop` is not an array; nothing was written",
        ),
        (
            '{"permissions": ["Edit"]}',
            f"error: {LOCAL}: `permissions` is not an object; nothing was written",
        ),
        (
            '{"permissions": {"deny": "Edit"}}',
            f"error: {LOCAL}: `permissions.deny` is not an array; nothing was written",
        ),
    ],
)
def test_a_file_that_cant_be_merged_into_is_refused(
    tmp_path: Path, text: str, message: str
) -> None:
    project = _shop(tmp_path)
    (project / ".claude").mkdir()
    (project / LOCAL).write_text(text)
    before = _tree(project)
    run = _init(project, "claude")
    assert run.code == 2, run
    assert run.stdout == ""
    assert len(run.stderr.splitlines()) == 1
    assert run.stderr.startswith(message), run.stderr
    assert _tree(project) == before  # no .gitignore either


def test_links_are_never_written_through(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    outside = tmp_path / "elsewhere.json"
    outside.write_text("{}")
    (project / ".claude").mkdir()
    (project / LOCAL).symlink_to(outside)
    run = _init(project, "claude")
    assert run.code == 2 and run.stderr.startswith(f"error: {LOCAL} is a symbolic link"), run
    assert outside.read_text() == "{}"
    # A .claude folder that is a link elsewhere.
    (project / LOCAL).unlink()
    (project / ".claude").rmdir()
    (tmp_path / "other").mkdir()
    (project / ".claude").symlink_to(tmp_path / "other")
    run = _init(project, "claude")
    assert run.code == 2 and run.stderr.startswith("error: .claude is a symbolic link"), run
    assert list((tmp_path / "other").iterdir()) == []
    # A .gitignore that is a link: refused before the settings are written.
    (project / ".claude").unlink()
    (project / ".gitignore").symlink_to(tmp_path / "ignored")
    run = _init(project, "claude")
    assert run.code == 2 and run.stderr.startswith("error: .gitignore is a symbolic link"), run
    assert not (project / ".claude").exists() and not (tmp_path / "ignored").exists()


def test_nothing_is_half_written(tmp_path: Path) -> None:
    """A .gitignore that can't be written stops the run before the settings are written."""
    project = _shop(tmp_path)
    (project / ".gitignore").write_text("dist/\n")
    (project / ".gitignore").chmod(0o444)
    run = _init(project, "claude")
    assert run.code == 2, run
    assert run.stderr == (
        "error: .gitignore is read-only; nothing was written (make it writable and run this "
        "again).\n"
    )
    assert not (project / ".claude").exists()
    (project / ".gitignore").chmod(0o644)
    (project / ".claude").write_text("a file, not a folder\n")
    run = _init(project, "claude")
    assert run.code == 2 and run.stderr == "error: .claude is not a folder; nothing was written.\n"
    assert (project / ".gitignore").read_text() == "dist/\n"


# -- Claude Code: shared settings, the launcher --------------------------------------------------


def test_shared_settings_leave_this_machines_paths_out(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    run = _init(project, "claude", "--shared")
    assert run.code == 0, run
    assert not (project / LOCAL).exists()
    document = _settings(project, SHARED)
    assert document["permissions"]["deny"] == [
        "Edit(/.inwards/**)",
        "Edit(/inwards-baseline.json)",
        f"Edit(/{SHARED})",
    ]
    assert f"Not in the shared settings: {NO_USER_CONFIG / 'inwards' / 'rules'}" in run.stdout
    assert (project / ".gitignore").read_text().splitlines()[-1] == ".inwards/state/"
    assert LOCAL not in (project / ".gitignore").read_text()
    _valid(document)
    # The user root under the home folder is the same path for everyone: `~/`.
    home = project.parent / "home"
    run = _init(project, "claude", "--shared", xdg=str(home / ".config"))
    assert run.code == 0, run
    assert _settings(project, SHARED)["permissions"]["deny"][-1] == (
        "Edit(~/.config/inwards/rules/**)"
    )


def test_the_launcher_form_runs_from_the_project_directory(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    assert _init(project, "claude", "--launcher", "uv run").code == 0
    launched = 'cd "$CLAUDE_PROJECT_DIR" && uv run inwards hook claude-code'
    document = _settings(project)
    for event in EVENTS:
        assert [hook["command"] for _, hook in _ours(document, event)] == [launched]
    _valid(document)
    # Back to the installed inwards: our hooks change, none is added.
    assert _init(project, "claude").code == 0
    document = _settings(project)
    for event in EVENTS:
        assert [hook["command"] for _, hook in _ours(document, event)] == [_direct()]


def test_usage_errors(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    cases = [
        (["init", "--agent", "cursor"], "error: --agent 'cursor' is not an agent"),
        (["init", "--shared"], "error: --shared and --launcher are for --agent claude."),
        (["init", "--agent", "aider", "--launcher", "uv run"], "error: --shared and --launcher"),
        (["init", "--agent", "claude", "--style", "clean"], "error: --agent sets up a coding"),
        (["init", "--agent", "claude", "--launcher", " "], "error: --launcher ' ' can't be used"),
    ]
    for args, message in cases:
        run = run_inwards(*args, cwd=project)
        assert run.code == 2 and run.stderr.startswith(message), (args, run)
    (project / "pyproject.toml").write_text('[project]\nname = "shop"\n')
    run = run_inwards("init", "--agent", "claude", cwd=project)
    assert run.code == 2 and "[tool.inwards]" in run.stderr, run
    assert not (project / ".claude").exists()


# -- Claude Code: the written command, run as Claude Code runs it --------------------------------


def _as_claude_code(project: Path, command: str, name: str, env: dict[str, str]) -> Run:
    """The command line of the settings through bash, the payload on its standard input."""
    data = json.dumps(payload(name, project)).encode()
    done = subprocess.run(
        ["bash", "-c", command],
        input=data,
        cwd=project,
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return Run(done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.parametrize("form", ["direct", "launcher"])
def test_the_written_command_answers_a_real_payload(tmp_path: Path, form: str) -> None:
    project = _shop(tmp_path)
    bin_dir = Path(inwards_executable()[0]).parent
    # `env` stands in for `uv run`: a launcher that finds inwards on the PATH.
    args = ["--launcher", "env"] if form == "launcher" else []
    assert _init(project, "claude", *args).code == 0
    command = _ours(_settings(project), "PostToolUse")[0][1]["command"]
    env = {
        "PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin" if form == "launcher" else "/usr/bin:/bin",
        "HOME": str(project.parent / "home"),
        "XDG_CONFIG_HOME": str(NO_USER_CONFIG),
        "CLAUDE_PROJECT_DIR": str(project),
        # A clean environment: without this the first edit would leave a daemon running.
        "INWARDS_DAEMON": "0",
    }
    start = _as_claude_code(project, command, "session-start", env)
    assert start.code == 0, start
    assert (
        "## How inwards checks this session"
        in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    )
    with (project / ORDER).open("a") as stream:
        stream.write(VIOLATION)
    run = _as_claude_code(project, command, "post-tool-use-edit", env)
    assert run.code == 2, run
    document = json.loads(run.stderr.strip().splitlines()[-1])
    assert [(d["code"], d["file"]) for d in document["diagnostics"]] == [
        ("INW001", ORDER),
        ("SHOP001", ORDER),
    ]


# -- AGENTS.md: agents-md, Codex, OpenCode --------------------------------------------------------


@pytest.mark.parametrize("agent", ["agents-md", "codex", "opencode"])
def test_the_brief_is_kept_in_agents_md(tmp_path: Path, agent: str) -> None:
    project = _shop(tmp_path)
    (project / "AGENTS.md").write_text("# Notes for agents\n\nKeep this.\n")
    dry = _init(project, agent, "--dry-run")
    assert dry.code == 0, dry
    assert "--- a/AGENTS.md\n+++ b/AGENTS.md\n" in dry.stdout
    assert "+<!-- inwards-brief:begin -->\n" in dry.stdout
    assert (project / "AGENTS.md").read_text() == "# Notes for agents\n\nKeep this.\n"
    run = _init(project, agent)
    assert run.code == 0, run
    assert run.stdout.startswith("wrote the brief into AGENTS.md\n")
    text = (project / "AGENTS.md").read_text()
    assert text.startswith("# Notes for agents\n\nKeep this.\n\n<!-- inwards-brief:begin -->\n")
    # The same section `inwards context --write` keeps: it finds nothing to change.
    again = run_inwards("context", "--write", cwd=project)
    assert again.stdout == "AGENTS.md is up to date\n"
    assert _init(project, agent).stdout.startswith("AGENTS.md is up to date\n")
    if agent == "agents-md":
        assert run.stdout == "wrote the brief into AGENTS.md\n"
    else:
        assert "inwards writes no" in run.stdout and f"docs/agents.md#{agent}" in run.stdout
    assert not (project / ".codex").exists() and not (project / ".opencode").exists()


def test_agents_md_refuses_a_link(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    (tmp_path / "elsewhere.md").write_text("x\n")
    (project / "AGENTS.md").symlink_to(tmp_path / "elsewhere.md")
    run = _init(project, "agents-md")
    assert run.code == 2 and run.stderr.startswith("init: "), run
    assert "symbolic link" in run.stderr
    assert (tmp_path / "elsewhere.md").read_text() == "x\n"


# -- Aider ------------------------------------------------------------------------------------------


def test_aider_gets_a_lint_cmd_that_runs_the_check(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    before = _tree(project)
    run = _init(project, "aider")
    assert run.code == 0, run
    assert _tree(project) == before  # printed, not written
    snippet = run.stdout.split("\n\n", 1)[1]
    config = yaml.safe_load(snippet)
    command = shlex.join([*inwards_executable(), "check"])
    assert config == {"lint-cmd": [f"python: {command}"]}
    # Aider runs the command with the edited files appended; findings fail it.
    with (project / ORDER).open("a") as stream:
        stream.write(VIOLATION)
    linted = config["lint-cmd"][0].removeprefix("python: ")
    done = subprocess.run(
        f"{linted} {shlex.quote(ORDER)}",
        shell=True,
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CONFIG_HOME": str(NO_USER_CONFIG)},
        check=False,
    )
    assert done.returncode == 1, done
    assert "INW001" in done.stdout


def test_the_example_of_the_docs_is_what_init_writes(tmp_path: Path) -> None:
    """docs/agents.md shows what `--shared --launcher "uv run"` writes: the JSON block after
    the sentence naming that command, byte for byte."""
    project = _shop(tmp_path)
    home = project.parent / "home"
    run = _init(project, "claude", "--shared", "--launcher", "uv run", xdg=str(home / ".config"))
    assert run.code == 0, run
    page = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")
    after = page.split('What `inwards init --agent claude --shared --launcher "uv run"` writes', 1)[
        1
    ]
    shown = after.split("```json\n", 1)[1].split("```\n", 1)[0]
    assert shown == (project / SHARED).read_text(encoding="utf-8")


def test_aider_write_adds_the_lint_cmd_to_the_config(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    (project / ".aider.conf.yml").write_text("# mine\nmodel: sonnet\nauto-commits: false")
    dry = _init(project, "aider", "--write", "--dry-run")
    assert dry.code == 0, dry
    assert "--- a/.aider.conf.yml\n+++ b/.aider.conf.yml\n" in dry.stdout
    assert (project / ".aider.conf.yml").read_text().endswith("auto-commits: false")
    run = _init(project, "aider", "--write")
    assert run.code == 0, run
    text = (project / ".aider.conf.yml").read_text()
    assert text.startswith("# mine\nmodel: sonnet\nauto-commits: false\n# inwards checks")
    command = shlex.join([*inwards_executable(), "check"])
    assert yaml.safe_load(text) == {
        "model": "sonnet",
        "auto-commits": False,
        "lint-cmd": [f"python: {command}"],
    }
    again = _init(project, "aider", "--write")
    assert again.stdout == ".aider.conf.yml runs inwards already; nothing to change.\n"
    assert (project / ".aider.conf.yml").read_text() == text


def test_aider_write_leaves_a_lint_cmd_of_the_users_alone(tmp_path: Path) -> None:
    project = _shop(tmp_path)
    mine = "model: sonnet\nlint-cmd:\n  - 'python: flake8'\n"
    (project / ".aider.conf.yml").write_text(mine)
    run = _init(project, "aider", "--write")
    assert run.code == 2, run
    assert run.stderr.startswith("error: .aider.conf.yml:2: lint-cmd is set already; add ")
    assert (project / ".aider.conf.yml").read_text() == mine
    other = run_inwards("init", "--agent", "claude", "--write", cwd=project)
    assert other.code == 2 and other.stderr.startswith("error: --write is for --style auto")
