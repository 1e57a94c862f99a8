"""Rule families as pluggy plugins, found through the entry-point group `inwards`.

`PluginHost` is the only place `pm.hook` is called: it narrows pluggy's `Any` to typed
values and checks that no two families claim the same prefix or kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType

import pluggy

from inwards_core.rules.kinds import Family

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


class FamilyLoadError(Exception):
    """Two installed families claim the same prefix or check kind, or a plugin failed."""


class PluginHost:
    def __init__(self, manager: pluggy.PluginManager) -> None:
        self._manager = manager

    @classmethod
    def create(
        cls, *, plugins: Iterable[ModuleType | object] = (), entry_points: bool = True
    ) -> PluginHost:
        manager = pluggy.PluginManager(PROJECT_NAME)
        manager.add_hookspecs(_Specs)
        for plugin in plugins:
            manager.register(plugin)
        if entry_points:
            try:
                manager.load_setuptools_entrypoints(PROJECT_NAME)
            except Exception as error:  # a broken third-party plugin must name itself
                raise FamilyLoadError(f"A rule family plugin failed to load: {error}") from error
        manager.check_pending()
        return cls(manager)

    def plugin_distributions(self) -> dict[str, str]:
        """Entry-point name -> "distribution version" for every plugin loaded from one."""
        found: dict[str, str] = {}
        for plugin, dist in self._manager.list_plugin_distinfo():
            name = self._manager.get_name(plugin) or repr(plugin)
            found[name] = f"{dist.project_name} {dist.version}"
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
