"""What the resolver decides: the rule in force for each code (`ResolvedRule`), and the
whole `RuleSet` with the problems, stale shadows and ignored definitions it met, and the
fingerprint that keys anything derived from the rules."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core.model.findings import Origin, RootKind, UserDefinitionInEffect
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.collisions import Collision
from inwards_core.rules.definitions import DefinitionProblem, RuleDefinition
from inwards_core.rules.kinds import CheckKind, Family
from inwards_core.rules.overlay_conflicts import OverlayConflict
from inwards_core.rules.scaffold import placeholder_warning


@attrs.frozen
class StaleShadow:
    """A shadow whose recorded base no longer matches the definition below it."""

    __repr__ = value_repr

    code: str
    root: RootKind
    path: str
    message: str


@attrs.frozen
class ResolvedRule:
    """The definition in force for one code, the kind it names, its default options
    (parsed from the definition), and the lower definitions it shadows (highest first).

    With `user-rules = "guidance-only"`, `definition` is the lower definition carrying the
    user file's guidance, and `guidance_from` is that user definition."""

    __repr__ = value_repr

    definition: RuleDefinition
    kind: CheckKind
    options: Any
    shadowed: tuple[RuleDefinition, ...] = ()
    guidance_from: RuleDefinition | None = None

    @property
    def code(self) -> str:
        return self.definition.code

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def origin(self) -> Origin:
        return self.definition.origin

    @property
    def always_on(self) -> bool:
        """Always on belongs to the rule, not to one file: a shadow of a definition that
        says `always-on = true` is always on too, whether it repeats the key or not."""
        return self.definition.always_on or any(lower.always_on for lower in self.shadowed)


@attrs.frozen
class RuleSet:
    """What the resolver decided. `ignored` are user definitions the `user-rules` policy
    left out (new rules, or everything but guidance, under "guidance-only")."""

    __repr__ = value_repr

    rules: tuple[ResolvedRule, ...]
    problems: tuple[DefinitionProblem, ...] = ()
    stale: tuple[StaleShadow, ...] = ()
    ignored: tuple[RuleDefinition, ...] = ()
    families: tuple[Family, ...] = ()
    user_rules: str = "on"
    # Every usable definition of each code, highest root first (the active one leads,
    # except under "guidance-only", where a user definition leads but only lends guidance).
    chains: Mapping[str, tuple[RuleDefinition, ...]] = attrs.field(factory=dict)
    # Project definitions over a user one with another intent, under any on-collision
    # policy (`rules/collisions.py`); "warn" makes each a warning, "error" a problem.
    collisions: tuple[Collision, ...] = ()
    # Fields an overlay in force sets or unsets that upstream changed since it was written.
    conflicts: tuple[OverlayConflict, ...] = ()
    # `fingerprint`'s answers: a warm session stamps every check with it, and the set
    # never changes.
    _fingerprints: dict[str, str] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    def by_code(self, code: str) -> ResolvedRule | None:
        code = code.upper()
        return next((r for r in self.rules if r.code == code), None)

    def by_name(self, name: str) -> ResolvedRule | None:
        return next((r for r in self.rules if r.name == name), None)

    def lookup(self, code_or_name: str) -> ResolvedRule | None:
        return self.by_code(code_or_name) or self.by_name(code_or_name.lower())

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.rules)

    @property
    def errors(self) -> tuple[DefinitionProblem, ...]:
        return tuple(p for p in self.problems if p.blocking)

    def warnings(self) -> tuple[str, ...]:
        """User- and org-root problems and stale shadows, as one line each."""
        lines = [
            f"{p.render()} (this {p.root.value} definition is not used)"
            for p in self.problems
            if not p.blocking
        ]
        lines += [f"{s.path}: {s.message}" for s in self.stale]
        lines += self._placeholder_warnings()
        lines += [conflict.render() for conflict in self.conflicts]
        lines += [c.warning() for c in self.collisions if c.policy == "warn"]
        return tuple(lines)

    def _placeholder_warnings(self) -> list[str]:
        """A line for each scaffold text left in a definition in force (or in the user file
        that lends it guidance, of which only the guidance counts)."""
        lines: list[str] = []
        for rule in self.rules:
            source = rule.guidance_from or rule.definition
            for placeholder in source.placeholders:
                if rule.guidance_from is None or placeholder.key.startswith("guidance"):
                    lines.append(placeholder_warning(source.origin.path, placeholder))
        return lines

    def user_in_effect(self) -> tuple[UserDefinitionInEffect, ...]:
        found: list[UserDefinitionInEffect] = []
        for rule in self.rules:
            if rule.guidance_from is not None:
                found.append(
                    UserDefinitionInEffect(
                        rule.code, rule.guidance_from.origin.path, "guidance only"
                    )
                )
            elif rule.origin.root is RootKind.USER:
                found.append(_in_effect(rule))
        return tuple(found)

    def org_in_effect(self) -> tuple[UserDefinitionInEffect, ...]:
        """The organisation root's definitions in force (a new rule or a shadow), named as
        `user_in_effect` names the user's: they too change a run from outside the project."""
        return tuple(_in_effect(rule) for rule in self.rules if rule.origin.root is RootKind.ORG)

    def fingerprint(self, inwards_version: str) -> str:
        """Active definitions' bytes and the parsed tables actually used (a table may come
        from the cache) + kind versions + inwards version, and always-on where a shadow
        has it from the definition below."""
        known = self._fingerprints.get(inwards_version)
        if known is None:
            known = self._fingerprints[inwards_version] = self._digest(inwards_version)
        return known

    def _digest(self, inwards_version: str) -> str:
        digest = hashlib.sha256(inwards_version.encode())
        for rule in self.rules:
            guidance = rule.definition.guidance_origin
            lender = rule.guidance_from
            digest.update(
                f"\0{rule.code}\0{rule.definition.origin.sha256}"
                f"\0{rule.definition.table_sha256}\0{rule.kind.id}@{rule.kind.version}"
                f"\0{guidance.sha256 if guidance else ''}"
                f"\0{lender.table_sha256 if lender else ''}".encode()
            )
            if rule.always_on and not rule.definition.always_on:
                digest.update(b"\0always-on")
            for merged in (rule.definition, lender):
                # An overlay's own bytes and merged table are above; every link it was
                # merged from counts too (a change in any of them changes the rule).
                if merged is not None and merged.overlay is not None:
                    links = "".join(f"\0{link.sha256}" for link in merged.overlay.chain)
                    digest.update(f"\0overlay{links}".encode())
        return digest.hexdigest()


def _in_effect(rule: ResolvedRule) -> UserDefinitionInEffect:
    """A definition from outside the project in force: a shadow of the root below it, or new."""
    effect = f"shadows {rule.shadowed[0].origin.root.value}" if rule.shadowed else "new"
    return UserDefinitionInEffect(rule.code, rule.origin.path, effect)
