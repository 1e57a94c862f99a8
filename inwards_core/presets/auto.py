"""`inwards init --style auto`: a first configuration guessed from the names of the
packages a project already has, with the reason for every guess.

Names only: nothing is read or run. Each package directly below the top package (and the
children of an `adapters` package) gets a role by the table `ROLE_NAMES`; the styles are
scored on what was found and the closest one gives the layer order:

- layered, clean, hexagonal: +2 per package whose role the style has, -1 per package whose
  role it lacks, -1 per role of the style with no package, +3 per signal of the style
  (`use_cases` for clean, `adapters.inbound`/`adapters.outbound` for hexagonal,
  `persistence` for layered);
- vertical-slices, bounded-contexts, django, fastapi: only when their signal fires
  (a `features` package of slices; two or more packages holding domain/application/api
  parts; apps with `models` and `views` or `apps`; domains with a `router`): +3, and +2 per
  slice, context, app or domain found.

Ties go to the first in `TIE_ORDER`. `kernel` (utils, common, shared, ...) is an extra
innermost layer every style accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from inwards_core.model.value_repr import value_repr
from inwards_core.presets.styles import (
    CONTEXT_ROLES,
    SLICE_ROLES,
    PresetTarget,
    bounded_contexts_table,
    django_table,
    fastapi_table,
    head,
    vertical_slices_table,
)

ROLE_NAMES: Mapping[str, tuple[str, ...]] = {
    "kernel": ("utils", "util", "common", "shared", "core", "lib", "kernel", "helpers"),
    "domain": ("domain", "entities", "entity", "models", "model", "value_objects"),
    "application": (
        "services",
        "service",
        "use_cases",
        "usecases",
        "application",
        "app_services",
        "interactors",
    ),
    "infrastructure": (
        "infrastructure",
        "infra",
        "adapters",
        "db",
        "database",
        "persistence",
        "repositories",
        "repository",
        "storage",
        "clients",
        "outbound",
    ),
    "presentation": (
        "api",
        "web",
        "views",
        "http",
        "rest",
        "routes",
        "routers",
        "cli",
        "ui",
        "handlers",
        "inbound",
    ),
    "bootstrap": ("bootstrap", "main", "__main__", "composition", "container", "wiring"),
}
TIE_ORDER = (
    "clean",
    "hexagonal",
    "layered",
    "vertical-slices",
    "bounded-contexts",
    "django",
    "fastapi",
)
_STYLE_ROLES = frozenset({"domain", "application", "infrastructure", "presentation", "bootstrap"})
# The layer each role becomes, innermost first, per style (a tuple is a group of siblings).
_LAYERS: Mapping[str, tuple[tuple[str, ...], ...]] = {
    "clean": (
        ("kernel",),
        ("domain",),
        ("application",),
        ("infrastructure",),
        ("presentation",),
        ("bootstrap",),
    ),
    "hexagonal": (
        ("kernel",),
        ("domain",),
        ("application",),
        ("infrastructure", "presentation"),
        ("bootstrap",),
    ),
    "layered": (
        ("kernel",),
        ("domain",),
        ("infrastructure",),
        ("application",),
        ("presentation",),
        ("bootstrap",),
    ),
}
_LAYER_NAMES: Mapping[str, Mapping[str, str]] = {
    "clean": {},
    "hexagonal": {"infrastructure": "outbound", "presentation": "inbound"},
    "layered": {"infrastructure": "persistence", "application": "services"},
}
_ROLE_OF = {name: role for role, names in ROLE_NAMES.items() for name in names}


@attrs.frozen
class Assignment:
    """`module` goes to the layer of `role`, because of `reason`."""

    __repr__ = value_repr

    module: str
    role: str
    reason: str


@attrs.frozen
class AutoProposal:
    """The guess: each package's role, the closest style and the score of every candidate
    style (highest first), the signals seen, and the packages no name placed."""

    __repr__ = value_repr

    package: str
    assignments: tuple[Assignment, ...]
    preset: str
    scores: tuple[tuple[str, int], ...]
    signals: tuple[str, ...]
    unassigned: tuple[str, ...]

    def table(self, target: PresetTarget) -> dict[str, Any]:
        """The `[tool.inwards]` mapping: the layers of the found packages in the closest
        style's order (a structural style's own table, with its contexts)."""
        structural = {
            "vertical-slices": vertical_slices_table,
            "bounded-contexts": bounded_contexts_table,
            "django": django_table,
            "fastapi": fastapi_table,
        }
        if self.preset in structural:
            return structural[self.preset](target)
        by_role: dict[str, list[str]] = {}
        for assignment in self.assignments:
            by_role.setdefault(assignment.role, []).append(assignment.module)
        names = _LAYER_NAMES[self.preset]
        layers: list[Any] = []
        for rank in _LAYERS[self.preset]:
            group = [
                {"name": names.get(role, role), "modules": sorted(by_role[role])}
                for role in rank
                if role in by_role
            ]
            if group:
                layers.append(group[0] if len(group) == 1 else group)
        adapters = f"{self.package}.adapters"
        if (
            self.preset == "hexagonal"
            and layers
            and any(item.module.startswith(adapters + ".") for item in self.assignments)
        ):
            # The adapters package's own __init__ may name both sides: the composition's.
            last = layers[-1]
            if isinstance(last, dict) and last["name"] == "bootstrap":
                last["modules"] = sorted([*last["modules"], adapters])
            else:
                layers.append({"name": "bootstrap", "modules": [adapters]})
        return {**head(target), "layers": layers}


def role_of(name: str) -> str | None:
    """The role a package's last segment names, singular and plural alike."""
    lowered = name.lower()
    for candidate in (lowered, lowered.removesuffix("s"), lowered + "s"):
        if candidate in _ROLE_OF:
            return _ROLE_OF[candidate]
    return None


