"""Field-level overlays: a definition file that gives only the fields it changes of the
definition below it (`overlays = "CODE"` or an `[overlay]` table), merged into it.

Inside one overlay, in this order: `unset` removes fields (dotted paths); tables merge key
by key, recursively; scalars and arrays are replaced; `extend-<key>` appends to the array
`<key>` at the same level, unless `extend-<key>` is itself a key known there (INW014's
option `extend-allow-bases`: appending to it is `extend-extend-allow-bases`). Every field
of the merged table keeps who set it (`FieldOrigin`), so an error of the merged definition
is reported in the file, line and key that wrote the field. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from inwards_core.config.problems import closest
from inwards_core.model.findings import Origin
from inwards_core.model.quoting import quoted
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.definitions import (
    DEFINITION_KEYS,
    GUIDANCE_KEYS,
    NAME_PATTERN,
    OVERLAY_FORBIDDEN_KEYS,
    OVERLAY_ONLY_KEYS,
    OVERLAY_TABLE_KEYS,
    VARIANT_KEYS,
    FieldOrigin,
    OverlayBase,
    RuleDefinition,
    code_of_path,
)
from inwards_core.rules.kinds import CheckKind
from inwards_core.rules.options import known_options
from inwards_core.rules.reading import ReadTable

EXTEND = "extend-"
# Fields every definition has: an overlay may repeat them, not remove them.
_REQUIRED = ("code", "name", "check")
_BASE_KEYS = ("root", "distribution", "version", "path", "sha256")

Fields = dict[str, tuple[FieldOrigin, ...]]


class OverlayError(Exception):
    """What makes an overlay unusable: the key as written in the overlay file (dotted;
    empty for the whole file) and why."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(key, message)
        self.key = key
        self.message = message


@attrs.frozen
class Merged:
    """A merged definition table and who set each of its fields (dotted key, lowest
    first). `chain`: the origins that made it, lowest first."""

    __repr__ = value_repr

    table: dict[str, Any]
    fields: Fields
    chain: tuple[Origin, ...]


def starting_point(definition: RuleDefinition) -> Merged:
    """What an overlay over `definition` merges into: an overlay's merged table as it is,
    or a whole file's table (less its `[shadow]`, which is the file's own) with each field
    set by that file."""
    if definition.overlay is not None:
        fields = dict(definition.overlay.fields)
        return Merged(dict(definition.table), fields, definition.overlay.chain)
    table = {k: v for k, v in definition.table.items() if k != "shadow"}
    origin = definition.origin
    fields = {key: (FieldOrigin(key, origin, "base"),) for key, _value in leaves("", table)}
    return Merged(table, fields, (origin,))


def leaves(prefix: str, value: Any) -> list[tuple[str, Any]]:
    """The dotted fields a value written at `prefix` sets: each field of a (non-empty)
    table, recursively; anything else, arrays included, is one field."""
    if isinstance(value, Mapping) and (value or not prefix):
        return [leaf for k, v in value.items() for leaf in leaves(f"{prefix}{k}.", v)]
    return [(prefix.removesuffix("."), value)]


def is_overlay(table: Mapping[str, Any]) -> bool:
    return "overlays" in table or "overlay" in table


def check_shape(read: ReadTable) -> None:
    """The keys an overlay may hold, `overlays` naming the file's rule, `[overlay]` and
    `unset` well formed; raises `OverlayError`."""
    table, code = read.table, code_of_path(read.document.path)
    for key in table:
        if key == "check":
            raise OverlayError(
                key,
                "an overlay can't change the check kind (its options would no longer fit); "
                f"write a whole-file shadow instead: `inwards rules shadow {code}`.",
            )
        if key == "shadow":
            raise OverlayError(
                key, "an overlay records its base in [overlay], not [shadow] (a whole-file key)."
            )
        if key not in DEFINITION_KEYS and key not in OVERLAY_ONLY_KEYS:
            known = [
                k for k in (*DEFINITION_KEYS, *OVERLAY_ONLY_KEYS) if k not in OVERLAY_FORBIDDEN_KEYS
            ]
            raise OverlayError(key, f"is not a key of an overlay. Known keys: {', '.join(known)}.")
    for key in ("overlays", "overlay.code"):
        named = _get(table, key)
        if named is None:
            continue
        if not isinstance(named, str) or named.upper() != code:
            raise OverlayError(
                key,
                f'is "{named}" but the file is {code}.toml: an overlay changes the rule it is '
                "named after (to derive a new rule, write a whole definition).",
            )
    if "overlay" in table:
        recorded_base(table["overlay"])
    unset = table.get("unset", [])
    if not isinstance(unset, list) or not all(isinstance(u, str) for u in unset):
        raise OverlayError("unset", 'must be a list of dotted field paths ("guidance.steps").')


