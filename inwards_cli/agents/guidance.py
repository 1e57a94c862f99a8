"""Guidance before an edit: for a file in a layer or a context, what its layer may import,
the public modules of the contexts it may use, and the rules in force there (each with the
root its definition comes from), in a few hundred tokens. Said once per file per session,
and again when the rules change.

The facts come from what `inwards explain-module` says (the family plugin that explains
modules) and from the rule set of the session, so the guidance and the checks agree.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from inwards_cli.agents.reply import clipped
from inwards_cli.composition import installed_plugin_host
from inwards_core.config.values import Config
from inwards_core.engine import Tree
from inwards_core.index.naming import is_module_segment
from inwards_core.model.findings import RootKind
from inwards_core.reporting.escaping import printable
from inwards_core.rules.selection import ActiveRule
from inwards_core.version import inwards_version

MAX_GUIDANCE_CHARACTERS = 1600  # about four hundred tokens
MAX_NAMES = 40
# The check kinds that judge a module by its layer, its context or its package's shape:
# they are in force wherever the module is placed.
_PLACE_KINDS = {
    "inw.layer-dependency": "layer",
    "inw.pure-domain": "libraries",
    "inw.dynamic-import": "layer",
    "inw.context-independence": "context",
    "inw.public-api-only": "context",
    "inw.package-shape": "shape",
}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def module_of(config: Config, relative: str) -> str | None:
    """The module a source file under the root is (None for any other path)."""
    root = config.root.strip("/")
    prefix = "" if root in ("", ".") else root + "/"
    if not relative.startswith(prefix) or not relative.endswith((".py", ".pyi")):
        return None
    parts = relative[len(prefix) :].rsplit(".", 1)[0].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(is_module_segment(part) for part in parts):
        return None
    return ".".join(parts)


def guidance(
    config: Config, tree: Tree, rules: Sequence[ActiveRule], project_dir: Any, relative: str
) -> str | None:
    """The guidance for an edit of `relative`; None when no layer or context holds it."""
    module = module_of(config, relative)
    if module is None:
        return None
    host, _ = installed_plugin_host(project_dir)
    explanation = host.explain_module(config, tree.index, module)
    if explanation is None:
        return None
    facts = explanation.to_json()
    layer, context = facts.get("layer"), facts.get("context")
    if layer is None and context is None:
        return None
    places = {"layer": layer is not None, "context": context is not None}
    places["shape"] = any(value is not None for value in (facts.get("shapes") or {}).values())
    libraries = (facts["may_import"] or {}).get("libraries") or {}
    places["libraries"] = libraries.get("allow") is not None or bool(libraries.get("deny"))
    lines = [f"inwards: before you edit {relative} (module {module}):"]
    if layer is not None:
        lines += _layer_lines(config, layer["name"], facts["may_import"])
    if context is not None:
        lines += _context_lines(config, context["name"])
    chosen = _rules_here(rules, module, places)
    if chosen:
        lines.append("Rules in force here:")
        fill = {
            "module": module,
            "layer": layer["name"] if layer else "",
            "context": context["name"] if context else "",
        }
        lines += [_rule_line(rule, fill) for rule in chosen]
    return clipped(printable_lines(lines), MAX_GUIDANCE_CHARACTERS)


def printable_lines(lines: Iterable[str]) -> str:
    return "\n".join(printable(line) for line in lines)


def _names(items: Sequence[str]) -> str:
    shown = ", ".join(items[:MAX_NAMES])
    return shown + (f" and {len(items) - MAX_NAMES} more" if len(items) > MAX_NAMES else "")


def _layer_lines(config: Config, name: str, may: Mapping[str, Any]) -> list[str]:
    usable = list(may.get("layers") or [])
    outer = [layer.name for layer in config.layers if layer.name not in usable]
    line = f'- Layer "{name}": may import the layers {_names(usable)}'
    line += f"; never {_names(outer)}." if outer else "."
    lines = [line]
    libraries = may.get("libraries") or {}
    allow, deny = libraries.get("allow"), list(libraries.get("deny") or [])
    if allow is not None:
        lines.append(f"- Third-party libraries: only {_names(list(allow)) or 'none'}.")
    elif deny:
        lines.append(f"- Libraries kept out of this layer: {_names(deny)}.")
    return lines


def _context_lines(config: Config, name: str) -> list[str]:
    context = config.context_named(name)
    if context is None:
        return []
    lines = [
        f'- Context "{name}": may import the contexts {_names([name, *context.depends_on])}, '
        "the others not at all."
    ]
    for other_name in context.depends_on:
        other = config.context_named(other_name)
        if other is None:
            continue
        public = [("=" if entry.exact else "") + entry.module for entry in other.public]
        shown = _names(public) if public else "none yet (its API is undecided)"
        lines.append(f'  Public modules of "{other_name}": {shown}.')
    return lines


def _rules_here(
    rules: Sequence[ActiveRule], module: str, places: Mapping[str, bool]
) -> list[ActiveRule]:
    chosen = []
    for rule in rules:
        if not rule.enabled:
            continue
        place = _PLACE_KINDS.get(rule.rule.kind.id)
        if place is not None:
            if places.get(place):
                chosen.append(rule)
            continue
        definition = rule.rule.definition
        chosen_by_project = (
            definition.origin.root is not RootKind.CORE or definition.default != "on"
        )
        applies = getattr(rule.options, "applies_to", None)
        if chosen_by_project and (not callable(applies) or applies(module)):
            chosen.append(rule)
    return sorted(chosen, key=lambda rule: rule.code)


def _rule_line(rule: ActiveRule, fill: Mapping[str, str]) -> str:
    definition = rule.rule.definition
    origin = definition.origin
    where = f"{origin.root.value} rule"
    if origin.root is not RootKind.CORE:
        where += f", {origin.path}"
    line = f"- {rule.code} {rule.name} ({where}): {' '.join(definition.summary.split())}"
    advice = " ".join(definition.guidance.summary.split())
    unknown = [name for name in _PLACEHOLDER.findall(advice) if not fill.get(name)]
    if advice and len(unknown) <= 1:  # past one blank the advice says little
        filled = _PLACEHOLDER.sub(lambda found: fill.get(found.group(1)) or "…", advice)
        line += f" Fix: {filled}"
    return line


def rules_key(rule_set: Any, table_text: str) -> str:
    """What the guidance depends on: the rule set in force and `[tool.inwards]`."""
    text = f"{rule_set.fingerprint(inwards_version())}\0{table_text}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
