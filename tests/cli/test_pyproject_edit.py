"""The shared `[tool.inwards]` editor: the new table goes in, every other byte stays."""

from __future__ import annotations

import difflib
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

import pytest

from inwards_cli.pyproject_edit import (
    InwardsTableExistsError,
    PyprojectEditError,
    has_inwards_table,
    unified_diff,
    with_inwards_table,
    write_pyproject,
)

FIXTURE = """\
# The project's own comment, kept as written.
[project]
name = "shop"   # trailing comment
version = "1.0"
dependencies = [
  "attrs",  # pinned below
]

[tool.ruff]
line-length = 100
lint.select = ["E", "F"]    # a dotted key
lint.per-file-ignores."tests/*" = ["E501"]

# Type checking, strict.
[tool.mypy]
strict   =   true

[[tool.mypy.overrides]]
module = "x.*"
"""

TABLE: dict[str, Any] = {
    "root": ".",
    "required-version": "0.1.0",
    "ignore": ["/tests"],
    "layers": [
        {"name": "domain", "modules": ["shop.domain"]},
        [
            {"name": "a", "modules": ["shop.a"]},
            {"name": "b", "modules": ["shop.b"]},
        ],
        {"name": "bootstrap", "modules": ["shop.bootstrap"]},
    ],
    "rules": {"extend-select": ["INW014"], "severity": {"INW014": "warning"}},
    "contexts": [{"name": "orders", "modules": ["shop.orders"]}],
}


def removed_and_added(old: str, new: str) -> tuple[list[str], list[str]]:
    """The lines of `old` gone from `new`, and the lines `new` adds (line endings kept)."""
    matcher = difflib.SequenceMatcher(
        None, old.splitlines(keepends=True), new.splitlines(keepends=True), autojunk=False
    )
    removed: list[str] = []
    added: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("delete", "replace"):
            removed += old.splitlines(keepends=True)[i1:i2]
        if tag in ("insert", "replace"):
            added += new.splitlines(keepends=True)[j1:j2]
    return removed, added


def assert_only_added(old: str, new: str) -> list[str]:
    removed, added = removed_and_added(old, new)
    assert removed == []
    data = tomllib.loads(new)
    assert data["tool"]["inwards"]["layers"][1][0]["name"] == "a"
    without = tomllib.loads(new)
    del without["tool"]["inwards"]
    if not without["tool"]:
        del without["tool"]
    assert without == tomllib.loads(old)
    return added


def test_keeps_comments_and_order() -> None:
    new = with_inwards_table(FIXTURE, TABLE, "Preset: clean.\nNot enforced: ports.")
    added = assert_only_added(FIXTURE, new)
    assert new.startswith(FIXTURE)  # after the last [tool.*] table, here the file's end
    assert added[1] == "[tool.inwards]\n"
    assert added[2:4] == ["# Preset: clean.\n", "# Not enforced: ports.\n"]
    start = added.index("layers = [\n")
    assert added[start : start + 8] == [
        "layers = [\n",
        '  { name = "domain", modules = ["shop.domain"] },\n',
        "  [\n",
        '    { name = "a", modules = ["shop.a"] },\n',
        '    { name = "b", modules = ["shop.b"] },\n',
        "  ],\n",
        '  { name = "bootstrap", modules = ["shop.bootstrap"] },\n',
        "]\n",
    ]
    assert 'severity = { INW014 = "warning" }\n' in added
    assert tomllib.loads(new)["tool"]["inwards"] == TABLE


def test_goes_after_the_last_tool_table_not_at_the_end() -> None:
    text = FIXTURE + "\n# The lint config of another tool.\n[other]\nkey = 1\n"
    new = with_inwards_table(text, TABLE)
    assert_only_added(text, new)
    assert new.index("[tool.inwards]") > new.index("[[tool.mypy.overrides]]")
    # The comment above [other] stays with it.
    assert "# The lint config of another tool.\n[other]" in new
    assert new.index("[tool.inwards]") < new.index("# The lint config of another tool.")
    assert new.endswith("\n\n# The lint config of another tool.\n[other]\nkey = 1\n")


def test_crlf_line_endings_are_kept_and_used() -> None:
    text = FIXTURE.replace("\n", "\r\n")
    new = with_inwards_table(text, TABLE, "Preset: clean.")
    assert_only_added(text, new)
    assert "\n" not in new.replace("\r\n", "")
    assert new.startswith(text)


def test_a_file_without_any_tool_table() -> None:
    text = '[project]\nname = "shop"\n\n[build-system]\nrequires = ["setuptools"]\n'
    new = with_inwards_table(text, TABLE)
    assert_only_added(text, new)
    assert new.startswith(text + "\n[tool.inwards]\n")


