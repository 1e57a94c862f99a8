"""What an import reaches: whether a module exists in the project, whose code a name is
(first-party, standard library, third-party), and the module an import statement targets.

Nothing of the project is imported: existence is read off the tree of names, the
`generated` and `namespace-packages` settings, and the packages whose `__init__` extends
`__path__` (below which nothing can be judged).
"""

from __future__ import annotations

import enum

from inwards_core.config.values import Config
from inwards_core.index.naming import ModuleTree
from inwards_core.index.segment_patterns import SegmentPatterns
from inwards_core.index.stdlib import is_stdlib
from inwards_core.model.facts import ImportFact, ImportStyle


class Provenance(enum.StrEnum):
    """Whose code a name is, as `ModuleIndex.classify` answers (and messages say it)."""

    FIRST_PARTY = "first-party"
    STDLIB = "stdlib"
    THIRD_PARTY = "third-party"
    # Another member of the uv workspace: not this project's code, not a library either.
    WORKSPACE = "workspace"


class Resolution:
    """Existence, provenance and import targets over one `ModuleTree`."""

    __slots__ = (
        "_existing",
        "_exists_cache",
        "_first_party_cache",
        "_first_party_tops",
        "_foreign",
        "_foreign_cache",
        "_foreign_tops",
        "_generated",
        "_namespace_packages",
        "_path_extending",
        "_plain_modules",
    )

    def __init__(self, config: Config, tree: ModuleTree, path_extending: frozenset[str]) -> None:
        self._existing = tree.existing
        # Source modules that are no package: they have attributes, never submodules.
        self._plain_modules = frozenset(tree.sources.keys() - tree.packages)
        self._generated = SegmentPatterns(config.generated, wildcards=True)
        self._namespace_packages = tuple(n for n in config.namespace_packages if n)
        self._path_extending = path_extending
        # Names under this project's top-level packages that are someone else's: another
        # workspace member's portion of a shared namespace, or one installed in the .venv.
        self._foreign = tuple(
            (name, Provenance.WORKSPACE) for name in config.workspace_packages if name
        ) + tuple((name, Provenance.THIRD_PARTY) for name in config.installed_portions if name)
        self._foreign_tops = frozenset(name.partition(".")[0] for name, _ in self._foreign)
        self._foreign_cache: dict[str, Provenance | None] = {}
        self._exists_cache: dict[str, bool] = {}
        self._first_party_cache: dict[str, bool] = {}
        # A top-level namespace directory is first-party only when it holds Python code:
        # a `templates/` folder is not a package, and a namespace portion never shadows a
        # standard-library module (regular modules and packages do).
        self._first_party_tops = frozenset(
            {
                *(
                    top
                    for top in tree.prefixes
                    if "." not in top  # the top level (`tree.children[""]`)
                    and (top in tree.module_files or not is_stdlib(top))
                ),
                *(p.partition(".")[0] for p in self._namespace_packages),
            }
        )

    def exists(self, name: str) -> bool:
        """Whether Python could find the module or package `name` in this project: a
        module file of any kind, a package, a namespace directory, a `generated` name, a
        name in a `namespace-packages` entry, or anything below a package that extends
        `__path__` (which can't be judged)."""
        if name in self._existing:
            return True
        try:
            return self._exists_cache[name]
        except KeyError:
            found = self._exists_cache[name] = self._exists_elsewhere(name)
            return found

    def _exists_elsewhere(self, name: str) -> bool:
        if not name or not all(name.split(".")):
            return False
        if self._generated and self._generated.covers(name):
            return True
        if any(name == p or name.startswith(p + ".") for p in self._path_extending):
            return True
        if self._foreign and self._foreign_kind(name) is not None:
            return True
        return any(name == p or name.startswith(p + ".") for p in self._namespace_packages)

    def _foreign_kind(self, name: str) -> Provenance | None:
        """The provenance of `name` when it is at or below another member's package or an
        installed namespace portion (the longest entry wins)."""
        if name.partition(".")[0] not in self._foreign_tops:
            return None
        try:
            return self._foreign_cache[name]
        except KeyError:
            pass
        best: tuple[str, Provenance] | None = None
        for entry, kind in self._foreign:
            if (name == entry or name.startswith(entry + ".")) and (
                best is None or len(entry) > len(best[0])
            ):
                best = (entry, kind)
        found = self._foreign_cache[name] = None if best is None else best[1]
        return found

    def is_generated(self, name: str) -> bool:
        """Whether a `generated` pattern covers `name` (whole segments anywhere; `*` and
        `?` within one segment)."""
        return bool(self._generated) and self._generated.covers(name)

    def is_first_party(self, name: str) -> bool:
        """Whether the top-level package of `name` belongs to this project."""
        if self._foreign and self._foreign_kind(name) is not None:
            return False  # a portion of a shared namespace that another member provides
        top = name.partition(".")[0]
        known = self._first_party_cache.get(top)
        if known is None:
            known = top in self._first_party_tops or (
                bool(self._generated) and self._generated.covers(top)
            )
            self._first_party_cache[top] = known
        return known

    def classify(self, name: str) -> Provenance:
        """Another workspace member's, first-party, standard library or third-party, in
        that order of precedence."""
        if self._foreign:
            kind = self._foreign_kind(name)
            if kind is not None:
                return kind
        if self.is_first_party(name):
            return Provenance.FIRST_PARTY
        if is_stdlib(name):
            return Provenance.STDLIB
        return Provenance.THIRD_PARTY

    def resolve_target(self, fact: ImportFact) -> str | None:
        """The module or name an import reaches: for `from pkg import sub`, `pkg.sub` when
        that is a module or package here, else `pkg`; the target for `import a.b`; the
        module for a star import. None when a relative import climbs too high."""
        if fact.style is ImportStyle.FROM:
            if fact.module is None:
                return None
            if fact.name is None:
                return fact.module
            if fact.module in self._plain_modules:
                return fact.module  # a plain module has attributes, never submodules
            candidate = f"{fact.module}.{fact.name}"
            return candidate if self.exists(candidate) else fact.module
        if fact.style is ImportStyle.IMPORT:
            return fact.target if fact.target is not None else fact.module
        return fact.module

    def missing_part(self, name: str) -> tuple[str, str] | None:
        """For a name that does not exist, the longest existing package above it and the
        first missing segment: `("shop.domain", "taxes")` for `shop.domain.taxes`, `("",
        "shop")` when the top level itself is missing. None when `name` exists."""
        if self.exists(name):
            return None
        parent = ""
        for segment in name.split("."):
            candidate = f"{parent}.{segment}" if parent else segment
            if not self.exists(candidate):
                return parent, segment
            parent = candidate
        return None  # unreachable for a missing name; kept for the type checker
