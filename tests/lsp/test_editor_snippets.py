"""The editor set-ups of docs/editors.md start `inwards server`: each snippet parses in its
own format and names that command (the editors themselves don't run here)."""

from __future__ import annotations

import json
import re
import tomllib

from tests.e2e.helpers import REPO

PAGE = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")


def block(language: str) -> str:
    (found,) = re.findall(rf"^```{language}\n(.*?)^```$", PAGE, flags=re.M | re.S)
    return str(found)


def test_the_vs_code_settings_start_the_server_for_python_and_toml() -> None:
    settings = json.loads(block("json"))
    assert settings["glspc.server.command"] == "inwards"
    assert settings["glspc.server.commandArguments"] == ["server"]
    assert settings["glspc.server.languageId"] == ["python", "toml"]


def test_the_helix_languages_file_defines_the_server_and_adds_it_to_python() -> None:
    languages = tomllib.loads(block("toml"))
    assert languages["language-server"]["inwards"] == {"command": "inwards", "args": ["server"]}
    (python,) = languages["language"]
    assert python["name"] == "python"
    assert "inwards" in python["language-servers"]


def test_the_neovim_configuration_names_the_command_and_enables_it() -> None:
    lua = block("lua")
    assert 'cmd = { "inwards", "server" }' in lua
    assert 'vim.lsp.config("inwards", {' in lua
    assert lua.rstrip().endswith('vim.lsp.enable("inwards")')
    assert lua.count("{") == lua.count("}") and lua.count("(") == lua.count(")")