def _get(table: Mapping[str, Any], dotted: str) -> Any:
    value: Any = table
    for part in dotted.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def recorded_base(overlay: Any) -> OverlayBase:
    """`[overlay]` as an `OverlayBase`; raises `OverlayError`."""
    if not isinstance(overlay, dict):
        raise OverlayError("overlay", "must be a table.")
    for key in overlay:
        if key not in OVERLAY_TABLE_KEYS:
            raise OverlayError(
                f"overlay.{key}",
                f"is not an [overlay] key. Known keys: {', '.join(OVERLAY_TABLE_KEYS)}.",
            )
    for key in ("code", *_BASE_KEYS):
        if not isinstance(overlay.get(key, ""), str):
            raise OverlayError(f"overlay.{key}", "must be a string.")
    was = overlay.get("was", {})
    if not isinstance(was, dict):
        raise OverlayError("overlay.was", "must be a table of the base's values.")
    absent = overlay.get("was-absent", [])
    if not isinstance(absent, list) or not all(isinstance(a, str) for a in absent):
        raise OverlayError("overlay.was-absent", "must be a list of dotted field paths.")
    values = {key: overlay.get(key, "") for key in ("code", *_BASE_KEYS)}
    return OverlayBase(**values, was=was, was_absent=tuple(absent))


def merge_overlay(
    base: Merged,
    read: ReadTable,
    kind: CheckKind,
    *,
    guidance_only: bool = False,
) -> Merged:
    """`read`'s overlay merged into `base` (unset, then tables key by key, arrays and
    scalars replaced, `extend-` appended); raises `OverlayError` with the key as written
    in the overlay. `guidance_only`: only `[guidance]` and `unset` entries under it count
    (a user overlay under `user-rules = "guidance-only"`)."""
    body = {k: v for k, v in read.table.items() if k not in OVERLAY_ONLY_KEYS}
    unset: list[str] = list(read.table.get("unset", []))
    if guidance_only:
        body = {k: v for k, v in body.items() if k == "guidance"}
        unset = [u for u in unset if u == "guidance" or u.startswith("guidance.")]
    origin = read.origin
    options = known_options(kind.options_type)
    table = dict(base.table)  # copied on write, level by level: the base stays as it is
    fields = dict(base.fields)
    written = set().union(*touched_fields(body, table, options))
    for path in unset:
        _check_unset(path, options, written)
        _unset(table, fields, path, origin)
    _merge_table(table, body, "", _Level(options, fields, origin))
    return Merged(table, fields, (*base.chain, origin))