def propose(modules: Sequence[str], package: str) -> AutoProposal:
    """Guess a configuration from `modules`: the dotted names of the modules and packages
    that exist below the root (the top `package` may be among them)."""
    names = _Names(modules)
    assignments: list[Assignment] = []
    unassigned: list[str] = []
    for child in names.children(package):
        module = f"{package}.{child}"
        if child == "adapters" and {"inbound", "outbound"} & set(names.children(module)):
            for side in names.children(module):
                role = role_of(side)
                if role is None:
                    unassigned.append(f"{module}.{side}")
                else:
                    assignments.append(Assignment(f"{module}.{side}", role, _reason(side, role)))
            continue
        role = role_of(child)
        if role is None:
            unassigned.append(module)
        else:
            assignments.append(Assignment(module, role, _reason(child, role)))
    signals, units = _signals(names, package)
    scores = _scores(assignments, signals, units)
    preset = max(scores, key=lambda style: (scores[style], -TIE_ORDER.index(style)))
    ranked = tuple(sorted(scores.items(), key=lambda item: (-item[1], TIE_ORDER.index(item[0]))))
    return AutoProposal(
        package=package,
        assignments=tuple(assignments),
        preset=preset,
        scores=ranked,
        signals=tuple(signal for style, signal in signals),
        unassigned=tuple(unassigned),
    )


def _reason(name: str, role: str) -> str:
    return f"`{name}` is a usual name for the {role} layer"


class _Names:
    def __init__(self, modules: Sequence[str]) -> None:
        self._children: dict[str, set[str]] = {}
        for module in modules:
            parts = module.split(".")
            for depth in range(1, len(parts)):
                parent = ".".join(parts[:depth])
                self._children.setdefault(parent, set()).add(parts[depth])

    def children(self, parent: str) -> tuple[str, ...]:
        return tuple(sorted(self._children.get(parent, ())))

    def holds(self, parent: str, roles: Sequence[str]) -> bool:
        return any(role in self._children.get(parent, ()) for role in roles)


def _signals(names: _Names, package: str) -> tuple[list[tuple[str, str]], dict[str, int]]:
    """(style, what was seen) for each signal, and the units each structural style found."""
    signals: list[tuple[str, str]] = []
    units: dict[str, int] = {}
    top = set(names.children(package))
    use_cases = {"use_cases", "usecases", "interactors"}
    if use_cases & top or names.holds(f"{package}.application", tuple(use_cases)):
        signals.append(("clean", "use cases as a package of their own → clean"))
    sides = {"inbound", "outbound"} & set(names.children(f"{package}.adapters"))
    if sides:
        signals.append(("hexagonal", "adapters split into inbound/outbound → hexagonal"))
    if "persistence" in top:
        signals.append(("layered", "a `persistence` package → layered"))
    slices = [
        name
        for name in names.children(f"{package}.features")
        if names.holds(f"{package}.features.{name}", SLICE_ROLES)
    ]
    if slices:
        units["vertical-slices"] = len(slices)
        signals.append(("vertical-slices", f"{len(slices)} slice(s) under `features` → slices"))
    contexts = [name for name in top if names.holds(f"{package}.{name}", CONTEXT_ROLES)]
    if len(contexts) >= 2:
        units["bounded-contexts"] = len(contexts)
        signals.append(
            ("bounded-contexts", f"{len(contexts)} packages with their own layers → contexts")
        )
    apps = [
        name
        for name in top
        if names.holds(f"{package}.{name}", ("models",))
        and names.holds(f"{package}.{name}", ("views", "apps"))
    ]
    if apps:
        units["django"] = len(apps)
        signals.append(("django", f"{len(apps)} app(s) with models and views → django"))
    domains = [name for name in top if names.holds(f"{package}.{name}", ("router",))]
    if domains:
        units["fastapi"] = len(domains)
        signals.append(("fastapi", f"{len(domains)} domain(s) with a router → fastapi"))
    return signals, units


def _scores(
    assignments: Sequence[Assignment], signals: Sequence[tuple[str, str]], units: Mapping[str, int]
) -> dict[str, int]:
    found = {assignment.role for assignment in assignments}
    placed = sum(1 for assignment in assignments if assignment.role in _STYLE_ROLES)
    outside = sum(
        1 for assignment in assignments if assignment.role not in _STYLE_ROLES | {"kernel"}
    )
    missing = len(_STYLE_ROLES - found)
    scores: dict[str, int] = {}
    for style in TIE_ORDER:
        bonus = 3 * sum(1 for signalled, _ in signals if signalled == style)
        if style in _LAYERS:
            scores[style] = 2 * placed - outside - missing + bonus
        elif bonus:  # a structural style is a candidate only when its signal fired
            scores[style] = bonus + 2 * units.get(style, 0)
    return scores
