"""Overlay conflicts: an upstream change to a field an overlay sets or unsets.

An overlay inherits every change of the definition below it to the fields it leaves alone:
that is the point of it. A field it sets or unsets is another matter: when the definition
below has changed since the overlay was written (`[overlay] sha256`, the `table_digest` of
the merged table below then) and that field's value then (`[overlay.was]`, or listed in
`was-absent`) is not its value now, the overlay's value may no longer be what its authors
want. Each such field is one `OverlayConflict`, shown as the upstream old value, the
upstream new value and the overlay's own. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from inwards_core.config.positions import TomlPositions
from inwards_core.model.findings import RootKind
from inwards_core.model.quoting import quoted
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.definitions import RuleDefinition

CONFLICT_KINDS = (
    "overridden-changed",
    "overridden-removed",
    "overridden-added",
    "unset-changed",
    "unset-removed",
    "base-changed-unknown",
)


@attrs.frozen
class OverlayConflict:
    """One field an overlay sets or unsets that upstream changed since the overlay was
    written: `was` its value below then, `now` its value below now, `ours` the overlay's
    (None: absent, or unset by the overlay). `kind` is one of `CONFLICT_KINDS`."""

    __repr__ = value_repr

    code: str
    root: RootKind
    path: str
    line: int | None
    key: str
    kind: str
    was: Any
    now: Any
    ours: Any
    message: str

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


_ABSENT = object()


def shown_value(value: Any) -> str:
    """A value of a definition as a message quotes it (JSON-like, bounded)."""
    if value is _ABSENT or value is None:
        return "(absent)"
    return quoted(json.dumps(value, ensure_ascii=False, sort_keys=True, default=str))


def lookup(table: Mapping[str, Any], key: str) -> Any:
    """The value at dotted `key` of `table`, `_ABSENT` when it has none; `[overlay.was]`
    may hold the key itself quoted (`"options.forbidden" = ...`) or nested tables."""
    if key in table:
        return table[key]
    value: Any = table
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return _ABSENT
        value = value[part]
    return value


def overlay_conflicts(
    definition: RuleDefinition, text: str, written: Sequence[str], unset: Sequence[str]
) -> tuple[OverlayConflict, ...]:
    """The conflicts of one overlay's `definition` (its `overlay` info filled), `text` the
    overlay file's, `written` the fields it sets and `unset` those it unsets (`extend-`
    keys are neither: an upstream change to an extended array is inherited)."""
    info = definition.overlay
    base = None if info is None else info.base
    if info is None or base is None or not base.sha256 or base.sha256 == info.below_sha256:
        return ()
    found: list[OverlayConflict] = []
    unknown: list[str] = []
    positions = TomlPositions(text)

    def add(
        key: str, written_at: str, kind: str, was: Any, now: Any, ours: Any, message: str
    ) -> None:
        where = positions.locate(written_at)
        found.append(
            OverlayConflict(
                definition.code,
                definition.origin.root,
                definition.origin.path,
                where[0] if where else None,
                key,
                kind,
                None if was is _ABSENT else was,
                None if now is _ABSENT else now,
                None if ours is _ABSENT else ours,
                f"{definition.code} overlay conflict at {key}: {message}",
            )
        )

    for key, is_unset in [(k, False) for k in written] + [(k, True) for k in unset]:
        if key not in base.was and lookup(base.was, key) is _ABSENT and key not in base.was_absent:
            unknown.append(key)
            continue
        was = _ABSENT if key in base.was_absent else lookup(base.was, key)
        now = lookup(info.below, key)
        if was == now or (was is _ABSENT and now is _ABSENT):
            continue
        ours = _ABSENT if is_unset else lookup(definition.table, key)
        kind, message = _describe(is_unset, was, now, ours)
        add(key, "unset" if is_unset else key, kind, was, now, ours, message)
    if unknown:
        found.append(_unknown_base(definition, positions, unknown))
    return tuple(found)


def _describe(is_unset: bool, was: Any, now: Any, ours: Any) -> tuple[str, str]:
    change = f"upstream changed {shown_value(was)} -> {shown_value(now)}"
    if is_unset:
        if now is _ABSENT:
            return "unset-removed", f"{change}; this overlay unsets it, which is now moot."
        return "unset-changed", f"{change}; this overlay unsets it."
    ours_text = f"this overlay sets {shown_value(ours)}."
    if was is _ABSENT:
        return "overridden-added", f"{change}; {ours_text}"
    if now is _ABSENT:
        return "overridden-removed", f"{change}; {ours_text}"
    return "overridden-changed", f"{change}; {ours_text}"


def _unknown_base(
    definition: RuleDefinition, positions: TomlPositions, keys: Sequence[str]
) -> OverlayConflict:
    where = positions.locate("overlay.sha256")
    code = definition.code
    return OverlayConflict(
        code,
        definition.origin.root,
        definition.origin.path,
        where[0] if where else None,
        "overlay.sha256",
        "base-changed-unknown",
        None,
        None,
        None,
        f"{code} overlay: the definition below has changed since this overlay was written, "
        f"and [overlay.was] does not record what it had of {', '.join(keys)}. Compare with "
        f"`inwards rules explain {code}`, then update [overlay] sha256 and [overlay.was].",
    )
