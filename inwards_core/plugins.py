"""Rule families as pluggy plugins, found through the entry-point group `inwards`.

`PluginHost` is the only place pluggy is used: it registers the plugins it is given and
loads the entry points it is given (`inwards_core.adapters.entry_points` finds the installed
ones), narrows pluggy's `Any` to typed values and checks that no two families claim the
same prefix or kind. Besides its families, a plugin may contribute to the core's commands
(the hooks of `_Specs`): lines of the architecture brief, the explanation of a module, the
kinds import-linter's contracts become. The core names no family: what a left-out plugin
contributed is absent from the run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol

import pluggy

from inwards_core.config.values import Config, Layer
from inwards_core.index.modules import ModuleIndex
from inwards_core.rules.kinds import Family
from inwards_core.rules.layering import RuleLayering
from inwards_core.rules.selection import ActiveRule

PROJECT_NAME = "inwards"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


class _Specs:
    @hookspec
    def inwards_register_rule_families(self) -> Sequence[Family]:  # type: ignore[empty-body]
        """Return the rule families this plugin provides.

        A family names its code prefix, its check kinds, the package holding its core rule
        definitions (`*.toml`, one per rule), and the distribution that ships it.
        """

    @hookspec
    def inwards_brief_layer_lines(  # type: ignore[empty-body]
        self, config: Config, group: Sequence[Layer], rules: Mapping[str, ActiveRule]
    ) -> Sequence[str]:
        """Lines the architecture brief writes under one ring of layers (`group`, the
        layers sharing a rank, innermost ring first), indented by three spaces: what the
        family's rules among `rules` (the enabled ones, by code) keep out of those layers."""

    @hookspec
    def inwards_brief_lines(  # type: ignore[empty-body]
        self, config: Config, rules: Mapping[str, ActiveRule]
    ) -> Sequence[str]:
        """Paragraphs of the architecture brief, after the sibling groups and before the
        contexts, each starting with an empty line: what the family's rules among `rules`
        (the enabled ones, by code) ask of the code."""

    @hookspec(firstresult=True)
    def inwards_explain_module(
        self,
        config: Config,
        index: ModuleIndex,
        module: str,
        rules: Mapping[str, ActiveRule] | None,
    ) -> ModuleExplanation | None:
        """Explain `module` (a module of `index`) for `inwards explain-module`, with the
        enabled rules by code (`rules`; None when they were not resolved): the first
        plugin to answer explains it."""

    @hookspec(firstresult=True)
    def inwards_rule_layering(self, rule: ActiveRule) -> RuleLayering | None:
        """The layering `rule` checks, when its kind is one of this family's that layers
        modules (None otherwise): `inwards diagram --rule`, `inwards context` and
        `inwards explain-module` show it. The first plugin to answer describes it."""

    @hookspec
    def inwards_import_linter_kinds(self) -> Mapping[str, str]:  # type: ignore[empty-body]
        """import-linter contract type (`layers`, `independence`, `forbidden`, `protected`,
        `acyclic_siblings`) -> the id of this family's check kind that takes the options
        `inwards import-config` writes for it (those of INW's generic kinds)."""


class ModuleExplanation(Protocol):
    """What `inwards explain-module` prints: as text, and as the `--json` object."""

    def render(self) -> str: ...
    def to_json(self) -> dict[str, Any]: ...


class FamilyLoadError(Exception):
    """Two installed families claim the same prefix or check kind, or a plugin failed."""


class PluginEntryPoint(Protocol):
    """An entry point of the `inwards` group: a plugin to import, and whose it is."""

    @property
    def name(self) -> str: ...
    @property
    def target(self) -> str: ...  # "package.module" or "package.module:attribute"
    @property
    def version(self) -> str: ...
    def project_name(self) -> str:
        """The distribution's name as its metadata declares it."""
        ...

    def load(self) -> object: ...


