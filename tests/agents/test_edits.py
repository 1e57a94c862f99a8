"""File tool calls applied in memory, and the lines they add."""

from __future__ import annotations

from inwards_cli.agents.edits import edited_text, lines_added


def test_write_edit_and_multi_edit() -> None:
    assert edited_text("Write", {"content": "new\n"}, "old\n") == "new\n"
    assert edited_text("Edit", {"old_string": "b", "new_string": "c"}, "abc") == "acc"
    edit = {"old_string": "a", "new_string": "x", "replace_all": True}
    assert edited_text("Edit", edit, "aba") == "xbx"
    edits = [{"old_string": "a", "new_string": "b"}, {"old_string": "bb", "new_string": "c"}]
    assert edited_text("MultiEdit", {"edits": edits}, "ab") == "c"
    assert edited_text("Edit", {"old_string": "", "new_string": "all"}, None) == "all"


def test_calls_that_cant_apply_change_nothing() -> None:
    assert edited_text("Edit", {"old_string": "z", "new_string": "y"}, "abc") is None
    assert edited_text("Edit", {"old_string": "a", "new_string": "y"}, "aa") is None  # ambiguous
    assert edited_text("Edit", {"old_string": "a", "new_string": 3}, "a") is None
    assert edited_text("MultiEdit", {"edits": [{"old_string": "q", "new_string": ""}]}, "a") is None
    assert edited_text("MultiEdit", {"edits": []}, "a") is None
    assert edited_text("Read", {}, "a") is None


def test_lines_added() -> None:
    edit = {"old_string": "import a\n", "new_string": "import a\nimport b\n\nimport c\n"}
    assert lines_added("Edit", edit) == 2
    assert lines_added("MultiEdit", {"edits": [edit, edit]}) == 4
    assert lines_added("Write", {"content": "x = 1\ny = 2\n"}) == 2
    assert lines_added("Write", {"content": "x = 1\ny = 2\n"}, "x = 1\n") == 1
