"""What `inwards status` reports about the rule roots, as plain values (pure).

Every count comes from the resolver's chains, never from a second reading of precedence.
`status_document` is the versioned JSON form (`inwards/status@1`) that agents read;
`project_status` and `status_json` are what `inwards status` and `inwards mcp` both call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from inwards_core.config.values import Config
from inwards_core.model.findings import ROOTS_ASCENDING, RootKind, UserDefinitionInEffect
from inwards_core.ports import RootReport, RootState, RuleDocument, RulePack, RuleSources
from inwards_core.rules.collisions import Collision
from inwards_core.rules.digests import root_digests
from inwards_core.rules.kinds import Family
from inwards_core.rules.overlay_conflicts import OverlayConflict
from inwards_core.rules.rule_set import RuleSet, StaleShadow
from inwards_core.rules.selection import ActiveRule, validate_rule_settings

STATUS_SCHEMA = "inwards/status@1"
DISABLED_BY_CONFIG = ("rules.ignore", "not in rules.select")


@attrs.frozen
class RootStatus:
    root: RootKind
    location: str
    state: RootState
    note: str
    warning: str
    definitions: int
    # Lower root -> codes this root's whole-file definitions shadow there.
    shadowing: tuple[tuple[RootKind, tuple[str, ...]], ...]
    new: tuple[str, ...]
    problems: tuple[str, ...]
    digest: str
    changed: bool | None  # None: no earlier check recorded a digest
    # Lower root -> codes this root's overlays change there, field by field.
    overlaying: tuple[tuple[RootKind, tuple[str, ...]], ...] = ()


@attrs.frozen
class FamilyStatus:
    prefix: str
    distribution: str
    version: str
    kinds: int
    rules: int


@attrs.frozen
class RulePackStatus:
    """An installed organisation rule pack and how many definitions of the org root it
    ships (void ones aside)."""

    pack: RulePack
    rules: int


@attrs.frozen
class Totals:
    active: int
    shadowed: int
    opt_in_off: tuple[str, ...]
    disabled_by_config: tuple[str, ...]
    ignored_by_policy: tuple[str, ...]


@attrs.frozen
class RulesStatus:
    roots: tuple[RootStatus, ...]
    families: tuple[FamilyStatus, ...]
    totals: Totals
    stale: tuple[StaleShadow, ...]
    user_rules: str
    user_in_effect: tuple[UserDefinitionInEffect, ...]
    fingerprint: str
    rule_packs: tuple[RulePackStatus, ...] = ()
    org_in_effect: tuple[UserDefinitionInEffect, ...] = ()
    # Every project definition over a user one with another intent, whatever the policy.
    collisions: tuple[Collision, ...] = ()
    # Fields overlays set or unset that upstream changed since they were written.
    conflicts: tuple[OverlayConflict, ...] = ()


def rules_status(
    rule_set: RuleSet,
    reports: Sequence[RootReport],
    documents: Sequence[RuleDocument],
    active: Sequence[ActiveRule],
    *,
    previous_digests: Mapping[str, str] | None,
    inwards_version: str,
) -> RulesStatus:
    digests = root_digests(documents, rule_set.families)
    roots = []
    for report in reports:
        digest = digests[report.root]
        previous = None if previous_digests is None else previous_digests.get(report.root.value)
        changed = None if previous is None else previous != digest
        roots.append(_root_status(report, rule_set, digest, changed))
    return RulesStatus(
        roots=tuple(roots),
        families=tuple(_family_status(family, rule_set) for family in rule_set.families),
        totals=_totals(rule_set, active),
        stale=rule_set.stale,
        user_rules=rule_set.user_rules,
        user_in_effect=rule_set.user_in_effect(),
        fingerprint=rule_set.fingerprint(inwards_version),
        rule_packs=tuple(
            _pack_status(pack, rule_set) for report in reports for pack in report.packs
        ),
        org_in_effect=rule_set.org_in_effect(),
        collisions=rule_set.collisions,
        conflicts=rule_set.conflicts,
    )


def _by_root(codes: dict[RootKind, list[str]]) -> tuple[tuple[RootKind, tuple[str, ...]], ...]:
    ordered = sorted(codes.items(), key=lambda item: ROOTS_ASCENDING.index(item[0]))
    return tuple((root, tuple(sorted(listed))) for root, listed in ordered)


def _root_status(
    report: RootReport, rule_set: RuleSet, digest: str, changed: bool | None
) -> RootStatus:
    """What one root defines, read from the resolver's chains: the codes its definitions
    shadow in each lower root, and the codes no lower root defines."""
    shadowing: dict[RootKind, list[str]] = {}
    overlaying: dict[RootKind, list[str]] = {}
    new: list[str] = []
    count = 0
    for code, chain in rule_set.chains.items():
        for index, definition in enumerate(chain):
            if definition.origin.root is not report.root:
                continue
            count += 1
            if index + 1 < len(chain):
                above = overlaying if definition.overlay is not None else shadowing
                above.setdefault(chain[index + 1].origin.root, []).append(code)
            else:
                new.append(code)
    return RootStatus(
        root=report.root,
        location=report.location,
        state=report.state,
        note=report.note,
        warning=report.warning,
        definitions=count,
        shadowing=_by_root(shadowing),
        overlaying=_by_root(overlaying),
        new=tuple(sorted(new)),
        problems=tuple(p.render() for p in rule_set.problems if p.root is report.root),
        digest=digest,
        changed=changed,
    )


def _family_status(family: Family, rule_set: RuleSet) -> FamilyStatus:
    # Two families may ship in one distribution (INW and FAPI in inwards-lint): a family's
    # core rules are those of its distribution that carry its prefix.
    core_rules = sum(
        1
        for chain in rule_set.chains.values()
        for d in chain
        if d.origin.root is RootKind.CORE
        and d.family == family.distribution
        and d.code.startswith(family.prefix)
        and d.code[len(family.prefix) :].isdigit()
    )
    return FamilyStatus(
        family.prefix, family.distribution, family.version, len(family.kinds), core_rules
    )


def _pack_status(pack: RulePack, rule_set: RuleSet) -> RulePackStatus:
    rules = sum(
        1
        for chain in rule_set.chains.values()
        for d in chain
        if d.origin.root is RootKind.ORG
        and d.family == pack.distribution
        and d.family_version == pack.version
    )
    return RulePackStatus(pack, rules)


def _totals(rule_set: RuleSet, active: Sequence[ActiveRule]) -> Totals:
    return Totals(
        active=sum(1 for rule in active if rule.enabled),
        shadowed=sum(len(rule.shadowed) for rule in rule_set.rules),
        opt_in_off=tuple(r.code for r in active if not r.enabled and r.decided_by == "opt-in"),
        disabled_by_config=tuple(
            r.code for r in active if not r.enabled and r.decided_by in DISABLED_BY_CONFIG
        ),
        ignored_by_policy=tuple(d.code for d in rule_set.ignored),
    )


def project_status(
    rule_set: RuleSet,
    sources: RuleSources,
    active: Sequence[ActiveRule],
    config: Config | None,
    *,
    previous_digests: Mapping[str, str] | None,
    inwards_version: str,
) -> tuple[RulesStatus, list[str]]:
    """The status of the roots `sources` gave `rule_set`, and the problems of the project's
    `[tool.inwards.rules]` (none outside a project: `config` None)."""
    status = rules_status(
        rule_set,
        sources.roots(),
        sources.documents(),
        active,
        previous_digests=previous_digests,
        inwards_version=inwards_version,
    )
    problems: list[str] = []
    if config is not None:
        problems = [
            p.render()
            for p in validate_rule_settings(config.rules, rule_set, config.file, config.positions)
        ]
    return status, problems


def status_json(status: RulesStatus, settings_problems: Sequence[str]) -> dict[str, Any]:
    """The inwards/status@1 document `inwards status --json` prints (and `inwards mcp`'s
    `rules_status` answers)."""
    document = status_document(status)
    document["configProblems"] = list(settings_problems)
    return document


def status_document(status: RulesStatus) -> dict[str, Any]:
    return {
        "schema": STATUS_SCHEMA,
        "roots": [
            {
                "root": root.root.value,
                "location": root.location,
                "state": root.state.value,
                "note": root.note,
                "warning": root.warning,
                "definitions": root.definitions,
                "shadowing": {lower.value: list(codes) for lower, codes in root.shadowing},
                "overlaying": {lower.value: list(codes) for lower, codes in root.overlaying},
                "new": list(root.new),
                "problems": list(root.problems),
                "digest": root.digest,
                "changedSinceLastCheck": root.changed,
            }
            for root in status.roots
        ],
        "families": [
            {
                "prefix": family.prefix,
                "distribution": family.distribution,
                "version": family.version,
                "kinds": family.kinds,
                "rules": family.rules,
            }
            for family in status.families
        ],
        "totals": {
            "active": status.totals.active,
            "shadowed": status.totals.shadowed,
            "optInOff": list(status.totals.opt_in_off),
            "disabledByConfig": list(status.totals.disabled_by_config),
            "ignoredByPolicy": list(status.totals.ignored_by_policy),
        },
        "staleShadows": [
            {"code": s.code, "root": s.root.value, "path": s.path, "message": s.message}
            for s in status.stale
        ],
        "userRules": status.user_rules,
        "userDefinitions": [
            {"code": u.code, "effect": u.effect, "path": u.path} for u in status.user_in_effect
        ],
        "fingerprint": status.fingerprint,
        "rulePacks": [
            {
                "name": p.pack.name,
                "distribution": p.pack.distribution,
                "version": p.pack.version,
                "location": p.pack.location,
                "rules": p.rules,
            }
            for p in status.rule_packs
        ],
        "orgDefinitions": [
            {"code": o.code, "effect": o.effect, "path": o.path} for o in status.org_in_effect
        ],
        "collisions": collisions_document(status.collisions),
        "overlayConflicts": [
            {
                "code": c.code,
                "root": c.root.value,
                "path": c.path,
                "line": c.line,
                "key": c.key,
                "kind": c.kind,
                "was": c.was,
                "now": c.now,
                "ours": c.ours,
                "message": c.message,
            }
            for c in status.conflicts
        ],
    }


def collisions_document(collisions: Sequence[Collision]) -> list[dict[str, Any]]:
    """The `collisions` of `inwards/status@1`: both files of each, why and the policy."""
    return [
        {
            "code": c.code,
            "reasons": list(c.reasons),
            "details": list(c.details),
            "project": {"path": c.project.path, "sha256": c.project.sha256},
            "user": {"path": c.user.path, "sha256": c.user.sha256},
            "policy": c.policy,
        }
        for c in collisions
    ]
