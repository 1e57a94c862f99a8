"""The hook command lines `inwards init --agent claude` writes, run through bash as Claude
Code runs them: a path with spaces or quotes reaches the program whole, and a launcher's
words stay words."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from inwards_cli.agents.settings import runs_inwards
from inwards_cli.agents.setup import direct_command, launcher_command


def _stub(folder: Path) -> Path:
    """A program that prints its arguments, one a line."""
    folder.mkdir(parents=True)
    program = folder / "inwards"
    program.write_text('#!/bin/sh\nfor word in "$@"; do echo "$word"; done\n')
    program.chmod(0o755)
    return program


@pytest.mark.parametrize("folder", ["plain", "with space", "it's $HOME `x`"])
def test_the_direct_command_survives_the_shell(tmp_path: Path, folder: str) -> None:
    program = _stub(tmp_path / folder / "bin")
    command = direct_command([str(program)])
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True)
    assert done.stdout == "hook\nclaude-code\n"
    assert runs_inwards({"type": "command", "command": command})


def test_the_launcher_command_runs_from_the_project(tmp_path: Path) -> None:
    program = _stub(tmp_path / "tools dir")
    project = tmp_path / "my project"
    project.mkdir()
    command = launcher_command(f"'{program}' run")
    assert command == f"cd \"$CLAUDE_PROJECT_DIR\" && '{program}' run inwards hook claude-code"
    done = subprocess.run(
        ["bash", "-c", command + "; pwd"],
        capture_output=True,
        text=True,
        check=True,
        env={"CLAUDE_PROJECT_DIR": str(project), "PATH": "/usr/bin:/bin"},
    )
    assert done.stdout == f"run\ninwards\nhook\nclaude-code\n{project}\n"
    assert runs_inwards({"type": "command", "command": command})
    assert launcher_command("uv run") == (
        'cd "$CLAUDE_PROJECT_DIR" && uv run inwards hook claude-code'
    )
    with pytest.raises(ValueError):
        launcher_command("   ")
    with pytest.raises(ValueError):
        launcher_command("uv 'run")
