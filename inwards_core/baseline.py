"""The baseline: the error findings a project accepts today, so that inwards can be adopted
on a codebase that already breaks its layers while every new violation still fails.

A baseline is a versioned JSON document (`inwards/baseline@1`). Each entry keys a kind of
finding without its position: rule code, module (the file, for findings outside any
module), and the finding's stable message, which leaves out what changes when unrelated
configuration changes. Each entry accepts `count` findings: moving an import to another
line keeps it accepted, a second copy of it is one more than the baseline accepts.

Only error findings are baselined. Warnings never fail a check, so accepting them would
only hide them; inline-suppressed findings are not findings of the report at all.

Pure: bytes in, bytes out; the CLI reads and writes the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from inwards_core.model.findings import BaselineEntry, Finding, Report, Severity

SCHEMA = "inwards/baseline@1"
BASELINE_FILE_NAME = "inwards-baseline.json"
# Far above any real baseline (1,000 accepted findings take about 200 KB); a bigger file
# is refused before it is read, so a sparse one claiming terabytes costs nothing.
MAX_BASELINE_BYTES = 64 * 1024 * 1024

_TOP_KEYS = ("schema", "entries")
_ENTRY_KEYS = ("code", "module", "message", "count")

Key = tuple[str, str, str]


@attrs.frozen
class Baseline:
    """The accepted findings: entries sorted by (code, module, message), one per key."""

    entries: tuple[BaselineEntry, ...] = ()

    @property
    def accepted(self) -> int:
        """How many findings the baseline accepts in all."""
        return sum(entry.count for entry in self.entries)


class BaselineError(Exception):
    """A baseline that can't be used: it doesn't parse, isn't an inwards baseline of this
    version, or holds something the schema doesn't allow. `file` is the name to show."""

    def __init__(
        self,
        file: str,
        reason: str,
        *,
        line: int | None = None,
        column: int | None = None,
        key: str = "",
    ) -> None:
        self.file = file
        self.reason = reason
        self.line = line
        self.column = column
        self.key = key
        super().__init__(self.render())

    def render(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}" if self.column is None else f":{self.line}:{self.column}"
        return f"{where}: {self.key}: {self.reason}" if self.key else f"{where}: {self.reason}"


def finding_key(finding: Finding) -> Key:
    """What a baseline entry matches: no line or column, so moving code keeps it accepted."""
    module = finding.module if finding.module else finding.file
    return (finding.code, module, finding.stable_message or finding.message)


def _entry_key(entry: BaselineEntry) -> Key:
    return (entry.code, entry.module, entry.message)


def build_baseline(findings: Iterable[Finding]) -> Baseline:
    """The baseline accepting every error among `findings` (warnings are left out)."""
    counts: dict[Key, int] = {}
    for finding in findings:
        if finding.severity is Severity.ERROR:
            key = finding_key(finding)
            counts[key] = counts.get(key, 0) + 1
    return Baseline(
        tuple(BaselineEntry(*key, count=counts[key]) for key in sorted(counts)),
    )


def baseline_of_report(report: Report) -> Baseline:
    """Today's error findings of `report`, including any an older baseline accepted."""
    return build_baseline((*report.findings, *report.baselined))


def serialise_baseline(baseline: Baseline) -> bytes:
    """Byte-stable JSON: entries sorted, one per line (so a review diff shows one line per
    accepted kind of finding), UTF-8, a trailing newline."""
    entries = sorted(baseline.entries, key=_entry_key)
    lines = ["{", f'  "schema": {json.dumps(SCHEMA)},']
    if not entries:
        lines.append('  "entries": []')
    else:
        lines.append('  "entries": [')
        for number, entry in enumerate(entries):
            item = {
                "code": entry.code,
                "module": entry.module,
                "message": entry.message,
                "count": entry.count,
            }
            comma = "," if number < len(entries) - 1 else ""
            lines.append("    " + json.dumps(item, ensure_ascii=False) + comma)
        lines.append("  ]")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")


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
    try:
        document = json.loads(
            text, object_pairs_hook=_no_repeated_keys, parse_constant=_no_constants
        )
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
    _no_unknown_keys(document, _TOP_KEYS, file, "", text)
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
    seen: dict[Key, int] = {}
    entries: list[BaselineEntry] = []
    for number, raw in enumerate(raw_entries):
        try:
            entry = _parse_entry(raw, file, f"entries[{number}]")
            key = _entry_key(entry)
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
    return Baseline(tuple(sorted(entries, key=_entry_key)))


def _parse_entry(raw: Any, file: str, key: str) -> BaselineEntry:
    if not isinstance(raw, dict):
        raise BaselineError(
            file,
            f"must be an object with {_known(_ENTRY_KEYS)}, not {_json_type(raw)}.",
            key=key,
        )
    for name in _ENTRY_KEYS:
        if name not in raw:
            raise BaselineError(file, f'"{name}" is missing.', key=key)
    unknown = sorted(set(raw) - set(_ENTRY_KEYS))
    if unknown:
        raise BaselineError(
            file,
            f'unknown key "{unknown[0]}" (an entry has {_known(_ENTRY_KEYS)}).',
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


def apply_baseline(report: Report, baseline: Baseline, *, file: str) -> Report:
    """Move the findings `baseline` accepts from `findings` to `baselined`: per key, the
    first `count` error findings in report order (a second copy of an accepted import is
    one too many, and stays a finding). On a whole-project run, entries that matched fewer
    findings than they accept go to `baseline_resolved`, each with the number no longer
    found as its count; a run over named paths can't tell a fixed finding from one in a
    file it did not read, so it resolves nothing. `file` names the baseline in reports."""
    remaining = {_entry_key(entry): entry.count for entry in baseline.entries}
    kept: list[Finding] = []
    accepted: list[Finding] = []
    for finding in report.findings:
        if finding.severity is Severity.ERROR:
            key = finding_key(finding)
            if remaining.get(key, 0) > 0:
                remaining[key] -= 1
                accepted.append(finding)
                continue
        kept.append(finding)
    resolved: tuple[BaselineEntry, ...] = ()
    if report.whole_project:
        resolved = tuple(
            attrs.evolve(entry, count=remaining[_entry_key(entry)])
            for entry in sorted(baseline.entries, key=_entry_key)
            if remaining[_entry_key(entry)] > 0
        )
    return attrs.evolve(
        report,
        findings=tuple(kept),
        baselined=tuple(accepted),
        baseline_resolved=resolved,
        baseline_file=file,
    )


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the document `serialise_baseline` writes and
    `parse_baseline` reads."""
    text = {"type": "string", "minLength": 1, "pattern": r"\S"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "inwards baseline",
        "description": "The error findings a project accepts (inwards-baseline.json), keyed "
        "without line numbers; written by `inwards baseline`, read by `inwards check`.",
        "type": "object",
        "required": list(_TOP_KEYS),
        "additionalProperties": False,
        "properties": {
            "schema": {"const": SCHEMA},
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": list(_ENTRY_KEYS),
                    "additionalProperties": False,
                    "properties": {
                        "code": {**text, "description": "The rule code, e.g. INW001."},
                        "module": {
                            **text,
                            "description": "The dotted module the finding is in, or its "
                            "project-relative POSIX file when it is in no module.",
                        },
                        "message": {
                            **text,
                            "description": "The stable form of the finding's message.",
                        },
                        "count": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "How many such findings are accepted.",
                        },
                    },
                },
            },
        },
    }


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
