"""The `inwards/rules@1` document (`inwards rules --json`), as plain data (pure).

One row per resolved rule with its state, severity, what decided each, and where its
definition comes from; then the definitions the `user-rules` policy left out and the
problems found. `inwards_core.authoring.schemas` describes the same fields.
"""

from __future__ import annotations

from typing import Any

from inwards_core.model.findings import RootKind
from inwards_core.ports import ORG_DIR_FAMILY
from inwards_core.rules.definitions import RuleDefinition
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule
from inwards_core.version import inwards_version

RULES_SCHEMA = "inwards/rules@1"


def family_prefix(definition: RuleDefinition) -> str:
    """The code prefix of the family that ships a core definition (INW for INW005, as the
    family owns its codes' prefix); "" for a user or project definition."""
    if definition.origin.root is not RootKind.CORE:
        return ""
    return definition.code.upper().rstrip("0123456789")


def from_rule_pack(definition: RuleDefinition) -> bool:
    """An org definition shipped by an installed rule pack (its `family` is the pack's
    distribution), not one of the INWARDS_ORG_RULES_DIR directory (whose documents carry
    ORG_DIR_FAMILY)."""
    return definition.origin.root is RootKind.ORG and definition.family != ORG_DIR_FAMILY


def shipped(definition: RuleDefinition) -> bool:
    """Whether a distribution ships `definition` (a family's core definition, or a rule
    pack's org one), so its `family` and `family_version` name that distribution."""
    return definition.origin.root is RootKind.CORE or from_rule_pack(definition)


def origin_label(definition: RuleDefinition) -> str:
    """The root of a definition as text shows it: `core (inw)`, `core (tidy)`, `project`."""
    prefix = family_prefix(definition)
    root = definition.origin.root.value
    return f"{root} ({prefix.lower()})" if prefix else root


def origin_data(definition: RuleDefinition) -> dict[str, Any]:
    """Where a definition comes from: root, path, sha256, for core definitions the family
    (its code prefix), distribution and version that ship it, and for an org definition of
    a rule pack the pack's distribution and version."""
    data: dict[str, Any] = definition.origin.data()
    if definition.origin.root is RootKind.CORE:
        data["family"] = family_prefix(definition)
        data["distribution"] = definition.family
        data["version"] = definition.family_version
    elif from_rule_pack(definition):
        data["distribution"] = definition.family
        data["version"] = definition.family_version
    return data


def overlay_chain(definition: RuleDefinition) -> list[dict[str, str]]:
    """The files an overlay in force merges, lowest root first; empty for a whole file."""
    if definition.overlay is None:
        return []
    return [link.data() for link in definition.overlay.chain]


def rules_document(rule_set: RuleSet, active: tuple[ActiveRule, ...]) -> dict[str, Any]:
    stale = {s.code: s.message for s in rule_set.stale if s.path in _active_paths(rule_set)}
    return {
        "schema": RULES_SCHEMA,
        "fingerprint": rule_set.fingerprint(inwards_version()),
        "userRules": rule_set.user_rules,
        "rules": [
            {
                "code": rule.code,
                "name": rule.name,
                "summary": rule.rule.definition.summary,
                "kind": rule.rule.kind.id,
                "enabled": rule.enabled,
                "decidedBy": rule.decided_by,
                "severity": rule.severity.value,
                "severityDecidedBy": rule.severity_decided_by,
                "default": rule.rule.definition.default,
                "origin": origin_data(rule.rule.definition),
                "shadows": [origin_data(d) for d in rule.rule.shadowed],
                "guidanceFrom": (
                    None
                    if rule.rule.guidance_from is None
                    else origin_data(rule.rule.guidance_from)
                ),
                "stale": stale.get(rule.code),
                "overlayChain": overlay_chain(rule.rule.definition),
            }
            for rule in active
        ],
        "ignoredByPolicy": [origin_data(d) | {"code": d.code} for d in rule_set.ignored],
        "problems": [
            {
                "root": p.root.value,
                "path": p.path,
                "line": p.line,
                "key": p.key,
                "message": p.message,
                "blocking": p.blocking,
            }
            for p in rule_set.problems
        ],
    }


def _active_paths(rule_set: RuleSet) -> set[str]:
    return {r.origin.path for r in rule_set.rules} | {
        r.guidance_from.origin.path for r in rule_set.rules if r.guidance_from is not None
    }
