"""The one resolver: project > user > core, dedup by code, whole-file shadowing.

`resolve` runs named phases over every definition document: collect (parse, apply the
`user-rules` policy), one file per code and root, merge overlays into the
definition in force below them (`overlay_chains`), void broken shadows (a prefix a family
owns, another name or always-on than the definition below), void name clashes, chain each
code's definitions by precedence, find stale shadows, and activate the highest definition
of each chain. Every consumer (engine, `rules`, `status`, reporters, cache keys) goes
through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Any

import attrs

from inwards_core.arguments import shown
from inwards_core.config.load import USER_RULES_VALUES
from inwards_core.model.findings import ROOTS_ASCENDING, RootKind
from inwards_core.ports import RootReport, RuleDocument
from inwards_core.rules.collisions import (
    ON_COLLISION_POLICIES,
    Collision,
    collision_between,
    collision_problem,
    name_collision,
)
from inwards_core.rules.definitions import DefinitionProblem, RuleDefinition, code_of_path
from inwards_core.rules.kinds import CheckKind, Family, kinds_by_id
from inwards_core.rules.options import parse_options
from inwards_core.rules.overlay_chains import Entry, apply_overlays
from inwards_core.rules.overlay_conflicts import OverlayConflict
from inwards_core.rules.reading import build_definition, read_table
from inwards_core.rules.rule_set import ResolvedRule, RuleSet, StaleShadow

MAX_USER_PROBLEMS = 20
"""Problems of the user root named one by one (a root that is a link to `/` may hold a
thousand TOML files that are no definitions); the rest are counted in one more. The
listing adapter caps what it could not read the same way."""

ROOT_PRECEDENCE = {root: rank for rank, root in enumerate(ROOTS_ASCENDING)}
USER_RULES_POLICIES = USER_RULES_VALUES  # what `[tool.inwards] user-rules` accepts

# code -> root -> the one usable definition of that code in that root.
Candidates = dict[str, dict[RootKind, RuleDefinition]]


def resolve(
    documents: Sequence[RuleDocument],
    families: Sequence[Family],
    *,
    user_rules: str = "on",
    on_collision: str = "warn",
    roots: Sequence[RootReport] = (),
    parsed_tables: MutableMapping[str, Any] | None = None,
) -> RuleSet:
    """Decide the definition in force for every code, keeping the ones it shadows.

    A definition that can't be used is void and becomes a problem naming its file: one
    that doesn't parse or validate, two files for one code in one root (any letter case),
    a half-collision (same code and another name than the definition below it, or the same
    name as another rule's code), a shadow that turns an always-on rule off, or a new rule
    whose code prefix an installed family owns. The lower definition stays in force.
    Whether a problem stops the run depends on its root (`DefinitionProblem.blocking`).
    `user_rules` is the project's policy over the user root: "on", "guidance-only" (only
    the `[guidance]` of user shadows is used) or "off". `on_collision` is its policy for a
    project definition in force over a user one with another intent ("warn", "error",
    "ignore"; `rules/collisions.py`). A root the sources could not read
    (wholly or in part, per `roots`) is a problem too. `parsed_tables` is an optional cache
    of parsed TOML (see `parse_definition`).
    """
    if user_rules not in USER_RULES_POLICIES:
        raise ValueError(
            f"user_rules must be one of {', '.join(USER_RULES_POLICIES)}, not {shown(user_rules)}"
        )
    if on_collision not in ON_COLLISION_POLICIES:
        raise ValueError(
            f"on_collision must be one of {', '.join(ON_COLLISION_POLICIES)}, "
            f"not {shown(on_collision)}"
        )
    kinds = kinds_by_id(families)
    found = _Resolution(user_rules)
    found.problems += [
        DefinitionProblem(report.root, problem.path, None, "", problem.message)
        for report in roots
        for problem in report.problems
    ]
    per_root = _collect(documents, kinds, parsed_tables, found)
    candidates = _apply_overlays(_one_per_root(per_root, found), kinds, families, found)
    _void_broken_shadows(candidates, families, found)
    _void_name_clashes(candidates, found)
    chains = {
        code: chain for code in sorted(candidates) if (chain := found.chain(candidates, code))
    }
    collisions = _collisions(chains, families, on_collision, found)
    stale = [shadow for chain in chains.values() for shadow in _stale_shadows(chain)]
    conflicts = tuple(c for c in found.conflicts if (c.root, c.code) not in found.void)
    rules = [rule for chain in chains.values() if (rule := _activate(chain, kinds, found))]
    return RuleSet(
        tuple(rules),
        _named_user_problems(found.problems, roots),
        tuple(stale),
        tuple(found.ignored),
        tuple(families),
        user_rules,
        chains,
        collisions,
        conflicts=conflicts,
    )


def _named_user_problems(
    problems: Sequence[DefinitionProblem], roots: Sequence[RootReport]
) -> tuple[DefinitionProblem, ...]:
    """`problems` with the user root's definition problems cut to what the listing left of
    MAX_USER_PROBLEMS, and one more that counts the rest. The user root only warns, so a
    cut loses nothing the run depends on; project problems are errors and all named."""
    listed = sum(len(report.problems) for report in roots if report.root is RootKind.USER)
    allowance = max(0, MAX_USER_PROBLEMS - listed)
    user = [p for p in problems if p.root is RootKind.USER]
    unnamed = len(user) - listed - allowance
    if unnamed <= 0:
        return tuple(problems)
    kept = set(map(id, user[: listed + allowance]))
    location = next((r.location for r in roots if r.root is RootKind.USER), "user root")
    more = DefinitionProblem(
        RootKind.USER, location, None, "", f"has {unnamed} more definitions that can't be used."
    )
    named = [p for p in problems if p.root is not RootKind.USER or id(p) in kept]
    return (*named, more)


class _Resolution:
    """What the phases learn on the way: problems, void definitions, ignored ones."""

    __slots__ = ("conflicts", "ignored", "problems", "user_rules", "void")

    def __init__(self, user_rules: str) -> None:
        self.user_rules = user_rules
        self.conflicts: list[OverlayConflict] = []
        self.problems: list[DefinitionProblem] = []
        self.ignored: list[RuleDefinition] = []
        self.void: set[tuple[RootKind, str]] = set()

    def discard(self, definition: RuleDefinition, key: str, message: str) -> None:
        """Make `definition` void: the definition below it (if any) stays in force."""
        origin = definition.origin
        self.void.add((origin.root, definition.code))
        # Positions are only needed for messages, so they are looked up only then.
        line = definition.key_lines.get(key) if key else None
        self.problems.append(DefinitionProblem(origin.root, origin.path, line, key, message))

    def chain(self, candidates: Candidates, code: str) -> tuple[RuleDefinition, ...]:
        """The usable definitions of `code`, highest root first."""
        by_root = candidates[code]
        return tuple(
            by_root[root]
            for root in reversed(ROOTS_ASCENDING)
            if root in by_root and (root, code) not in self.void
        )


def _collect(
    documents: Sequence[RuleDocument],
    kinds: dict[str, tuple[Family, CheckKind]],
    parsed_tables: MutableMapping[str, Any] | None,
    found: _Resolution,
) -> dict[tuple[RootKind, str], list[Entry]]:
    """Parse every document; group the definitions by root and code. An overlay stays a
    read table until `_apply_overlays` merges it into what is below it."""
    per_root: dict[tuple[RootKind, str], list[Entry]] = {}
    for document in documents:
        read = read_table(document, parsed_tables)
        if not isinstance(read, DefinitionProblem) and read.is_overlay:
            per_root.setdefault((document.root, code_of_path(document.path)), []).append(read)
            continue
        parsed = read if isinstance(read, DefinitionProblem) else build_definition(read, kinds)
        if isinstance(parsed, DefinitionProblem):
            found.problems.append(parsed)
        elif parsed.origin.root is RootKind.USER and found.user_rules == "off":
            found.ignored.append(parsed)
        else:
            per_root.setdefault((parsed.origin.root, parsed.code), []).append(parsed)
    return per_root


def _one_per_root(
    per_root: dict[tuple[RootKind, str], list[Entry]], found: _Resolution
) -> dict[str, dict[RootKind, Entry]]:
    """Two files for one code in one root (any letter case) are both void."""
    candidates: dict[str, dict[RootKind, Entry]] = {}
    for (root, code), definitions in sorted(per_root.items(), key=lambda item: item[0][1]):
        if len(definitions) == 1:
            candidates.setdefault(code, {})[root] = definitions[0]
            continue
        paths = " and ".join(
            sorted(
                f"{d.origin.path} of {d.family} {d.family_version}"
                if root is RootKind.CORE and isinstance(d, RuleDefinition)
                else d.origin.path
                for d in definitions
            )
        )
        for definition in definitions:
            found.problems.append(
                DefinitionProblem(
                    root,
                    definition.origin.path,
                    None,
                    "code",
                    f"{code} is defined twice in the {root.value} root ({paths}); "
                    "keep one file per code.",
                )
            )
    return candidates


def _apply_overlays(
    candidates: dict[str, dict[RootKind, Entry]],
    kinds: dict[str, tuple[Family, CheckKind]],
    families: Sequence[Family],
    found: _Resolution,
) -> Candidates:
    """Merge each overlay into the definition in force below it (`overlay_chains`); a
    whole file `_void_broken_shadows` will void is passed over as a base."""

    def fits(whole: RuleDefinition, below: RuleDefinition) -> bool:
        unowned = owning_family(whole.code, families) is None
        return _shadow_problem(whole, below, unowned) is None

    applied = apply_overlays(candidates, kinds, found.user_rules, fits)
    found.problems += applied.problems
    found.ignored += applied.ignored
    found.conflicts += applied.conflicts
    return applied.candidates


def _void_broken_shadows(
    candidates: Candidates, families: Sequence[Family], found: _Resolution
) -> None:
    """Per code: a new rule may not use a prefix an installed family owns; a shadow keeps
    the name of what it shadows and can't turn an always-on rule off (the higher file is
    the odd one out)."""
    for code, by_root in candidates.items():
        owner = owning_family(code, families)
        if owner is not None and RootKind.CORE not in by_root:
            for definition in by_root.values():
                found.discard(
                    definition,
                    "code",
                    f"{code} uses the prefix {owner.prefix}, which the installed family "
                    f"{owner.distribution} {owner.version} owns, but no rule {code} exists "
                    f"there to shadow. Give a new rule a prefix of your own.",
                )
        below: RuleDefinition | None = None
        for root in ROOTS_ASCENDING:
            if root not in by_root or (root, code) in found.void:
                continue
            definition = by_root[root]
            why = None if below is None else _shadow_problem(definition, below, owner is None)
            if why is not None:
                found.discard(definition, *why)
                continue
            below = definition


def _shadow_problem(
    shadow: RuleDefinition, below: RuleDefinition, unowned: bool
) -> tuple[str, str] | None:
    """The key and message of what `shadow` may not change of the definition below it (a
    project over a user definition of a code no family owns may take another name: the
    collision policy judges that, `_collisions`)."""
    code, where = shadow.code, f"{below.origin.root.value} definition of {shadow.code}"
    if shadow.name != below.name and not name_collision(shadow, below, unowned=unowned):
        return (
            "name",
            f'is "{shadow.name}" but the {where} ({below.origin.path}) is named '
            f'"{below.name}": a shadow keeps the name of what it shadows.',
        )
    # Leaving the key out keeps the rule always on (`ResolvedRule.always_on`); writing
    # `always-on = false` over it says something that can't be.
    if below.always_on and not shadow.always_on and "always-on" in shadow.key_lines:
        return (
            "always-on",
            f"is false but the {where} ({below.origin.path}) is always on: a shadow of "
            f"{code} can reword or re-level it, not turn it off.",
        )
    return None


def _void_name_clashes(candidates: Candidates, found: _Resolution) -> None:
    """The same name for two codes: the definition from the higher root (or, within one
    root, the later code) is void, which may uncover another clash below it, so this runs
    until none is left."""
    clashes = _name_clashes(candidates, found)
    while clashes:
        for group in clashes:
            group.sort(key=lambda d: (ROOT_PRECEDENCE[d.origin.root], d.code))
            first = group[0]
            for other in group[1:]:
                found.discard(
                    other,
                    "name",
                    f'"{other.name}" is already the name of {first.code} '
                    f"({first.origin.path}); a rule with another code needs another name.",
                )
        clashes = _name_clashes(candidates, found)


def _name_clashes(candidates: Candidates, found: _Resolution) -> list[list[RuleDefinition]]:
    by_name: dict[str, list[RuleDefinition]] = {}
    for code in sorted(candidates):
        chain = found.chain(candidates, code)
        if chain:
            by_name.setdefault(chain[0].name, []).append(chain[0])
    return [group for group in by_name.values() if len(group) > 1]


def _collisions(
    chains: Mapping[str, Sequence[RuleDefinition]],
    families: Sequence[Family],
    policy: str,
    found: _Resolution,
) -> tuple[Collision, ...]:
    """The project definitions in force over a user definition (directly below) with
    another intent; under `on-collision = "error"` each is also a problem of the project
    file, which stops the run."""
    collisions: list[Collision] = []
    for code, chain in chains.items():
        if len(chain) < 2 or chain[0].origin.root is not RootKind.PROJECT:
            continue
        if chain[1].origin.root is not RootKind.USER:
            continue
        unowned = owning_family(code, families) is None
        collision = collision_between(
            chain[0], chain[1], unowned=unowned, user_rules=found.user_rules, policy=policy
        )
        if collision is None:
            continue
        collisions.append(collision)
        if policy == "error":
            found.problems.append(collision_problem(collision, chain[0]))
    return tuple(collisions)


def _stale_shadows(chain: Sequence[RuleDefinition]) -> list[StaleShadow]:
    """The definitions of one chain whose `[shadow]` base is not the one below them now."""
    stale: list[StaleShadow] = []
    for index, definition in enumerate(chain):
        base = chain[index + 1] if index + 1 < len(chain) else None
        message = _staleness(definition, base)
        if message:
            origin = definition.origin
            stale.append(StaleShadow(definition.code, origin.root, origin.path, message))
    return stale


def _activate(
    chain: Sequence[RuleDefinition],
    kinds: dict[str, tuple[Family, CheckKind]],
    found: _Resolution,
) -> ResolvedRule | None:
    """The rule in force for one chain: its highest definition, or, under "guidance-only",
    the definition below a user one with the user's guidance (a new user rule is ignored)."""
    active, lower = chain[0], tuple(chain[1:])
    guidance_from: RuleDefinition | None = None
    if active.origin.root is RootKind.USER and found.user_rules == "guidance-only":
        if not lower:
            found.ignored.append(active)  # a new rule: only guidance may come from the user
            return None
        guidance_from = active
        active = attrs.evolve(lower[0], guidance=active.guidance, guidance_origin=active.origin)
        lower = lower[1:]
    _family, kind = kinds[active.check]
    options = active.parsed_options
    if options is None:  # a definition built by hand, not by parse_definition
        options = parse_options(kind.options_type, active.options, "options")
    return ResolvedRule(active, kind, options, lower, guidance_from)


def owning_family(code: str, families: Iterable[Family]) -> Family | None:
    """The installed family whose code prefix `code` uses (`INW` for INW012), if any."""
    prefix = code.upper().rstrip("0123456789")
    return next((family for family in families if family.prefix == prefix), None)


def _staleness(definition: RuleDefinition, base: RuleDefinition | None) -> str:
    recorded = definition.shadow
    if recorded is None:
        return ""
    copied = f"{recorded.distribution} {recorded.version}".strip() or "an earlier definition"
    if base is None:
        return (
            f"shadows {definition.code} as copied from {copied}, but no lower root defines "
            f"{definition.code} any more; the copy now stands alone."
        )
    if base.origin.sha256 == recorded.sha256:
        return ""
    if base.overlay is not None and base.table_sha256 == recorded.sha256:
        return ""  # a copy of an overlay's merged definition records the merged table's digest
    now = f"{base.family} {base.family_version}".strip() if base.family else base.origin.path
    return (
        f"is a stale shadow of {definition.code}: it was copied from {copied}, and the "
        f"{base.origin.root.value} definition has changed since (now {now}). Compare them "
        f"with `inwards rules explain {definition.code}`, then update the copy and its "
        "[shadow] sha256."
    )
