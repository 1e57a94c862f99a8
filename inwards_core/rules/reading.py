"""Reading one rule-definition document into a `RuleDefinition` (or the first problem).

Every check names the key it is about; the first problem found is the one reported, with
the line of its key (looked up only then: positions cost a scan of the text).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import tomllib
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

import attrs

from inwards_core.config.nesting import TomlTooDeepError, load_toml
from inwards_core.config.positions import TomlPositions
from inwards_core.config.problems import closest
from inwards_core.model.findings import Origin, Severity
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import RuleDocument
from inwards_core.rules.definitions import (
    CODE_PATTERN,
    DEFINITION_KEYS,
    GUIDANCE_KEYS,
    NAME_PATTERN,
    SHADOW_KEYS,
    VARIANT_KEYS,
    DefinitionProblem,
    Guidance,
    GuidanceVariant,
    RuleDefinition,
    ShadowBase,
    code_of_path,
)
from inwards_core.rules.kinds import CheckKind, Family
from inwards_core.rules.options import OptionsError, parse_options
from inwards_core.rules.scaffold import text_placeholders
from inwards_core.rules.templates import template_problem

# Keys whose lines a definition keeps for messages about it after parsing (check,
# severity and default: a collision with a user definition, `rules/collisions.py`).
_LINE_KEYS = ("code", "name", "always-on", "check", "severity", "default")


class _Invalid(Exception):
    """The first problem of a definition: its key (empty for the whole file) and why."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(key, message)
        self.key = key
        self.message = message


def _toml_value(value: Any) -> Any:
    """Dates and times, the TOML values JSON has no form for, as tagged ISO text."""
    if isinstance(value, datetime.date | datetime.time):
        return {"\0toml": [type(value).__name__, value.isoformat()]}
    raise TypeError(f"{type(value).__name__} is not a TOML value")