class PluginHost:
    def __init__(
        self, manager: pluggy.PluginManager, entry_points: Sequence[PluginEntryPoint] = ()
    ) -> None:
        self._manager = manager
        self._entry_points = tuple(entry_points)

    @classmethod
    def create(
        cls,
        *,
        plugins: Iterable[ModuleType | object] = (),
        entry_points: Iterable[PluginEntryPoint] = (),
    ) -> PluginHost:
        """A host for `plugins` and the plugins of `entry_points` (for those installed,
        `inwards_core.adapters.entry_points.installed_entry_points()`). An entry point that
        fails to import or to register is a `FamilyLoadError` naming it, its target and its
        distribution."""
        manager = pluggy.PluginManager(PROJECT_NAME)
        manager.add_hookspecs(_Specs)
        for plugin in plugins:
            manager.register(plugin)
        points = tuple(entry_points)
        for point in points:
            try:
                plugin = point.load()
                if not manager.is_registered(plugin):  # also given in `plugins`: one family
                    manager.register(plugin)
            except Exception as error:  # a broken third-party plugin must name itself
                raise FamilyLoadError(
                    f'The rule family plugin "{point.name}" ({point.target}) of '
                    f"{point.project_name()} {point.version} failed to load: {error}"
                ) from error
        try:
            manager.check_pending()
        except pluggy.PluginValidationError as error:
            raise FamilyLoadError(f"A rule family plugin failed to load: {error}") from error
        return cls(manager, points)

    def plugin_distributions(self) -> dict[str, str]:
        """Entry-point name -> "distribution version" for every plugin loaded from one."""
        found: dict[str, str] = {}
        for point in self._entry_points:
            found.setdefault(point.name, f"{point.project_name()} {point.version}")
        return found

    def families(self) -> tuple[Family, ...]:
        results: list[Sequence[Family]] = self._manager.hook.inwards_register_rule_families()
        families: list[Family] = []
        for batch in results:
            for family in batch:
                if not isinstance(family, Family):
                    raise FamilyLoadError(
                        f"A plugin returned {family!r} from inwards_register_rule_families; "
                        "expected inwards_core.Family values."
                    )
                families.append(family)
        _check_claims(families)
        return tuple(sorted(families, key=lambda f: f.prefix))

    def brief_layer_lines(
        self, config: Config, group: Sequence[Layer], rules: Mapping[str, ActiveRule]
    ) -> list[str]:
        """Every plugin's lines under the ring `group`, in the order they were registered."""
        hook = self._manager.hook.inwards_brief_layer_lines
        return _joined(hook(config=config, group=group, rules=rules))

    def brief_lines(self, config: Config, rules: Mapping[str, ActiveRule]) -> list[str]:
        """Every plugin's paragraphs of the brief, in the order they were registered."""
        return _joined(self._manager.hook.inwards_brief_lines(config=config, rules=rules))

    def explain_module(
        self,
        config: Config,
        index: ModuleIndex,
        module: str,
        rules: Mapping[str, ActiveRule] | None = None,
    ) -> ModuleExplanation | None:
        """The first plugin's explanation of `module`, with the enabled rules by code
        (`rules`; None: not resolved); None when no plugin explains modules."""
        found: ModuleExplanation | None = self._manager.hook.inwards_explain_module(
            config=config, index=index, module=module, rules=rules
        )
        return found

    def rule_layering(self, rule: ActiveRule) -> RuleLayering | None:
        """The layering `rule` checks, as its family describes it; None when no family
        says it layers modules."""
        found: RuleLayering | None = self._manager.hook.inwards_rule_layering(rule=rule)
        if found is not None and not isinstance(found, RuleLayering):
            raise FamilyLoadError(
                f"A plugin returned {found!r} from inwards_rule_layering; expected an "
                "inwards_core.RuleLayering or None."
            )
        return found

    def import_linter_kinds(self) -> dict[str, str]:
        """Contract type -> kind id, of every plugin (the one registered first wins a type)."""
        kinds: dict[str, str] = {}
        results: list[Mapping[str, str]] = self._manager.hook.inwards_import_linter_kinds()
        for given in reversed(results):
            for contract_type, kind in given.items():
                kinds.setdefault(contract_type, kind)
        return kinds


def _joined(results: list[Sequence[str]]) -> list[str]:
    """pluggy calls the plugin registered last first: its results reversed are in the
    order of registration."""
    return [line for lines in reversed(results) for line in lines]


def _check_claims(families: Sequence[Family]) -> None:
    prefixes: dict[str, Family] = {}
    kinds: dict[str, Family] = {}
    for family in families:
        other = prefixes.get(family.prefix)
        if other is not None:
            raise FamilyLoadError(
                f'Two installed families claim the code prefix "{family.prefix}": '
                f"{other.distribution} {other.version} and {family.distribution} {family.version}."
            )
        prefixes[family.prefix] = family
        for kind in family.kinds:
            other = kinds.get(kind.id)
            if other is not None:
                raise FamilyLoadError(
                    f'Two installed families register the check kind "{kind.id}": '
                    f"{other.distribution} {other.version} and {family.distribution} {family.version}."
                )
            kinds[kind.id] = family