def touched_fields(
    body: Mapping[str, Any], below: Mapping[str, Any], options: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The dotted fields an overlay body sets (not the tables holding them) and those its
    `extend-` keys append to, `below` being the table it merges into."""
    written: list[str] = []
    extended: list[str] = []

    def walk(table: Mapping[str, Any], under: Any, prefix: str) -> None:
        known = _known_at(prefix, options)
        for key, value in table.items():
            inner = under.get(key) if isinstance(under, Mapping) else None
            if _appends(key, known, under):
                extended.append(f"{prefix}{key[len(EXTEND) :]}")
            elif isinstance(value, dict) and value and not _scalar(inner):
                walk(value, inner, f"{prefix}{key}.")
            else:
                written.append(f"{prefix}{key}")

    walk(body, below, "")
    return tuple(written), tuple(extended)


def _scalar(value: Any) -> bool:
    return value is not None and not isinstance(value, dict)


def _known_at(prefix: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """The keys the definition schema knows at one table level (`prefix` ends with ".")."""
    if prefix == "":
        return DEFINITION_KEYS
    if prefix == "options.":
        return options
    if prefix == "guidance.":
        return GUIDANCE_KEYS
    parts = prefix.split(".")
    if len(parts) == 4 and parts[:2] == ["guidance", "variants"]:
        return VARIANT_KEYS
    return ()


def _appends(key: str, known: tuple[str, ...], below: Any) -> bool:
    """`extend-X` appends to X unless `extend-X` is itself a key known at that level (of
    the schema, or of the table below): the literal-first rule."""
    if not key.startswith(EXTEND) or len(key) == len(EXTEND) or key in known:
        return False
    return not (isinstance(below, Mapping) and key in below)


def _check_unset(path: str, options: tuple[str, ...], written: set[str]) -> None:
    parts = path.split(".")
    shown = quoted(path)  # a path of any length is quoted as every message quotes text
    if not path or not all(parts):
        raise OverlayError("unset", f'"{shown}" is not a dotted field path ("guidance.steps").')
    if parts[0] in _REQUIRED and len(parts) == 1:
        raise OverlayError(
            "unset", f'"{shown}" can\'t be unset: every definition has a `{parts[0]}`.'
        )
    if not _known_path(parts, options):
        hint = closest(path, _known_paths(options))
        suggestion = f' Did you mean "{hint}"?' if hint else ""
        raise OverlayError(
            "unset", f'"{shown}" is not a field of this rule\'s definition.{suggestion}'
        )
    if path in written:
        raise OverlayError(
            "unset",
            f'"{shown}" is unset and set at once; to replace a table wholesale unset it and '
            "set the fields inside it.",
        )


def _known_path(parts: Sequence[str], options: tuple[str, ...]) -> bool:
    head, rest = parts[0], parts[1:]
    if head not in DEFINITION_KEYS or head in OVERLAY_FORBIDDEN_KEYS:
        return False
    if head == "options":
        return not rest or rest[0] in options
    if head != "guidance":
        return not rest
    if not rest:
        return True
    if rest[0] != "variants":
        return rest[0] in GUIDANCE_KEYS and len(rest) == 1
    if len(rest) == 1:
        return True
    return bool(NAME_PATTERN.match(rest[1])) and (
        len(rest) == 2 or rest[2:] in (["summary"], ["steps"])
    )


def _known_paths(options: tuple[str, ...]) -> tuple[str, ...]:
    top = [k for k in DEFINITION_KEYS if k not in (*_REQUIRED, "shadow")]
    return (
        *top,
        *(f"options.{o}" for o in options),
        *(f"guidance.{g}" for g in GUIDANCE_KEYS),
    )


def _unset(table: dict[str, Any], fields: Fields, path: str, origin: Origin) -> None:
    *parents, last = path.split(".")
    node: Any = table
    for part in parents:
        inner = node.get(part) if isinstance(node, dict) else None
        if not isinstance(inner, dict):
            node = None
            break
        node[part] = node = dict(inner)
    if isinstance(node, dict):
        node.pop(last, None)
    history = fields.get(path, ())
    _drop(fields, path)
    fields[path] = (*history, FieldOrigin(path, origin, "unset"))


def _drop(fields: Fields, path: str) -> None:
    """Forget who set `path` and every field inside it (it is replaced or removed)."""
    for key in [k for k in fields if k == path or k.startswith(path + ".")]:
        del fields[key]


@attrs.frozen
class _Level:
    options: tuple[str, ...]
    fields: Fields
    origin: Origin


def _merge_table(into: dict[str, Any], overlay: Mapping[str, Any], prefix: str, at: _Level) -> None:
    known = _known_at(prefix, at.options)
    for key, value in overlay.items():
        here = f"{prefix}{key}"
        if _appends(key, known, into):
            _extend(into, overlay, key, prefix, at)
        elif isinstance(value, dict) and value and not _scalar(into.get(key)):
            child = into[key] = dict(into.get(key) or {})
            _merge_table(child, value, f"{here}.", at)
        else:
            into[key] = value  # tables are never changed in place: sharing is safe
            history = at.fields.get(here, ())
            _drop(at.fields, here)
            for leaf, _value in leaves(f"{here}.", value):
                at.fields[leaf] = (
                    *(history if leaf == here else ()),
                    FieldOrigin(leaf, at.origin, "set"),
                )


def _extend(
    into: dict[str, Any], overlay: Mapping[str, Any], key: str, prefix: str, at: _Level
) -> None:
    target = key[len(EXTEND) :]
    here, value = f"{prefix}{target}", overlay[key]
    if target in overlay:
        raise OverlayError(
            f"{prefix}{key}",
            f"appends to {target}, which this overlay also sets: keep one of the two.",
        )
    below = into.get(target, [])
    if not isinstance(below, list):
        raise OverlayError(
            f"{prefix}{key}", f"appends to {here}, which is not an array in the definition below."
        )
    if not isinstance(value, list):
        raise OverlayError(f"{prefix}{key}", f"must be an array: it appends to {here}.")
    into[target] = [*below, *value]
    history = at.fields.get(here, ())
    at.fields[here] = (*history, FieldOrigin(here, at.origin, "extend", len(below)))
