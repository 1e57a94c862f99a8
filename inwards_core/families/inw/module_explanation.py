"""What the configuration says about one module (`inwards explain-module`): its layer and
the entry that won it, its context, `ignore` and `generated`, the shapes over it, what it
may import, and what the enabled rules of INW's generic kinds say about it (the rules
`inwards import-config` writes among them). Answers come from the same functions the INW
kinds use (ownership of the index, `shape_rules.Shapes`, INW005's deny lists, the generic
kinds' layers and entries), so the explanation and `check` agree.

It lives in the INW family because shapes and INW005's library lists are the family's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core import ActiveRule, Config, Context, Layer, ModuleIndex
from inwards_core.families.inw.layering.inw005_pure_domain import denied_entries
from inwards_core.families.inw.module_entries import owner, pattern_of
from inwards_core.families.inw.rule_layering import rules_over
from inwards_core.families.inw.shapes.shape_rules import Shapes

__all__ = ["EXPLANATION_KEYS", "ModuleExplanation", "explain_module"]

# The keys of the JSON document, in order (documented in the command's help and README).
EXPLANATION_KEYS = (
    "module",
    "file",
    "is_package",
    "layer",
    "context",
    "ignored",
    "generated",
    "shapes",
    "may_import",
    "rules",
)


@attrs.frozen
class ModuleExplanation:
    """The facts about one module; `to_json` is the stable document of `--json`."""

    module: str
    file: str | None
    is_package: bool
    layer: dict[str, Any] | None
    context: dict[str, Any] | None
    ignored: bool
    generated: bool
    shapes: dict[str, Any]
    may_import: dict[str, Any]
    rules: list[dict[str, Any]] = attrs.field(factory=list)

    def to_json(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in EXPLANATION_KEYS}

    def render(self) -> str:
        lines = [f"{self.module}" + (f" ({self.file})" if self.file else "")]
        lines.append(f"  layer:    {_layer_line(self.layer)}")
        lines.append(f"  context:  {_context_line(self.context)}")
        lines.append(f"  ignored:  {'yes (an `ignore` entry covers it)' if self.ignored else 'no'}")
        lines.append(f"  generated: {'yes (a `generated` pattern)' if self.generated else 'no'}")
        for role, shape in self.shapes.items():
            text = "none" if shape is None else f"{shape['key']} ({shape['package']})"
            lines.append(f"  shape ({role}): {text}")
        may = self.may_import
        if may["layers"] is not None:
            lines.append(f"  may import layers: {_listed(may['layers'])}")
            lines.append(f"  libraries: {_libraries_line(may['libraries'])}")
        if may["contexts"] is not None:
            lines.append(f"  may import contexts: {_listed(may['contexts'])}")
        if self.rules:
            lines.append("  rules:")
            lines += [f"    {rule['code']} {rule['name']}: {rule['says']}" for rule in self.rules]
        return "\n".join(lines) + "\n"


def explain_module(
    config: Config,
    index: ModuleIndex,
    name: str,
    rules: Mapping[str, ActiveRule] | None = None,
    *,
    libraries_checked: bool = True,
) -> ModuleExplanation:
    """Explain `name`, a module or package of the project (check `index.modules` first),
    with the enabled rules by code (`rules`; None when they were not resolved: no rule is
    listed). `libraries_checked` false says INW005 is off: no library list is shown."""
    info = index.modules.get(name)
    owned = index.owning_pattern(name)
    layer = None if owned is None else owned[0]
    context = owner(name, {m: c for c in config.contexts for m in c.modules})
    return ModuleExplanation(
        module=name,
        file=None if info is None else info.file,
        is_package=info is not None and info.is_package,
        layer=None if owned is None else _layer_facts(config, name, *owned),
        context=None if context is None else _context_facts(context, name),
        ignored=index.is_ignored(name),
        generated=index.is_generated(name),
        shapes=_shape_facts(config, name, info is not None and info.is_package),
        may_import={
            "layers": None if layer is None else _usable_layers(config, layer),
            "libraries": (
                None if layer is None or not libraries_checked else _libraries(config, layer)
            ),
            "contexts": None if context is None else [context.name, *context.depends_on],
        },
        rules=[] if rules is None else rules_over(index, name, rules),
    )


def _layer_facts(config: Config, name: str, layer: Layer, entry_index: int) -> dict[str, Any]:
    entry = layer.modules[entry_index]
    rivals = [
        {"layer": other.name, "entry": text}
        for other in config.layers
        for text in other.modules
        if (other, text) != (layer, entry) and _matches(text, name)
    ]
    kind = "selector" if pattern_of(entry).is_selector else "prefix"
    why = f"the {kind} {entry!r} covers it"
    if rivals:
        beaten = ", ".join(f"{rival['entry']!r} ({rival['layer']})" for rival in rivals)
        why += (
            f" and wins over {beaten}: the most specific entry wins (deepest last literal "
            "segment, then depth, then literal segments), ties going to the layer listed first"
        )
    return {
        "name": layer.name,
        "key": f"{layer.key}.modules[{entry_index}]",
        "entry": entry,
        "kind": kind,
        "why": why,
        "also_matching": rivals,
    }


def _matches(text: str, name: str) -> bool:
    try:
        return pattern_of(text).matches(name)
    except ValueError:  # the loader reports a bad entry; it owns nothing
        return False


def _context_facts(context: Context, name: str) -> dict[str, Any]:
    public = next((entry for entry in context.public if entry.covers(name)), None)
    return {
        "name": context.name,
        "key": context.key,
        "prefix": max((m for m in context.modules if _under(name, m)), key=len, default=None),
        "public": public is not None,
        "public_entry": None if public is None else ("=" if public.exact else "") + public.module,
    }


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _shape_facts(config: Config, name: str, is_package: bool) -> dict[str, Any]:
    shapes = Shapes(config)
    found: dict[str, Any] = {}
    parent = name.rpartition(".")[0]
    for role, package in (("as_member", parent), ("as_package", name if is_package else "")):
        if not package:
            continue
        rule = shapes.of(package)
        found[role] = None if rule is None else {"key": rule.shape.key, "package": package}
    return found


def _usable_layers(config: Config, layer: Layer) -> list[str]:
    """Its own layer and the inner ones (lower rank); siblings of its rank are not."""
    return [other.name for other in config.layers if other is layer or other.rank < layer.rank]


def _libraries(config: Config, layer: Layer) -> dict[str, Any]:
    allow = layer.allow_libraries
    return {
        "allow": None if allow is None else list(allow),
        "deny": list(denied_entries(config, layer)),
    }


def _libraries_line(libraries: dict[str, Any] | None) -> str:
    if libraries is None:  # a layer whose libraries INW005, turned off, does not check
        return "not checked (INW005 is off)"
    allow = libraries["allow"]
    allowed = "any third-party library" if allow is None else _listed(allow)
    return f"{allowed}; denied: {_listed(libraries['deny'])}"


def _layer_line(layer: dict[str, Any] | None) -> str:
    if layer is None:
        return "none (no layer entry covers it)"
    return f"{layer['name']} ({layer['key']}): {layer['why']}"


def _context_line(context: dict[str, Any] | None) -> str:
    if context is None:
        return "none"
    public = f"public through {context['public_entry']!r}" if context["public"] else "internal"
    return f"{context['name']} (longest prefix {context['prefix']!r}; {public})"


def _listed(names: list[str]) -> str:
    return ", ".join(names) if names else "none"
