"""What the INW family contributes to the core's commands through the plugin hooks
(`inwards_core.plugins`): its lines of the architecture brief (`inwards context`), the
explanation of a module (`inwards explain-module`) and the kinds import-linter's contracts
become (`inwards import-config`). Registered by `plugin.py`; leaving the family out of a
run (INWARDS_DISABLE_PLUGINS) leaves these out with it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from inwards_core import hookimpl

if TYPE_CHECKING:
    from inwards_core import ActiveRule, Config, Layer, ModuleIndex, RuleLayering
    from inwards_core.families.inw.module_explanation import ModuleExplanation

PURE_DOMAIN = "INW005"
PORTS_ABSTRACT = "INW014"
# What INW005's default deny list holds, in words (the list itself: docs/rules/INW005.md).
DEFAULT_DENY_WORDS = (
    "web frameworks, databases and ORMs, network clients, the standard library's I/O "
    "(INW005's default list)"
)
# import-linter's contract types and the generic kinds that take their options as written.
IMPORT_LINTER_KINDS: Mapping[str, str] = {
    "layers": "inw.layers",
    "independence": "inw.independence",
    "forbidden": "inw.forbidden",
    "protected": "inw.protected",
    "acyclic_siblings": "inw.acyclic",
}


def _code(items: Iterable[str]) -> str:
    return ", ".join(f"`{item}`" for item in items)


@hookimpl
def inwards_brief_layer_lines(
    config: Config, group: Sequence[Layer], rules: Mapping[str, ActiveRule]
) -> Sequence[str]:
    """With INW005 on: the libraries kept out of each layer of the ring, and (after the
    innermost ring) the rule's `deny` entries, which are by module, not by layer."""
    rule = rules.get(PURE_DOMAIN)
    if rule is None:
        return []
    from inwards_core.families.inw.layering.inw005_pure_domain import PureDomainOptions

    out = [f"   {line}" for layer in group for line in _library_lines(config, layer, group)]
    if group[0].rank == 0 and isinstance(rule.options, PureDomainOptions):
        out += [
            f"   In {_code(entry.modules)}, whatever the layer: no {_code(entry.libraries)}."
            for entry in rule.options.deny
        ]
    return out


def _library_lines(config: Config, layer: Layer, group: Sequence[Layer]) -> list[str]:
    """What INW005 keeps out of the layer (the layer named when its group has several)."""
    of = f" of {layer.name}" if len(group) > 1 else ""
    out: list[str] = []
    if layer.deny_libraries is not None:
        if layer.deny_libraries:
            out.append(f"Libraries kept out{of}: {_code(layer.deny_libraries)}.")
    elif layer.rank == 0 and config.ranks >= 2:
        out.append(f"Libraries kept out{of}: {DEFAULT_DENY_WORDS}.")
    if layer.extend_deny_libraries:
        out.append(f"Also kept out{of}: {_code(layer.extend_deny_libraries)}.")
    if layer.allow_libraries is not None:
        allowed = _code(layer.allow_libraries) or "none"
        out.append(f"Third-party libraries{of}: only {allowed}.")
    return out


@hookimpl
def inwards_brief_lines(config: Config, rules: Mapping[str, ActiveRule]) -> Sequence[str]:
    """With INW014 on: where the ports live."""
    rule = rules.get(PORTS_ABSTRACT)
    if rule is None:
        return []
    from inwards_core.families.inw.ports.inw014_ports_abstract import PortsAbstractOptions

    modules = rule.options.modules if isinstance(rule.options, PortsAbstractOptions) else ()
    where = _code(modules) if modules else "every module with a `ports` segment in its name"
    return [
        "",
        f"Ports live in {where}: interfaces only (abstract classes, protocols, values), "
        "no working code (INW014).",
    ]


@hookimpl
def inwards_explain_module(
    config: Config, index: ModuleIndex, module: str, rules: Mapping[str, ActiveRule] | None
) -> ModuleExplanation:
    from inwards_core.families.inw.module_explanation import explain_module

    # With INW005 off, `check` keeps no library out whatever the layers' lists say.
    libraries_checked = rules is None or PURE_DOMAIN in rules
    return explain_module(config, index, module, rules, libraries_checked=libraries_checked)


@hookimpl
def inwards_rule_layering(rule: ActiveRule) -> RuleLayering | None:
    from inwards_core.families.inw.rule_layering import layering_of

    return layering_of(rule)


@hookimpl
def inwards_import_linter_kinds() -> Mapping[str, str]:
    return IMPORT_LINTER_KINDS
