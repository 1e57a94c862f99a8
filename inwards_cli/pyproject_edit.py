"""Adding (or replacing) the `[tool.inwards]` table of a `pyproject.toml`, byte for byte.

`inwards init`, `import-config` and `import-diagram` all write a table into a file people
keep. Whatever else the file holds — comments, dotted keys, key order, CRLF line endings,
odd spacing — must come out exactly as it went in: the new table is rendered on its own
(tomlkit) and spliced into the original text at a line boundary, never by dumping a
re-serialised document. tomlkit only chooses *where* (after the last `[tool.*]` table, or
where the old table stood); every result is parsed back with tomllib and must equal the
original data with `tool.inwards` swapped, or the edit is refused.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import InlineTable, Table

from inwards_cli.adapters.atomic import write_user_file
from inwards_core.config.positions import TomlPositions, decode_error_position

TABLE_KEY = "tool.inwards"


class PyprojectEditError(Exception):
    """The file can't be edited as asked; `line` (1-based) is where, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class InwardsTableExistsError(PyprojectEditError):
    """`[tool.inwards]` is already there and `replace` was not asked for."""


def has_inwards_table(text: str) -> int | None:
    """The 1-based line where `tool.inwards` is defined (a `[tool.inwards]` header, a
    sub-table, a dotted key or an inline table), or None when the file has no such table.
    Raises `PyprojectEditError` for a file that is not valid TOML."""
    data = _load(text)
    tool = data.get("tool")
    if not isinstance(tool, dict) or "inwards" not in tool:
        return None
    located = TomlPositions(text).locate(TABLE_KEY)
    return located[0] if located is not None else 1


def with_inwards_table(
    text: str, table: Mapping[str, Any], comment: str = "", *, replace: bool = False
) -> str:
    """`text` with `table` as its `[tool.inwards]`, every other byte kept.

    `comment` (one or more lines, without `#`) is written first inside the table. A
    present table raises `InwardsTableExistsError` unless `replace`, which swaps it (and
    all its sub-tables, wherever they stand) for the new one at the place of the first.
    """
    data = _load(text)
    present = has_inwards_table(text)
    if present is not None and not replace:
        raise InwardsTableExistsError(
            f"[tool.inwards] is already defined (line {present}); pass --force to replace it",
            present,
        )
    newline = "\r\n" if "\r\n" in text else "\n"
    block = _render_block(table, comment).replace("\n", newline)
    expected = _with_table(data, table)
    base = text
    candidates: list[int] = []
    if present is not None:
        base = _without_table(text)
        candidates.append(_first_difference_line(text, base))
    candidates.append(_tool_insertion_offset(base))
    candidates.append(len(base))
    for offset in candidates:
        result = _splice(base, offset, block, newline)
        if _parses_to(result, expected):
            return result
    raise PyprojectEditError(  # pragma: no cover - every valid file takes the end-of-file place
        "could not place [tool.inwards] in this file without changing another table; add it "
        "by hand",
        present,
    )


def render_table(table: Mapping[str, Any], comment: str = "") -> str:
    """`[tool.inwards]` (and its sub-tables) as `with_inwards_table` writes it, `\n` line
    endings: what a dry run prints."""
    return _render_block(table, comment)


