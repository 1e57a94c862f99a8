"""The rules whose definition in force is an overlay, as reports name them (per rule, not
per finding): the files merged into each, lowest root first, and its conflicts."""

from __future__ import annotations

from inwards_core.model.findings import OverlayInEffect
from inwards_core.rules.rule_set import RuleSet


def overlays_in_effect(rule_set: RuleSet) -> tuple[OverlayInEffect, ...]:
    found: list[OverlayInEffect] = []
    for rule in rule_set.rules:
        overlay = rule.definition.overlay
        if overlay is None:
            continue
        conflicts = sum(1 for conflict in rule_set.conflicts if conflict.code == rule.code)
        found.append(OverlayInEffect(rule.code, overlay.chain, conflicts))
    return tuple(found)