def table_digest(table: Mapping[str, Any]) -> str:
    """sha256 of a parsed TOML table in a canonical form (keys sorted, 1, 1.0 and true
    distinct, NaN as NaN). Raises RecursionError for a table nested deeper than a TOML
    parser goes."""
    canonical = json.dumps(
        table, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=_toml_value
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


@attrs.frozen
class ReadTable:
    """One definition document read as far as its TOML table: the first stage of reading
    (`read_table`), before the table is judged as a definition (`build_definition`)."""

    __repr__ = value_repr

    document: RuleDocument
    text: str
    table: dict[str, Any] = attrs.field(eq=False, repr=False)
    sha256: str  # of the bytes
    table_sha256: str  # of the parsed table (`table_digest`)

    @property
    def is_overlay(self) -> bool:
        """A file that changes some fields of the definition below it (`overlays = "CODE"`
        or an `[overlay]` table) rather than defining the whole rule."""
        return "overlays" in self.table or "overlay" in self.table

    @property
    def origin(self) -> Origin:
        return Origin(self.document.root, self.document.path, self.sha256)


def parse_definition(
    document: RuleDocument,
    kinds: Mapping[str, tuple[Family, CheckKind]],
    parsed_tables: MutableMapping[str, Any] | None = None,
) -> RuleDefinition | DefinitionProblem:
    """Read one whole definition document (`read_table`, then `build_definition`). The file
    name (`<CODE>.toml`) is its identity. `parsed_tables`: see `read_table`."""
    read = read_table(document, parsed_tables)
    if isinstance(read, DefinitionProblem):
        return read
    return build_definition(read, kinds)


def read_table(
    document: RuleDocument, parsed_tables: MutableMapping[str, Any] | None = None
) -> ReadTable | DefinitionProblem:
    """Bytes to UTF-8 text to a TOML table to its digest, or the problem that stops it.

    `parsed_tables` maps the sha256 of a document's bytes to its parsed TOML table: a
    cache a caller may keep between runs (parsing TOML is most of the cost of resolving);
    tables parsed here are added to it."""
    path = document.path
    sha256 = hashlib.sha256(document.data).hexdigest()
    try:
        text = document.data.decode("utf-8")
    except UnicodeDecodeError as error:
        return DefinitionProblem(document.root, path, None, "", f"is not UTF-8 text ({error}).")
    known = None if parsed_tables is None else parsed_tables.get(sha256)
    if isinstance(known, dict):
        data = known
    else:
        parsed = _parsed_table(document, text)
        if isinstance(parsed, DefinitionProblem):
            return parsed
        data = parsed
        if parsed_tables is not None:
            parsed_tables[sha256] = data
    try:
        table_sha256 = table_digest(data)
    except RecursionError:
        if data is known and parsed_tables is not None:
            del parsed_tables[sha256]  # a forged cached table: read the bytes instead
            return read_table(document, parsed_tables)
        return _problem(document, text, "", "nests tables or arrays too deeply.")
    return ReadTable(document, text, data, sha256, table_sha256)


def build_definition(
    read: ReadTable, kinds: Mapping[str, tuple[Family, CheckKind]]
) -> RuleDefinition | DefinitionProblem:
    """Judge a read table as a whole definition: the definition, or its first problem
    (checked in the order of the keys), located in the file."""
    try:
        return _definition(read.table, read.document, kinds, read)
    except _Invalid as invalid:
        return _problem(read.document, read.text, invalid.key, invalid.message, read.table)


def check_definition(
    table: Mapping[str, Any], read: ReadTable, kinds: Mapping[str, tuple[Family, CheckKind]]
) -> RuleDefinition | tuple[str, str]:
    """The definition `table` makes as `read`'s file (an overlay's merged table), or the
    key and message of its first problem, for the caller to locate."""
    try:
        return _definition(table, read.document, kinds, read)
    except _Invalid as invalid:
        return invalid.key, invalid.message


def _parsed_table(document: RuleDocument, text: str) -> dict[str, Any] | DefinitionProblem:
    try:
        return load_toml(text)
    except TomlTooDeepError as error:
        return DefinitionProblem(document.root, document.path, None, "", f"{error}.")
    except tomllib.TOMLDecodeError as error:
        line_match = re.search(r"line (\d+)", str(error))
        column_match = re.search(r"column (\d+)", str(error))
        return DefinitionProblem(
            document.root,
            document.path,
            int(line_match.group(1)) if line_match else None,
            "",
            f"is not valid TOML: {error}.",
            int(column_match.group(1)) if line_match and column_match else None,
        )


def _problem(
    document: RuleDocument,
    text: str,
    key: str,
    message: str,
    table: Mapping[str, Any] | None = None,
) -> DefinitionProblem:
    # Key positions are only needed for a message, so the text is scanned only then.
    where = TomlPositions(text).locate(key) if key else None
    line, column = where if where else (None, None)
    code = (_written_code(table) if table is not None else None) or code_of_path(document.path)
    return DefinitionProblem(document.root, document.path, line, key, message, column, code)


def _written_code(table: Mapping[str, Any]) -> str | None:
    """The rule code a table says it defines (or overlays), when it is one."""
    for key in ("code", "overlays"):
        value = table.get(key)
        if isinstance(value, str) and CODE_PATTERN.match(value.upper()):
            return value.upper()
    return None


def _definition(
    data: Mapping[str, Any],
    document: RuleDocument,
    kinds: Mapping[str, tuple[Family, CheckKind]],
    read: ReadTable,
) -> RuleDefinition:
    """The definition `data` holds, or `_Invalid` for its first problem (checked in the
    order of the keys)."""
    _only_known(data, DEFINITION_KEYS, "", "a definition key")
    code, name, check = _identity(data, document.path, kinds)
    default = _one_of(data, "default", ("on", "opt-in"), "on")
    severity = _one_of(data, "severity", ("error", "warning"), "error")
    suppressible = _flag(data, "suppressible", default=True)
    always_on = _flag(data, "always-on", default=False)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _Invalid("description", "must be a string.")
    family, kind = kinds[check]
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _Invalid("options", "must be a table.")
    try:
        parsed_options = parse_options(kind.options_type, options, "options")
    except OptionsError as error:
        raise _Invalid(error.key, error.message) from None
    return RuleDefinition(
        code=code,
        name=name,
        summary=data.get("summary", kind.summary),
        check=check,
        default=default,
        severity=Severity(severity),
        suppressible=suppressible,
        options=options,
        guidance=_guidance(data.get("guidance", {}), kind),
        origin=Origin(document.root, document.path, read.sha256),
        description=description,
        family=document.family or family.distribution,
        family_version=document.family_version or family.version,
        shadow=_shadow(data.get("shadow")),
        key_lines=_top_level_lines(read.text, _LINE_KEYS),
        parsed_options=parsed_options,
        table_sha256=read.table_sha256,
        always_on=always_on,
        table=data,
        placeholders=text_placeholders(data, read.text),
    )


def _only_known(table: Mapping[str, Any], keys: Sequence[str], prefix: str, what: str) -> None:
    for key in table:
        if key not in keys:
            raise _Invalid(f"{prefix}{key}", f"is not {what}. Known keys: {', '.join(keys)}.")


def _identity(
    data: Mapping[str, Any], path: str, kinds: Mapping[str, tuple[Family, CheckKind]]
) -> tuple[str, str, str]:
    """Code (which must agree with the file name), name and check kind."""
    stem = path.rsplit("/", 1)[-1]
    stem = stem[: -len(".toml")] if stem.endswith(".toml") else stem
    for required in ("code", "name", "summary", "check"):
        if required not in data:
            if required == "summary":  # optional: the kind's summary stands in
                continue
            raise _Invalid("", f"has no `{required}`.")
        if not isinstance(data[required], str) or not data[required].strip():
            raise _Invalid(required, "must be a non-empty string.")
    code = data["code"].upper()
    if not CODE_PATTERN.match(code):
        raise _Invalid(
            "code", f'"{data["code"]}" is not a rule code (2-6 capital letters and 3 digits).'
        )
    if code != stem.upper():
        raise _Invalid("code", f'is "{code}" but the file is named {stem}.toml; they must agree.')
    name = data["name"]
    if not NAME_PATTERN.match(name):
        raise _Invalid("name", f'"{name}" must be kebab-case (lower-case words joined by "-").')
    check = data["check"]
    if check not in kinds:
        known = ", ".join(sorted(kinds))
        close = closest(check, tuple(sorted(kinds)))
        hint = f' Did you mean "{close}"?' if close else ""
        raise _Invalid(
            "check",
            f'"{check}" is not a check kind of any installed family.{hint} Known kinds: {known}.',
        )
    return code, name, check


def _one_of(data: Mapping[str, Any], key: str, values: tuple[str, str], default: str) -> str:
    value = data.get(key, default)
    if value not in values:
        raise _Invalid(key, f'must be "{values[0]}" or "{values[1]}".')
    return str(value)


def _flag(data: Mapping[str, Any], key: str, *, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _Invalid(key, "must be true or false.")
    return value


def _guidance(table: Any, kind: CheckKind) -> Guidance:
    """`[guidance]`: its templates may use only the fields the kind fills."""
    if not isinstance(table, dict):
        raise _Invalid("guidance", "must be a table.")
    _only_known(table, GUIDANCE_KEYS, "guidance.", "a guidance key")
    summary = table.get("summary", "")
    docs = table.get("docs", "")
    steps = _string_list(table.get("steps", []))
    if not isinstance(summary, str):
        raise _Invalid("guidance.summary", "must be a string.")
    if not isinstance(docs, str):
        raise _Invalid("guidance.docs", "must be a string.")
    if steps is None:
        raise _Invalid("guidance.steps", "must be a list of strings.")
    names = kind.guidance_names()
    _check_templates("guidance", summary, steps, names, kind.id)
    variants = _variants(table.get("variants", {}), names, kind.id)
    return Guidance(summary, steps, docs, variants)


def _variants(table: Any, names: frozenset[str], kind_id: str) -> dict[str, GuidanceVariant]:
    """`[guidance.variants.<name>]`: a summary, steps or both for one variant of the findings
    (which variants there are is the kind's to say, in `Violation.variant`)."""
    if not isinstance(table, dict):
        raise _Invalid("guidance.variants", "must be a table.")
    variants: dict[str, GuidanceVariant] = {}
    for variant, body in table.items():
        key = f"guidance.variants.{variant}"
        if not NAME_PATTERN.match(variant):
            raise _Invalid(
                key, 'a variant\'s name must be kebab-case (lower-case words joined by "-").'
            )
        if not isinstance(body, dict):
            raise _Invalid(key, "must be a table.")
        _only_known(body, VARIANT_KEYS, f"{key}.", "a variant key")
        summary = body.get("summary")
        steps = _string_list(body["steps"]) if "steps" in body else ()
        if summary is not None and not isinstance(summary, str):
            raise _Invalid(f"{key}.summary", "must be a string.")
        if steps is None:
            raise _Invalid(f"{key}.steps", "must be a list of strings.")
        _check_templates(key, summary or "", steps, names, kind_id)
        variants[variant] = GuidanceVariant(summary, steps if "steps" in body else None)
    return variants


def _check_templates(
    key: str, summary: str, steps: Sequence[str], names: frozenset[str], kind_id: str
) -> None:
    templates = [(f"{key}.summary", summary)]
    templates += [(f"{key}.steps[{index}]", step) for index, step in enumerate(steps)]
    for where, template in templates:
        why = template_problem(template, names, kind_id)
        if why is not None:
            raise _Invalid(where, why)


def _string_list(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _shadow(table: Any) -> ShadowBase | None:
    """`[shadow]`, which `inwards rules shadow` writes: the base the file was copied from."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise _Invalid("shadow", "must be a table.")
    _only_known(table, SHADOW_KEYS, "shadow.", "a shadow key")
    for key in SHADOW_KEYS:
        if not isinstance(table.get(key, ""), str):
            raise _Invalid(f"shadow.{key}", "must be a string.")
    if not table.get("sha256"):
        raise _Invalid("shadow", "has no `sha256`: the base a shadow was copied from.")
    return ShadowBase(
        root=table.get("root", ""),
        distribution=table.get("distribution", ""),
        version=table.get("version", ""),
        sha256=table["sha256"],
        path=table.get("path", ""),
    )


def _top_level_lines(text: str, keys: Sequence[str]) -> dict[str, int]:
    """The line of each `key = ...` before the first table header (cheap: no TOML scan)."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        if stripped.startswith("["):
            break
        name = stripped.partition("=")[0].strip().strip('"')
        if name in keys and name not in found:
            found[name] = number
    return found