def unified_diff(old: str, new: str, path: str) -> str:
    """A unified diff of `old` to `new` for display (line endings shown as `\\n`)."""
    lines = difflib.unified_diff(
        _display_lines(old), _display_lines(new), fromfile=f"a/{path}", tofile=f"b/{path}"
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def write_pyproject(path: Path, text: str) -> None:
    """Replace `path` with `text` atomically (a reader sees the old file or the new one),
    keeping its mode; refuses links and read-only files (`OSError`, see `atomic.py`)."""
    write_user_file(path, text.encode("utf-8"))


def _load(text: str) -> dict[str, Any]:
    # With `check`'s nesting limits: the results parsed back below are this text with a
    # table added, so they are bounded once this is.
    from inwards_core.config.nesting import TomlTooDeepError, load_toml

    try:
        return load_toml(text)
    except TomlTooDeepError as error:
        raise PyprojectEditError(str(error), error.line) from None
    except tomllib.TOMLDecodeError as error:
        position = decode_error_position(error, text)
        raise PyprojectEditError(
            f"is not valid TOML: {error}", None if position is None else position[0]
        ) from None


def _with_table(data: Mapping[str, Any], table: Mapping[str, Any]) -> dict[str, Any]:
    expected = dict(data)
    tool = dict(expected.get("tool", {}))
    tool["inwards"] = tomllib.loads(_render_block(table, ""))["tool"]["inwards"]
    expected["tool"] = tool
    return expected


def _parses_to(text: str, expected: Mapping[str, Any]) -> bool:
    try:
        return tomllib.loads(text) == expected
    except tomllib.TOMLDecodeError:
        return False


def _render_block(table: Mapping[str, Any], comment: str) -> str:
    """`[tool.inwards]` and its sub-tables as text, `\\n` line endings, no blank edges."""
    inwards = tomlkit.table()
    for line in comment.splitlines():
        inwards.add(tomlkit.comment(line.strip()) if line.strip() else tomlkit.nl())
    _fill(inwards, table)
    tool = tomlkit.table(is_super_table=True)
    tool.add("inwards", inwards)
    document = tomlkit.document()
    document.add("tool", tool)
    return tomlkit.dumps(document).strip("\n") + "\n"


def _fill(table: Table, values: Mapping[str, Any]) -> None:
    for key, value in values.items():
        item = _item(key, value)
        if isinstance(item, Mapping) and not isinstance(item, InlineTable):
            sub = tomlkit.table()
            _fill(sub, item)
            table.add(key, sub)
        else:
            table.add(key, item)


def _item(key: str, value: Any) -> Any:
    # `layers` (and any list holding a list: siblings) is one array of inline tables, one
    # entry a line and a group of siblings indented below its own `[`, as people write it;
    # other lists of tables stay `[[...]]` blocks. A small table of plain values is inline.
    if _is_list(value) and (key == "layers" or any(_is_list(entry) for entry in value)):
        lines = ["["]
        for entry in value:
            if _is_list(entry):
                lines += ["  [", *(f"    {_inline_text(item)}," for item in entry), "  ],"]
            else:
                lines.append(f"  {_inline_text(entry)},")
        lines.append("]")
        return tomlkit.parse("value = " + "\n".join(lines) + "\n")["value"]
    if isinstance(value, Mapping) and not any(
        isinstance(entry, Mapping) or _is_list(entry) for entry in value.values()
    ):
        text = _inline_text(value)
        if len(text) <= 72:
            return tomlkit.parse(f"value = {text}\n")["value"]
    return value


def _inline_text(value: Any) -> str:
    """A value as inline TOML, tables written `{ key = value, ... }`."""
    if isinstance(value, Mapping):
        pairs = ", ".join(
            f"{tomlkit.key(str(key)).as_string()} = {_inline_text(entry)}"
            for key, entry in value.items()
        )
        return f"{{ {pairs} }}" if pairs else "{}"
    if _is_list(value):
        return "[" + ", ".join(_inline_text(entry) for entry in value) + "]"
    return str(tomlkit.item(value).as_string())


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _without_table(text: str) -> str:
    """`text` with `tool.inwards` (and its sub-tables) deleted; only whole lines go."""
    try:
        document = tomlkit.parse(text)
        tool = document["tool"]
        assert isinstance(tool, Table | InlineTable)
        del tool["inwards"]
        result = tomlkit.dumps(document)
    except (TOMLKitError, KeyError, AssertionError):
        raise PyprojectEditError("could not remove the existing [tool.inwards] table") from None
    lines = text.splitlines(keepends=True)
    opcodes = difflib.SequenceMatcher(
        None, lines, result.splitlines(keepends=True), autojunk=False
    ).get_opcodes()
    if any(tag not in ("equal", "delete") for tag, *_ in opcodes):
        raise PyprojectEditError(
            "the existing [tool.inwards] shares lines with other keys; remove it by hand, "
            "then run again",
            has_inwards_table(text),
        )
    kept: list[str] = []
    for tag, start, end, _, _ in opcodes:
        if tag == "equal":
            kept += lines[start:end]
            continue
        # tomlkit counts the comment lines just above the next header as the end of the
        # removed table; they belong to that header and stay.
        attached = end
        while end < len(lines) and attached > start and lines[attached - 1].lstrip()[:1] == "#":
            attached -= 1
        kept += lines[attached:end]
    return "".join(kept)


def _tool_insertion_offset(text: str) -> int:
    """Where tomlkit would add `[tool.inwards]` (after the last `[tool.*]` table), moved
    to a line start and above any comment lines that belong to the next header."""
    document = tomlkit.parse(text)
    tool = document.get("tool")
    marker = {"x": 1}
    if isinstance(tool, Table):
        tool["inwards"] = marker
    else:
        holder = tomlkit.table(is_super_table=True)
        holder.add("inwards", marker)
        if tool is None:
            document.add("tool", holder)
        else:
            return len(text)
    offset = _first_difference_line(text, tomlkit.dumps(document))
    lines = text[:offset].splitlines(keepends=True)
    while lines and lines[-1].lstrip().startswith("#") and offset < len(text):
        offset -= len(lines.pop())
    return offset


def _first_difference_line(old: str, new: str) -> int:
    """The offset of the start of the line of `old` where `new` first differs."""
    index = 0
    limit = min(len(old), len(new))
    while index < limit and old[index] == new[index]:
        index += 1
    return old.rfind("\n", 0, index) + 1 if index < len(old) else len(old)


def _splice(text: str, offset: int, block: str, newline: str) -> str:
    before, after = text[:offset], text[offset:]
    if before and not before.endswith("\n"):
        before += newline
    if before.strip() and not before.endswith(newline * 2):
        before += newline
    if after.strip():
        block += newline
    return before + block + after


def _display_lines(text: str) -> list[str]:
    return [line.rstrip("\r\n") + "\n" for line in text.splitlines(keepends=True)]
