"""What INW017's findings say beyond the message: its guidance parameters, the layers or
contexts a node may name, and the name a misspelt one most likely stands for. Shared by the
kind (its `diagrams` entries) and `name_checks` (the diagrams themselves)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inwards_core import LIST_LIMIT, Config, quoted

PARAMS: Mapping[str, str] = {
    "name": "the node id or label the finding is about, as drawn",
    "closest": "the closest name the configuration or the code has (empty when none)",
    "known": "the layers or contexts a node of this diagram may name",
    "sort": 'what the diagram draws: "layer" or "context"',
    "entry": "the `diagrams` entry (for a finding about an entry)",
}


def params(**given: str) -> dict[str, str]:
    """Every guidance parameter of the kind, the ones not given empty."""
    return {name: given.get(name, "") for name in PARAMS}


def known_names(config: Config, sort: str) -> str:
    names = (
        [layer.name for layer in config.layers]
        if sort == "layer"
        else [context.name for context in config.contexts]
    )
    return quoted(", ".join(f'"{quoted(name)}"' for name in names), LIST_LIMIT)


def closest_name(name: str, names: Sequence[str]) -> str:
    """The name `name` most likely stands for: the same name in other case, else the
    nearest by edit distance when near enough to be a typo (at most a third of the longer
    name, at least one edit), else the one name it abbreviates (`infra`); "" when none."""
    from inwards_core import edit_distance  # the hints module loads only when it runs

    lowered = name.lower()
    best, best_distance = "", 0
    for candidate in names:
        if lowered == candidate.lower():
            return candidate
        limit = max(1, max(len(name), len(candidate)) // 3)
        distance = edit_distance(lowered, candidate.lower(), limit)
        if distance <= limit and (not best or distance < best_distance):
            best, best_distance = candidate, distance
    if best or len(name) < 3:
        return best
    longer = [candidate for candidate in names if candidate.lower().startswith(lowered)]
    return longer[0] if len(longer) == 1 else ""
