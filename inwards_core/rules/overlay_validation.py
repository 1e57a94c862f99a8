"""An overlay's merged definition validated by its kind as a whole, and each problem of an
overlay reported where it was written: the overlay file, the line and the key as that file
spells it (an element an `extend-` key appended, under that key; a field missing because
the overlay unset it, at `unset`; a field that came from below, at `overlays`, naming the
file that set it). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core.config.positions import TomlPositions
from inwards_core.rules.definitions import (
    DefinitionProblem,
    FieldOrigin,
    OverlayInfo,
    RuleDefinition,
    code_of_path,
)
from inwards_core.rules.kinds import CheckKind, Family
from inwards_core.rules.overlays import EXTEND, Merged, recorded_base
from inwards_core.rules.reading import ReadTable, check_definition, table_digest


def build_overlay(
    read: ReadTable,
    merged: Merged,
    below: RuleDefinition,
    kinds: Mapping[str, tuple[Family, CheckKind]],
) -> RuleDefinition | DefinitionProblem:
    """The merged definition, validated by its kind as a whole, or its first problem
    located in the overlay file (or, when the offending field came from below, at the
    overlay's `overlays` key, naming the file that set it)."""
    built = check_definition(merged.table, read, kinds)
    if isinstance(built, tuple):
        return locate(read, merged, *built)
    base = recorded_base(read.table["overlay"]) if "overlay" in read.table else None
    info = OverlayInfo(base, merged.chain, merged.fields, below.table, below.table_sha256)
    return attrs.evolve(
        built,
        table=merged.table,
        table_sha256=table_digest(merged.table),
        overlay=info,
        shadow=None,
    )


def locate(read: ReadTable, merged: Merged, key: str, message: str) -> DefinitionProblem:
    """A problem of the merged table at `key`, named where the field was written."""
    field, setter = _setter(merged.fields, key)
    if setter is not None and setter.origin == read.origin:
        if setter.how == "unset":
            return overlay_problem(read, "unset", f'"{setter.key}" is unset: {key} {message}')
        return overlay_problem(read, _as_written(key, field, setter), message)
    removed = [
        k
        for k, history in merged.fields.items()
        if key and (k == key or k.startswith(key + "."))
        if history[-1].how == "unset" and history[-1].origin == read.origin
    ]
    if removed:  # the field is missing because this overlay unset it
        return overlay_problem(read, "unset", f'"{removed[0]}" is unset: {key} {message}')
    code = code_of_path(read.document.path)
    where = ""
    if setter is not None:
        where = f" (from {setter.origin.root.value} {setter.origin.path})"
    what = f"{key}{where}: {message}" if key else message
    anchor = "overlays" if "overlays" in read.table else "overlay"
    return overlay_problem(read, anchor, f"the merged definition of {code}: {what}")


def _setter(
    fields: Mapping[str, tuple[FieldOrigin, ...]], key: str
) -> tuple[str, FieldOrigin | None]:
    """The longest recorded field `key` is in (or is), and its last setter."""
    candidate = key
    while candidate:
        bare = candidate.split("[", 1)[0] if candidate.endswith("]") else candidate
        if fields.get(bare):
            return bare, fields[bare][-1]
        if "[" in candidate and candidate.endswith("]"):
            candidate = candidate[: candidate.rindex("[")]
        elif "." in candidate:
            candidate = candidate.rsplit(".", 1)[0]
        else:
            break
    return "", None


def _as_written(key: str, field: str, setter: FieldOrigin) -> str:
    """`key` of the merged table as the overlay wrote it: an appended element under its
    `extend-` key, counted from that key's first element."""
    if setter.how != "extend":
        return key
    parent, _, last = field.rpartition(".")
    written = f"{parent}.{EXTEND}{last}" if parent else f"{EXTEND}{last}"
    rest = key[len(field) :]
    if rest.startswith("["):
        index, _, after = rest[1:].partition("]")
        if index.isdigit():
            shifted = int(index) - setter.appended_after
            if shifted < 0:
                return written
            return f"{written}[{shifted}]{after}"
    return written + rest


def overlay_problem(read: ReadTable, key: str, message: str) -> DefinitionProblem:
    """A problem of an overlay file at `key` (dotted, as written there)."""
    where = TomlPositions(read.text).locate(key) if key else None
    line, column = where if where else (None, None)
    document = read.document
    code = code_of_path(document.path)
    return DefinitionProblem(document.root, document.path, line, key, message, column, code)
