"""The config guard on file tools: the parsed [tool.inwards] and the hook settings, the
places agents may not edit, judged with links resolved."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inwards_cli.agents.guard import Protected, file_tool_refusal, shell_refusal

PYPROJECT = """\
[project]
name = "shop"  # the distribution
version = "1.0.0"

[tool.inwards]
root = "src"
layers = [{ name = "domain", modules = ["shop.domain"] }]

[tool.ruff]
line-length = 100
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / ".claude").mkdir()
    settings = {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "inwards hook claude-code"}]}]}
    }
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(settings))
    return tmp_path


def _protected(project: Path) -> Protected:
    environ = {"HOME": str(project / "home"), "XDG_CONFIG_HOME": str(project / "xdg")}
    return Protected.of(project, project, environ)


def _edit(project: Path, name: str, old: str, new: str) -> str | None:
    refused = file_tool_refusal(
        _protected(project), project / name, "Edit", {"old_string": old, "new_string": new}
    )
    return None if refused is None else refused[0]


def test_only_a_change_of_the_parsed_table_is_refused(project: Path) -> None:
    assert _edit(project, "pyproject.toml", '"1.0.0"', '"1.1.0"') is None
    assert _edit(project, "pyproject.toml", "line-length = 100", "line-length = 88") is None
    assert _edit(project, "pyproject.toml", 'root = "src"', 'root = "src"  # where') is None
    assert _edit(project, "pyproject.toml", 'root = "src"', 'root = "lib"') == "config"
    assert _edit(project, "pyproject.toml", "[tool.inwards]\n", "[tool.inwards-off]\n") == "config"
    assert _edit(project, "pyproject.toml", 'root = "src"', 'root = "src') == "config"  # broken
    assert _edit(project, "pyproject.toml", "no such text", "x") is None  # the tool fails
    write = {"content": "[project]\nname = 'x'\n"}
    assert file_tool_refusal(_protected(project), project / "pyproject.toml", "Write", write)


def test_a_new_pyproject_with_a_table_is_a_change(project: Path) -> None:
    member = project / "member" / "pyproject.toml"
    content = {"content": "[tool.inwards]\nlayers = []\n"}
    assert file_tool_refusal(_protected(project), member, "Write", content) is not None
    plain = {"content": "[project]\nname = 'member'\n"}
    assert file_tool_refusal(_protected(project), member, "Write", plain) is None
    # Another project's is not this session's business.
    elsewhere = project.parent / "elsewhere" / "pyproject.toml"
    assert file_tool_refusal(_protected(project), elsewhere, "Write", content) is None


def test_settings_that_run_the_hooks_are_refused(project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    document = json.loads(settings.read_text())
    protected = _protected(project)
    more = {**document, "permissions": {"deny": ["Read(./.env)"]}}
    refused = file_tool_refusal(protected, settings, "Write", {"content": json.dumps(more)})
    assert refused is not None and refused[0] == "settings"
    # A settings file without inwards' hooks is free, unless the edit adds or turns off hooks.
    local = project / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"permissions": {"allow": ["Bash(pytest:*)"]}}))
    plain = {"permissions": {"allow": ["Bash(pytest:*)", "Bash(ruff:*)"]}}
    assert file_tool_refusal(protected, local, "Write", {"content": json.dumps(plain)}) is None
    for changed in ({**plain, "disableAllHooks": True}, {**plain, "hooks": {}}):
        refused = file_tool_refusal(protected, local, "Write", {"content": json.dumps(changed)})
        assert refused is not None and refused[0] == "settings"
    assert file_tool_refusal(protected, local, "Write", {"content": "{not json"}) is None


@pytest.mark.parametrize(
    ("name", "what"),
    [
        (".inwards/state/s.start.json", "state"),
        (".inwards/rules/SHOP002.toml", "state"),
        ("inwards-baseline.json", "baseline"),
        ("xdg/inwards/rules/MY001.toml", "rules"),
        ("src/../.inwards/x", "state"),
    ],
)
def test_protected_places(project: Path, name: str, what: str) -> None:
    refused = file_tool_refusal(_protected(project), project / name, "Write", {"content": ""})
    assert refused is not None and refused[0] == what


def test_a_link_to_a_protected_place_is_judged_by_where_it_leads(project: Path) -> None:
    (project / ".inwards" / "state").mkdir(parents=True)
    os.symlink(project / ".inwards" / "state", project / "innocent")
    refused = file_tool_refusal(
        _protected(project), project / "innocent" / "x.json", "Write", {"content": ""}
    )
    assert refused is not None and refused[0] == "state"


def test_shell_commands(project: Path) -> None:
    protected = _protected(project)
    assert shell_refusal(protected, "pytest -q") is None
    assert shell_refusal(protected, "cat .inwards/rules/X.toml") is None
    refused = shell_refusal(protected, "rm -rf .inwards")
    assert refused is not None and "names .inwards" in refused[1]
    assert shell_refusal(protected, "echo '{}' > .claude/settings.json") is not None
    assert shell_refusal(protected, "cat .claude/settings.json") is None
    assert shell_refusal(protected, "inwards baseline") is not None
