"""What `inwards rules explain` adds for a rule whose definition in force is an overlay: the
merged definition with the root and file that set each field, the overlay chain (each file
with the base it recorded), and the conflicts (upstream's old and new value beside the
overlay's own), as text lines and as JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tomlkit

from inwards_core.model.findings import Origin
from inwards_core.reporting.escaping import printable
from inwards_core.rules.definitions import DEFINITION_KEYS, RuleDefinition
from inwards_core.rules.overlay_conflicts import OverlayConflict
from inwards_core.rules.rule_set import RuleSet

# Keys of a merged table that are about the files, not fields of the rule.
_NOT_FIELDS = ("overlays", "overlay", "unset", "shadow")

# How long a value may be in the merged-definition listing before it is cut.
_SHOWN_VALUE = 56


def leaves(table: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Every field of a table as (dotted key, value), tables opened (an empty one kept)."""
    found: list[tuple[str, Any]] = []
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            found += leaves(value, f"{dotted}.")
        else:
            found.append((dotted, value))
    return found


def toml_text(value: Any) -> str:
    """A value as TOML writes it (`"x"`, `["a", "b"]`, `true`); "(absent)" for None."""
    if value is None:
        return "(absent)"
    if isinstance(value, Mapping):
        inline = tomlkit.inline_table()
        inline.update(value)
        return str(inline.as_string()).strip()
    return str(tomlkit.item(value).as_string())


def merged_fields(table: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The fields of a merged definition, in the order a definition lists its keys."""
    order = {key: index for index, key in enumerate(DEFINITION_KEYS)}
    shown = [(k, v) for k, v in leaves(table) if k.partition(".")[0] not in _NOT_FIELDS]
    return sorted(shown, key=lambda item: order.get(item[0].partition(".")[0], len(order)))


def _cut(text: str) -> str:
    return text if len(text) <= _SHOWN_VALUE else text[: _SHOWN_VALUE - 1] + "…"


def setter(definition: RuleDefinition, key: str) -> tuple[Origin, str]:
    """The file that last set the field `key` of the merged definition, and how ("base",
    "set", "extend"); the nearest recorded table above the key when it has no entry."""
    assert definition.overlay is not None
    fields = definition.overlay.fields
    probe = key
    while probe:
        recorded = fields.get(probe)
        if recorded:
            last = recorded[-1]
            return last.origin, last.how
        probe = probe.rpartition(".")[0]
    return definition.overlay.chain[0], "base"


def link_label(origin: Origin) -> str:
    return f"{origin.root.value} {origin.path}"


def merged_lines(definition: RuleDefinition) -> list[str]:
    """The merged definition, one field a line, each with the file that set it."""
    assert definition.overlay is not None
    lines = ["", "Merged definition, each field with the file that set it:"]
    rows = [
        (f"{key} = {_cut(toml_text(value))}", setter(definition, key))
        for key, value in merged_fields(definition.table)
    ]
    width = max((len(printable(text)) for text, _ in rows), default=0)
    for text, (origin, how) in rows:
        note = link_label(origin) + ("" if how in ("base", "set") else f" ({how})")
        lines.append(f"  {printable(text).ljust(width)}  # {note}")
    for key, origins in sorted(definition.overlay.fields.items()):
        if origins and origins[-1].how == "unset":
            lines.append(f"  # {key} unset by {link_label(origins[-1].origin)}")
    return lines


def _definition_at(rule_set: RuleSet, code: str, origin: Origin) -> RuleDefinition | None:
    return next((d for d in rule_set.chains.get(code, ()) if d.origin == origin), None)


def chain_lines(code: str, definition: RuleDefinition, rule_set: RuleSet) -> list[str]:
    """The files merged, lowest root first, each overlay with the base it recorded."""
    assert definition.overlay is not None
    lines = ["", "Overlay chain, lowest root first:"]
    for index, origin in enumerate(definition.overlay.chain):
        role = "whole definition" if index == 0 else "overlay"
        lines.append(f"  {origin.root.value:<8} {role:<17} {origin.path}")
        link = _definition_at(rule_set, code, origin)
        base = None if link is None or link.overlay is None else link.overlay.base
        if index and base is None:
            lines.append("           no recorded base: upstream changes can't be told apart")
        elif base is not None:
            shipped = f"{base.distribution} {base.version}".strip()
            lines.append(
                f"           written over {base.root} {shipped or base.path} "
                f"(table sha256 {base.sha256[:16]})"
            )
    return lines


def conflict_lines(conflicts: Sequence[OverlayConflict]) -> list[str]:
    """Each conflict: the field, upstream's old and new value, and the overlay's."""
    if not conflicts:
        return []
    lines = ["", "Conflicts (upstream changed a field an overlay sets or unsets):"]
    for conflict in conflicts:
        ours = "unsets it" if conflict.ours is None else f"sets {toml_text(conflict.ours)}"
        lines.append(f"  {conflict.path}: {conflict.key}")
        lines.append(f"    upstream was   {_cut(toml_text(conflict.was))}")
        lines.append(f"    upstream now   {_cut(toml_text(conflict.now))}")
        lines.append(f"    this overlay   {_cut(ours)}")
    lines.append(
        "  Decide which value to keep, edit the overlay, then record the new base with "
        "`inwards rules shadow CODE --to ROOT --overlay --refresh`."
    )
    return lines


def overlay_document(code: str, definition: RuleDefinition, rule_set: RuleSet) -> dict[str, Any]:
    """The `overlayChain`, `fields` and `conflicts` of `rules explain --json` (empty for a
    whole definition)."""
    conflicts = [c for c in rule_set.conflicts if c.code == code]
    document: dict[str, Any] = {"overlayChain": [], "fields": {}, "conflicts": []}
    if definition.overlay is None:
        return document
    chain = []
    for origin in definition.overlay.chain:
        link = _definition_at(rule_set, code, origin)
        base = None if link is None or link.overlay is None else link.overlay.base
        recorded = None
        if base is not None:
            recorded = {
                "root": base.root,
                "distribution": base.distribution,
                "version": base.version,
                "path": base.path,
                "sha256": base.sha256,
            }
        chain.append(origin.data() | {"base": recorded})
    document["overlayChain"] = chain
    fields: dict[str, Any] = {}
    for key, _value in merged_fields(definition.table):
        origin, how = setter(definition, key)
        fields[key] = origin.data() | {"how": how}
    document["fields"] = fields
    document["conflicts"] = [
        {
            "root": c.root.value,
            "path": c.path,
            "key": c.key,
            "kind": c.kind,
            "was": c.was,
            "now": c.now,
            "ours": c.ours,
            "message": c.message,
        }
        for c in conflicts
    ]
    return document
