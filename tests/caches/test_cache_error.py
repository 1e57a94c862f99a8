"""The `--verify-cache` failure: exit 2, one line per entry (at most 20), stdout untouched."""

from __future__ import annotations

import pytest

from inwards_cli.commands.cache_verification import MAX_MISMATCHES_SHOWN, fail_verification
from inwards_core.verification import CacheMismatch


def test_one_entry_is_named_with_what_differs(capsys: pytest.CaptureFixture[str]) -> None:
    mismatch = CacheMismatch("src/a.py", "line count: the cache has 3, the file 4")
    with pytest.raises(SystemExit) as ended:
        fail_verification([mismatch], lambda path: f"../{path}")
    assert ended.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[:2] == [
        "cache error: 1 cached entry differs from what it was made from (--verify-cache):",
        "  ../src/a.py: line count: the cache has 3, the file 4",
    ]
    assert err.count("\n") == 3


def test_many_entries_are_cut_short_with_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    mismatches = [CacheMismatch(f"src/m{n}.py", "x") for n in range(MAX_MISMATCHES_SHOWN + 5)]
    with pytest.raises(SystemExit):
        fail_verification(mismatches, lambda path: path)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("cache error: 25 cached entries differ from what they were ")
    assert len(lines) == 1 + MAX_MISMATCHES_SHOWN + 2
    assert lines[-2] == "  ... and 5 more"


def test_an_entry_name_with_control_characters_is_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        fail_verification([CacheMismatch("src/\x1b[2Jx.py", "x")], lambda path: path)
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b[2Jx.py" in err
