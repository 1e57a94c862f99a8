"""docs/ci.md: its YAML parses, and every inwards command line in it uses options the
installed CLI has (a renamed option must not leave the guide behind)."""

from __future__ import annotations

import re
import shlex

import yaml

from tests.e2e.helpers import REPO, run_inwards

GUIDE = REPO / "docs" / "ci.md"


def yaml_blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", GUIDE.read_text(encoding="utf-8"), flags=re.S)


def inwards_commands() -> list[list[str]]:
    commands: list[list[str]] = []
    for block in yaml_blocks():
        for line in block.split("\n"):
            found = re.search(r"run: (inwards .*?)(\s*\|\|.*)?$", line)
            if found:
                commands.append(shlex.split(found.group(1)))
    text = GUIDE.read_text(encoding="utf-8")
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        for line in block.strip().split("\n"):
            commands.append(shlex.split(line.split("#")[0]))
    return commands


def test_the_yaml_blocks_parse() -> None:
    blocks = yaml_blocks()
    assert len(blocks) == 2
    workflow = yaml.safe_load(blocks[0])
    steps = workflow["jobs"]["inwards"]["steps"]
    assert any("upload-sarif" in step.get("uses", "") for step in steps)
    hooks = yaml.safe_load(blocks[1])["repos"][0]["hooks"]
    assert hooks[0]["id"] == "inwards"


def test_every_command_uses_real_options(tmp_path) -> None:  # type: ignore[no-untyped-def]
    commands = inwards_commands()
    assert len(commands) >= 4
    helps: dict[str, str] = {}
    for command in commands:
        assert command[0] == "inwards"
        verb = command[1]
        if verb not in helps:
            done = run_inwards(verb, "--help", cwd=tmp_path)
            assert done.code == 0, (verb, done.stderr)
            helps[verb] = done.stdout
        for position, token in enumerate(command[2:], start=2):
            is_option = token.startswith("--")
            is_format = command[position - 1] == "--format"
            if is_option or is_format:
                assert token in helps[verb], (command, token)
