"""The module index: one object over the index's parts, as check kinds see it through
`ProjectModel.index`.

Built once per run from the configuration and the project listing (no disk access of its
own, nothing of the project imported). The parts, each in its module of this room:
`naming` (file <-> module name), `ownership` (which layer owns a name, `ignore`),
`resolution` (what exists, whose code a name is, what an import reaches), `hints`
(closest names for a missing module), `coverage` (layer entries that own nothing,
packages no layer owns) and `members` (the direct members of each package).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from inwards_core.config.values import Config, Layer
from inwards_core.index.naming import ModuleInfo, ModuleTree
from inwards_core.index.ownership import Ownership
from inwards_core.index.resolution import Provenance, Resolution
from inwards_core.model.facts import ImportFact
from inwards_core.ports import ProjectListing

if TYPE_CHECKING:
    from inwards_core.index.coverage import DeadConfiguration
    from inwards_core.index.hints import ClosestNames
    from inwards_core.index.members import PackageMember, PackageMembers

__all__ = ["ModuleIndex", "ModuleInfo"]


class ModuleIndex:
    """File <-> module name, what exists, and who owns what. Build it with `build`.

    `modules` maps each source module's name to its `ModuleInfo`, `by_file` each file
    (both built on first use; `module` and `modules_under` build only the infos asked for).
    The questions kinds ask per import are the parts' own methods, bound here (a method
    that passed them on would add a call to each of the engine's hundred thousand):
    `owning_pattern`, `layer_of` and `is_ignored` (see `ownership.Ownership`), `exists`,
    `is_generated`, `is_first_party`, `classify`, `resolve_target` and `missing_part`
    (see `resolution.Resolution`).
    """

    __slots__ = (
        "_by_file",
        "_closest",
        "_dead",
        "_entries",
        "_infos",
        "_members",
        "_modules",
        "_names_by_file",
        "_tree",
        "_unassigned",
        "classify",
        "config",
        "exists",
        "is_first_party",
        "is_generated",
        "is_ignored",
        "layer_of",
        "missing_part",
        "owning_pattern",
        "resolve_target",
    )

    config: Config
    owning_pattern: Callable[[str], tuple[Layer, int] | None]
    layer_of: Callable[[str], Layer | None]
    is_ignored: Callable[[str], bool]
    exists: Callable[[str], bool]
    is_generated: Callable[[str], bool]
    is_first_party: Callable[[str], bool]
    classify: Callable[[str], Provenance]
    resolve_target: Callable[[ImportFact], str | None]
    missing_part: Callable[[str], tuple[str, str] | None]

    def __init__(
        self, config: Config, tree: ModuleTree, path_extending: frozenset[str] = frozenset()
    ) -> None:
        self.config = config
        ownership = Ownership(config)
        resolution = Resolution(config, tree, path_extending)
        self.owning_pattern = ownership.owning_pattern
        self.layer_of = ownership.layer_of
        self.is_ignored = ownership.is_ignored
        self.exists = resolution.exists
        self.is_generated = resolution.is_generated
        self.is_first_party = resolution.is_first_party
        self.classify = resolution.classify
        self.resolve_target = resolution.resolve_target
        self.missing_part = resolution.missing_part
        # Hints and coverage are built on first need: a check of a few clean files never
        # imports them.
        self._tree = tree
        self._entries = ownership.entries
        self._closest: ClosestNames | None = None
        self._dead: DeadConfiguration | None = None
        self._members: PackageMembers | None = None
        self._unassigned: tuple[ModuleInfo, ...] | None = None
        # A module's info (with the layer that owns it) is built when asked for: a check of
        # one file asks for a few, a whole-project run for all of them once (`modules`).
        self._infos: dict[str, ModuleInfo] = {}
        self._modules: Mapping[str, ModuleInfo] | None = None
        self._by_file: Mapping[str, ModuleInfo] | None = None
        self._names_by_file: dict[str, list[str]] | None = None

    @property
    def modules(self) -> Mapping[str, ModuleInfo]:
        """Each source module's name to its `ModuleInfo`, in name order."""
        if self._modules is None:
            sources = self._tree.sources
            self._modules = MappingProxyType(
                {name: self._info(name, sources[name]) for name in sorted(sources)}
            )
        return self._modules

    @property
    def by_file(self) -> Mapping[str, ModuleInfo]:
        """Each source module's file to its `ModuleInfo`, in file order."""
        if self._by_file is None:
            infos = sorted(self.modules.values(), key=_file)
            self._by_file = MappingProxyType({info.file: info for info in infos})
        return self._by_file

    def module(self, name: str) -> ModuleInfo | None:
        """The `ModuleInfo` of the source module `name`, or None when no file is that module
        (`modules.get(name)`, without building the others')."""
        file = self._tree.sources.get(name)
        return None if file is None else self._info(name, file)

    def modules_under(self, path: str) -> list[ModuleInfo]:
        """The modules whose file is `path` or lies below the folder `path` (POSIX,
        relative to the project directory; "" for every module), in name order."""
        if not path:
            return list(self.modules.values())
        if path.endswith((".py", ".pyi")):
            # A module's file: nothing lies below it (a folder can't share its name), so
            # its own names are the answer. An editor asks this on every keystroke, and
            # scanning every source would cost more than reading the file.
            if self._names_by_file is None:
                self._names_by_file = {}
                for name, file in self._tree.sources.items():
                    self._names_by_file.setdefault(file, []).append(name)
            names = self._names_by_file.get(path)
            if names is not None:
                return [self._info(name, path) for name in sorted(names)]
        folder = path + "/"
        found = {
            name: file
            for name, file in self._tree.sources.items()
            if file == path or file.startswith(folder)
        }
        return [self._info(name, found[name]) for name in sorted(found)]

    def _info(self, name: str, file: str) -> ModuleInfo:
        info = self._infos.get(name)
        if info is None:
            info = ModuleInfo(name, file, name in self._tree.packages, self.layer_of(name))
            self._infos[name] = info
        return info

    @classmethod
    def build(
        cls,
        config: Config,
        listing: ProjectListing,
        path_extending: frozenset[str] = frozenset(),
    ) -> ModuleIndex:
        """Index every module under `config.root`.

        `path_extending` names the packages whose `__init__` extends `__path__`: nothing
        below them can be judged, so `exists` accepts every name there.
        """
        return cls(config, ModuleTree.scan(config.root, listing), frozenset(path_extending))

    def closest_modules(self, name: str, limit: int = 3) -> tuple[str, ...]:
        """Modules or packages in the package where `name` goes missing, closest to the
        missing segment by edit distance (ties by name)."""
        missing = self.missing_part(name)
        if missing is None or limit <= 0:
            return ()
        parent, segment = missing
        if self._closest is None:
            from inwards_core.index.hints import ClosestNames

            self._closest = ClosestNames(self._tree.children)
        return self._closest.closest(parent, segment, limit)

    def unmatched_patterns(self) -> tuple[tuple[Layer, int], ...]:
        """Layer entries that match no module of the project (dead prefixes/selectors),
        in configuration order, each as the layer and the index in its `modules`."""
        return self._dead_configuration().unmatched_patterns()

    def empty_layers(self) -> tuple[Layer, ...]:
        """Layers none of whose entries matches a module (including layers without any)."""
        return self._dead_configuration().empty_layers()

    def misplaced_root(self) -> str | None:
        """The directory below the root that holds the layers' modules when no layer owns
        a module at the root (a src layout without `root = "src"`), or None."""
        prefixes = self._tree.prefixes
        if any(e.pattern.text in prefixes for e in self._entries if not e.pattern.is_selector):
            return None  # the usual answer, without importing coverage
        from inwards_core.index.coverage import misplaced_root

        found = misplaced_root(self._entries, self._tree)
        if found is None or len(self.empty_layers()) < len(self.config.layers):
            return None
        return found

    def unassigned_packages(self) -> tuple[ModuleInfo, ...]:
        """The highest modules and packages that no layer owns, that are not ignored, and
        that hold no layer-owned module (see `coverage.unassigned_packages`)."""
        if self._unassigned is None:  # an index lives as long as its tree: a session's runs
            from inwards_core.index.coverage import unassigned_packages

            self._unassigned = unassigned_packages(self.modules, self.is_ignored)
        return self._unassigned

    def packages(self) -> tuple[str, ...]:
        """Every package of the project (a directory with an `__init__.py(i)`, or one of
        Python code without it), in name order."""
        return self._package_members().packages()

    def members(self, package: str) -> tuple[PackageMember, ...]:
        """The direct members of `package` (modules and subpackages), from the file
        listing, in name order (see `members.PackageMember`)."""
        return self._package_members().members(package)

    def package_file(self, package: str) -> str | None:
        """The file that stands for a package in a report: its `__init__.py(i)`, or the
        first source file below a namespace package."""
        return self._package_members().package_file(package)

    def members_at(self, info: ModuleInfo) -> tuple[PackageMember, ...]:
        """The package members whose file is `info.file`: the module itself, and each
        namespace package above it whose first file it is."""
        return self._package_members().members_at(info.name, info.file)

    def _package_members(self) -> PackageMembers:
        if self._members is None:
            from inwards_core.index.members import PackageMembers

            self._members = PackageMembers(self._tree)
        return self._members

    def _dead_configuration(self) -> DeadConfiguration:
        if self._dead is None:
            from inwards_core.index.coverage import DeadConfiguration

            self._dead = DeadConfiguration(self.config.layers, self._entries, self._tree)
        return self._dead


def _file(info: ModuleInfo) -> str:
    return info.file
