"""Reading a baseline strictly: anything this version would not write is a `BaselineError`
naming the file, and the line and key where it can."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from inwards_core.baseline import (
    BASELINE_FILE_NAME,
    ENTRY_KEYS,
    SCHEMA,
    TOP_KEYS,
    Baseline,
    BaselineError,
    Key,
    entry_key,
)
from inwards_core.model.findings import BaselineEntry


def parse_baseline(data: bytes, *, file: str = BASELINE_FILE_NAME) -> Baseline:
    """Read a baseline strictly: anything this version would not write (unknown keys, wrong
    types, another schema, a repeated entry) is a `BaselineError` naming `file`, and the
    line and key where it can."""
    if not isinstance(data, bytes | bytearray):
        raise TypeError(f"data must be the baseline's bytes, not {type(data).__name__}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BaselineError(
            file, f"the baseline is not UTF-8 text (byte {error.start} can't be decoded)."
        ) from None
    document = _json_document(text, file)
    raw_entries = _entries_array(document, file, text)
    seen: dict[Key, int] = {}
    entries: list[BaselineEntry] = []
    for number, raw in enumerate(raw_entries):
        try:
            entry = _parse_entry(raw, file, f"entries[{number}]")
            key = entry_key(entry)
            if key in seen:
                raise BaselineError(
                    file,
                    f"repeats entries[{seen[key]}] (same code, module and message); keep one "
                    "and add up their counts.",
                    key=f"entries[{number}]",
                )
        except BaselineError as error:
            # The line is worked out only for the message: scanning costs more than parsing.
            line = _entry_line(text, number)
            raise BaselineError(error.file, error.reason, line=line, key=error.key) from None
        seen[key] = number
        entries.append(entry)
    return Baseline(tuple(sorted(entries, key=entry_key)))


def _json_document(text: str, file: str) -> Any:
    """The parsed JSON, refusing what `json.loads` lets through: repeated keys, NaN and
    Infinity, nesting deep enough to exhaust the stack."""
    try:
        return json.loads(text, object_pairs_hook=_no_repeated_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as error:
        raise BaselineError(
            file,
            f"the baseline is not valid JSON: {_json_problem(error.msg)}.",
            line=error.lineno,
            column=error.colno,
        ) from None
    except _RepeatedKey as error:
        raise BaselineError(
            file, f'the key "{error.key}" appears twice in one object; keep one.'
        ) from None
    except _Constant as error:
        raise BaselineError(
            file, f"the baseline is not valid JSON: {error.name} is not a JSON value."
        ) from None
    except RecursionError:  # the JSON parser nests one call per level
        raise BaselineError(
            file,
            "the baseline nests arrays or objects too deeply to read; an inwards baseline "
            "is an object of entries, three levels deep.",
        ) from None


def _entries_array(document: Any, file: str, text: str) -> list[Any]:
    """The document's "entries", once its top level is an inwards baseline of this version."""
    if not isinstance(document, dict):
        raise BaselineError(
            file,
            f"the baseline must be a JSON object holding "
            f'"schema" and "entries", not {_json_type(document)}.',
            line=1,
        )
    schema = document.get("schema")
    if schema is None:
        raise BaselineError(
            file, f'"schema" is missing: an inwards baseline declares "schema": "{SCHEMA}".'
        )
    if schema != SCHEMA:
        what = (
            json.dumps(schema, ensure_ascii=False)
            if isinstance(schema, str)
            else _json_type(schema)
        )
        raise BaselineError(
            file,
            f"{what} is not {json.dumps(SCHEMA)}: this is not a baseline this version of "
            "inwards reads.",
            line=_line_of_key(text, "schema"),
            key="schema",
        )
    _no_unknown_keys(document, TOP_KEYS, file, "", text)
    raw_entries = document.get("entries")
    if raw_entries is None:
        raise BaselineError(file, '"entries" is missing (an empty baseline has "entries": []).')
    if not isinstance(raw_entries, list):
        raise BaselineError(
            file,
            f"must be an array of entries, not {_json_type(raw_entries)}.",
            line=_line_of_key(text, "entries"),
            key="entries",
        )
    return raw_entries


def _parse_entry(raw: Any, file: str, key: str) -> BaselineEntry:
    if not isinstance(raw, dict):
        raise BaselineError(
            file,
            f"must be an object with {_known(ENTRY_KEYS)}, not {_json_type(raw)}.",
            key=key,
        )
    for name in ENTRY_KEYS:
        if name not in raw:
            raise BaselineError(file, f'"{name}" is missing.', key=key)
    unknown = sorted(set(raw) - set(ENTRY_KEYS))
    if unknown:
        raise BaselineError(
            file,
            f'unknown key "{unknown[0]}" (an entry has {_known(ENTRY_KEYS)}).',
            key=key,
        )
    for name in ("code", "module", "message"):
        value = raw[name]
        if not isinstance(value, str) or not value.strip():
            what = "an empty string" if isinstance(value, str) else _json_type(value)
            raise BaselineError(
                file, f"must be a non-empty string, not {what}.", key=f"{key}.{name}"
            )
    count = raw["count"]
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        number = isinstance(count, int) and not isinstance(count, bool)
        raise BaselineError(
            file,
            f"must be a whole number of at least 1, not {count if number else _json_type(count)}.",
            key=f"{key}.count",
        )
    return BaselineEntry(raw["code"], raw["module"], raw["message"], count)


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class _Constant(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _RepeatedKey(key)
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    raise _Constant(name)


def _no_unknown_keys(
    table: Mapping[str, Any], known: tuple[str, ...], file: str, key: str, text: str
) -> None:
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise BaselineError(
            file,
            f'unknown key "{unknown[0]}" (a baseline has {_known(known)}).',
            line=_line_of_key(text, unknown[0]),
            key=key,
        )


def _known(keys: tuple[str, ...]) -> str:
    quoted = [f'"{key}"' for key in keys]
    return ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {json.dumps(value, ensure_ascii=False)}"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _json_problem(message: str) -> str:
    """The json module's wording, as a clause: "Unterminated string starting at" (the
    position follows in its own message) -> "unterminated string starting here"."""
    if message.endswith(" at"):
        message = message[: -len(" at")] + " here"
    return message[:1].lower() + message[1:]


# Strings (escapes included) and the characters that give JSON its structure.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],]')
_VALUE_START = re.compile(r"[^\s\]]")


def _structure(text: str) -> Iterator[tuple[int, str, int]]:
    """(offset, token, depth before it) of every string and `{ } [ ] ,` of valid JSON (the
    parser ran first); depth counts open brackets."""
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "}]":
            depth -= 1
            yield match.start(), token, depth
        else:
            yield match.start(), token, depth
            if token in "{[":
                depth += 1


def _entry_line(text: str, number: int) -> int | None:
    """The line element `number` of the top-level object's array starts on. Called once the
    top level holds only "schema" (a string) and "entries", so that array is "entries"."""
    found = -1
    for offset, token, depth in _structure(text):
        if (token == "[" and depth == 1) or (token == "," and depth == 2):
            found += 1
            if found == number:
                start = _VALUE_START.search(text, offset + 1)
                return None if start is None else text.count("\n", 0, start.start()) + 1
    return None


def _line_of_key(text: str, name: str) -> int | None:
    """The line of the top-level object's key `name` (its first occurrence)."""
    as_key = re.compile(re.escape(json.dumps(name)) + r"\s*:")
    for offset, token, depth in _structure(text):
        if token[0] == '"' and depth == 1 and as_key.match(text, offset):
            return text.count("\n", 0, offset) + 1
    return None
