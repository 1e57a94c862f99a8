"""The overlay writer of `inwards rules shadow --overlay`: `--set`/`--unset` parsing and the
file it writes (the base recorded in [overlay], the old values in [overlay.was])."""

from __future__ import annotations

import tomllib

import pytest

from inwards_cli.overlay_files import (
    BaseRecord,
    SettingError,
    overlay_text,
    parse_settings,
    parse_unsets,
    toml_value,
)

BASE_TABLE = {
    "code": "INW005",
    "name": "pure-domain",
    "check": "inw.pure-domain",
    "severity": "error",
    "options": {"deny": ["sqlalchemy"]},
    "guidance": {"summary": "Keep {library} out.", "docs": "https://example.org"},
}
BASE = BaseRecord("core", "inwards-lint", "1.0", "inw/INW005.toml", "ab" * 32, BASE_TABLE)


def test_value_is_toml_or_text() -> None:
    assert toml_value("warning") == "warning"
    assert toml_value('"warning"') == "warning"
    assert toml_value("true") is True
    assert toml_value('["a", "b"]') == ["a", "b"]
    assert toml_value("{ x = 1 }") == {"x": 1}
    assert toml_value("Say it, then do it.") == "Say it, then do it."


def test_settings_are_parsed_and_checked() -> None:
    settings = parse_settings(["severity=warning", 'options.deny=["requests"]'])
    assert [(s.key, s.value) for s in settings] == [
        ("severity", "warning"),
        ("options.deny", ["requests"]),
    ]
    for arguments, words in [
        (["severity"], "is not KEY=VALUE"),
        (["severity=warning", "severity=error"], "set twice"),
        (["options={ deny = [] }", "options.deny=[]"], "overlap"),
        (["check=inw.layers"], "whole-file shadow"),
        (["overlays=INW001"], "names its rule itself"),
        (["options..deny=1"], "is not a field path"),
    ]:
        with pytest.raises(SettingError, match=words):
            parse_settings(arguments)


def test_unset_and_set_of_one_field_is_refused_but_a_child_may_replace_a_table() -> None:
    settings = parse_settings(["guidance.variants.dead-entry.summary=x"])
    assert parse_unsets(["guidance.variants"], settings) == ("guidance.variants",)
    with pytest.raises(SettingError, match="also set by --set"):
        parse_unsets(["severity"], parse_settings(["severity=warning"]))
    with pytest.raises(SettingError, match="also set by --set"):
        parse_unsets(["options.deny.x"], parse_settings(["options.deny=[]"]))


def test_the_file_holds_the_fields_set_the_unsets_and_the_base_with_old_values() -> None:
    settings = parse_settings(
        ["severity=warning", 'options.deny=["requests"]', "options.extra=1", "summary=New"]
    )
    text = overlay_text("INW005", BASE, settings, ("guidance.docs",), to="project").decode()
    assert text.startswith("# Overlay of INW005, made by `inwards rules shadow INW005 --to")
    table = tomllib.loads(text)
    assert table["overlays"] == "INW005"
    assert table["severity"] == "warning"
    assert table["summary"] == "New"
    assert table["unset"] == ["guidance.docs"]
    assert table["options"] == {"deny": ["requests"], "extra": 1}
    overlay = table["overlay"]
    assert {k: overlay[k] for k in ("root", "distribution", "version", "path", "sha256")} == {
        "root": "core",
        "distribution": "inwards-lint",
        "version": "1.0",
        "path": "inw/INW005.toml",
        "sha256": "ab" * 32,
    }
    assert overlay["was"] == {
        "severity": "error",
        "options.deny": ["sqlalchemy"],
        "guidance.docs": "https://example.org",
    }
    assert overlay["was-absent"] == ["options.extra", "summary"]


def test_an_overlay_with_nothing_set_records_only_its_base() -> None:
    table = tomllib.loads(overlay_text("INW005", BASE, (), (), to="user").decode())
    assert set(table) == {"overlays", "overlay"}
    assert "was" not in table["overlay"] and "was-absent" not in table["overlay"]
