"""Rule families as pluggy plugins, found through the entry-point group `inwards`.

`PluginHost` is the only place pluggy is used: it registers the plugins it is given and
loads the entry points it is given (`inwards_core.adapters.entry_points` finds the installed
ones), narrows pluggy's `Any` to typed values and checks that no two families claim the
same prefix or kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Protocol

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
