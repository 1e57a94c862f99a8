"""The resolver's overlay phase: each code's overlays merged in precedence order.

Walking a code's roots from the lowest (core, org, user, project), a whole-file definition
starts the chain again (the cut: nothing below it matters to what is above), and an
overlay is merged into the definition in force below it, validated as a whole, and stands
in its root as an ordinary definition from then on. An overlay that can't be used is void
(a problem naming its file, line and key) and the definition below stays in force; an
overlay with nothing below it is a problem too. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from inwards_core.model.findings import ROOTS_ASCENDING, RootKind
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.definitions import (
    OVERLAY_ONLY_KEYS,
    DefinitionProblem,
    RuleDefinition,
    code_of_path,
)
from inwards_core.rules.kinds import CheckKind, Family
from inwards_core.rules.options import known_options
from inwards_core.rules.overlay_conflicts import OverlayConflict, overlay_conflicts
from inwards_core.rules.overlay_validation import build_overlay, overlay_problem
from inwards_core.rules.overlays import (
    OverlayError,
    check_shape,
    merge_overlay,
    starting_point,
    touched_fields,
)
from inwards_core.rules.reading import ReadTable

Entry = RuleDefinition | ReadTable


@attrs.frozen
class Applied:
    """What the overlay phase decided: per code and root the usable definition (overlays
    merged), the overlays that can't be used, user overlays the `user-rules = "off"`
    policy left out, and the conflicts of the overlays merged."""

    __repr__ = value_repr

    candidates: dict[str, dict[RootKind, RuleDefinition]]
    problems: tuple[DefinitionProblem, ...] = ()
    ignored: tuple[RuleDefinition, ...] = ()
    conflicts: tuple[OverlayConflict, ...] = ()


def apply_overlays(
    candidates: Mapping[str, Mapping[RootKind, Entry]],
    kinds: Mapping[str, tuple[Family, CheckKind]],
    user_rules: str,
    fits: Callable[[RuleDefinition, RuleDefinition], bool] = lambda _above, _below: True,
) -> Applied:
    """Merge every overlay of `candidates` into the definition in force below it.
    `fits(whole, below)`: whether a whole file may stand over the definition below it (the
    resolver voids it later otherwise); one that may not is no base for overlays above it,
    so a broken user shadow can't make a project overlay over it fail too."""
    merged: dict[str, dict[RootKind, RuleDefinition]] = {}
    problems: list[DefinitionProblem] = []
    ignored: list[RuleDefinition] = []
    conflicts: list[OverlayConflict] = []
    for code in sorted(candidates):
        by_root, out = candidates[code], merged.setdefault(code, {})
        below: RuleDefinition | None = None
        for root in ROOTS_ASCENDING:
            entry = by_root.get(root)
            if entry is None:
                continue
            if isinstance(entry, RuleDefinition):
                out[root] = entry
                if below is None or fits(entry, below):
                    below = entry  # a whole file: the chain starts again here
                continue
            guidance_only = root is RootKind.USER and user_rules == "guidance-only"
            built = _overlay(entry, below, kinds, guidance_only=guidance_only)
            if isinstance(built, DefinitionProblem):
                problems.append(built)
            elif root is RootKind.USER and user_rules == "off":
                ignored.append(built)
            else:
                out[root] = below = built
                conflicts += _conflicts(entry, built, kinds, guidance_only=guidance_only)
        if not out:
            del merged[code]
    return Applied(merged, tuple(problems), tuple(ignored), tuple(conflicts))


def _overlay(
    read: ReadTable,
    below: RuleDefinition | None,
    kinds: Mapping[str, tuple[Family, CheckKind]],
    *,
    guidance_only: bool,
) -> RuleDefinition | DefinitionProblem:
    anchor = "overlays" if "overlays" in read.table else "overlay"
    document = read.document
    if document.root is RootKind.CORE:
        shipped = f"{document.family} {document.family_version}".strip() or "its family"
        return overlay_problem(
            read,
            anchor,
            f"a family's own definition can't be an overlay: the core definitions of "
            f"{shipped} are whole files.",
        )
    try:
        check_shape(read)
    except OverlayError as error:
        return overlay_problem(read, error.key, error.message)
    if below is None:
        code = code_of_path(document.path)
        return overlay_problem(
            read,
            anchor,
            f"overlays {code}, but no lower root has a usable definition of {code} to "
            "change. Write a whole definition (with code, name and check) for a new rule.",
        )
    _family, kind = kinds[below.check]
    try:
        merged = merge_overlay(starting_point(below), read, kind, guidance_only=guidance_only)
    except OverlayError as error:
        return overlay_problem(read, error.key, error.message)
    return build_overlay(read, merged, below, kinds)


def _conflicts(
    read: ReadTable,
    built: RuleDefinition,
    kinds: Mapping[str, tuple[Family, CheckKind]],
    *,
    guidance_only: bool,
) -> tuple[OverlayConflict, ...]:
    info = built.overlay
    if info is None or info.base is None:
        return ()
    body: dict[str, Any] = {k: v for k, v in read.table.items() if k not in OVERLAY_ONLY_KEYS}
    unset = [u for u in read.table.get("unset", []) if isinstance(u, str)]
    if guidance_only:
        body = {k: v for k, v in body.items() if k == "guidance"}
        unset = [u for u in unset if u == "guidance" or u.startswith("guidance.")]
    _family, kind = kinds[built.check]
    written, _extended = touched_fields(body, info.below, known_options(kind.options_type))
    return overlay_conflicts(built, read.text, written, unset)