def test_a_file_without_a_final_newline() -> None:
    text = '[project]\nname = "shop"'
    new = with_inwards_table(text, TABLE)
    assert new.startswith('[project]\nname = "shop"\n\n[tool.inwards]\n')
    assert tomllib.loads(new)["project"] == {"name": "shop"}


def test_an_empty_file() -> None:
    new = with_inwards_table("", {"root": "."}, "c")
    assert new == '[tool.inwards]\n# c\nroot = "."\n'


def test_top_level_dotted_tool_keys() -> None:
    text = 'tool.black.line-length = 88\nname = "x"\n\n[project]\nname = "shop"\n'
    new = with_inwards_table(text, TABLE)
    assert_only_added(text, new)


def test_an_explicit_tool_table() -> None:
    text = "[tool]\nfoo = 1\n[tool.black]\nx = 1\n[z]\na = 1\n"
    new = with_inwards_table(text, TABLE)
    assert_only_added(text, new)
    assert new.index("[tool.inwards]") < new.index("[z]")


EXISTING = """\
[project]
name = "shop"

[tool.inwards]
# The old preset comment.
root = "src"
layers = [{ name = "x", modules = ["shop.x"] }]

[tool.inwards.rules]
select = ["INW001"]

# mypy, kept.
[tool.mypy]
strict = true

[tool.inwards.templates.slice]
roles = ["a"]

[other]
k = 1
"""


def test_has_inwards_table_gives_the_line() -> None:
    assert has_inwards_table(EXISTING) == 4
    assert has_inwards_table(FIXTURE) is None
    assert has_inwards_table("[tool]\ninwards = { root = '.' }\n") == 2
    assert has_inwards_table('[tool.inwards.rules]\nselect = ["X"]\n') == 1


def test_an_existing_table_is_refused_without_replace() -> None:
    with pytest.raises(InwardsTableExistsError) as raised:
        with_inwards_table(EXISTING, TABLE)
    assert raised.value.line == 4
    assert "line 4" in raised.value.message


def test_replace_swaps_every_part_of_the_old_table_in_place() -> None:
    new = with_inwards_table(EXISTING, TABLE, "Preset: clean.", replace=True)
    data = tomllib.loads(new)
    assert data["tool"]["inwards"] == TABLE
    assert data["tool"]["mypy"] == {"strict": True}
    assert data["other"] == {"k": 1}
    removed, _ = removed_and_added(EXISTING, new)
    for line in removed:  # only the old table's own lines went
        assert "inwards" in line or line.strip() in (
            "",
            "# The old preset comment.",
            'root = "src"',
            'layers = [{ name = "x", modules = ["shop.x"] }]',
            'select = ["INW001"]',
            'roles = ["a"]',
        )
    assert new.index("[tool.inwards]") < new.index("# mypy, kept.")
    assert "# mypy, kept.\n[tool.mypy]\nstrict = true\n" in new
    assert new.startswith('[project]\nname = "shop"\n\n[tool.inwards]\n# Preset: clean.\n')


def test_replace_of_keys_under_a_tool_table() -> None:
    text = '[tool]\ninwards.root = "."\nfoo = 1\n\n[z]\na = 1\n'
    new = with_inwards_table(text, {"root": "src"}, replace=True)
    data = tomllib.loads(new)
    assert data == {"tool": {"foo": 1, "inwards": {"root": "src"}}, "z": {"a": 1}}


def test_replace_without_a_table_just_adds() -> None:
    assert with_inwards_table(FIXTURE, TABLE, replace=True) == with_inwards_table(FIXTURE, TABLE)


def test_invalid_toml_names_the_line() -> None:
    with pytest.raises(PyprojectEditError) as raised:
        has_inwards_table('[project]\nname = "x"\nbroken = \n')
    assert raised.value.line == 3


def test_same_input_same_bytes() -> None:
    assert with_inwards_table(FIXTURE, TABLE, "c") == with_inwards_table(FIXTURE, TABLE, "c")


def test_unified_diff_shows_only_additions() -> None:
    new = with_inwards_table(FIXTURE.replace("\n", "\r\n"), TABLE)
    diff = unified_diff(FIXTURE.replace("\n", "\r\n"), new, "pyproject.toml")
    assert diff.startswith("--- a/pyproject.toml\n+++ b/pyproject.toml\n@@")
    body = [line for line in diff.splitlines()[2:] if not line.startswith("@@")]
    assert all(line.startswith(("+", " ")) for line in body)
    assert "+[tool.inwards]" in body
    assert "\r" not in diff
    assert unified_diff("a\n", "a\n", "p") == ""


def test_write_pyproject_replaces_atomically_keeping_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "pyproject.toml"
    target.write_text(FIXTURE, encoding="utf-8")
    os.chmod(target, 0o640)
    new = with_inwards_table(FIXTURE, TABLE)
    write_pyproject(target, new)
    assert target.read_bytes() == new.encode("utf-8")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [path.name for path in tmp_path.iterdir()] == ["pyproject.toml"]
