"""The direct members of each package, from the project's file listing (never from imports):
what package shapes (`[[tool.inwards.shape]]`) and name rules (`[[tool.inwards.names]]`)
judge.

A member is a module (`orders.py`, or a stub `orders.pyi` alone) or a subpackage (a
directory with an `__init__.py(i)`, or a namespace directory holding Python code). Each
stands in a report for one file: a module's own file, a subpackage's `__init__.py(i)`, or
for a namespace subpackage the first source file below it in path order.
"""

from __future__ import annotations

import attrs

from inwards_core.index.naming import ModuleTree, parents


@attrs.frozen
class PackageMember:
    """One direct member of `package`: `name` is its last segment, `file` the source file
    that stands for it (None when only compiled files do: `_speedups.so`)."""

    package: str
    name: str
    is_package: bool
    file: str | None

    @property
    def dotted(self) -> str:
        return f"{self.package}.{self.name}"

    @property
    def shown(self) -> str:
        """As shape patterns write it: `name/` for a subpackage, `name.py` (or `name.pyi`,
        for a stub alone) for a module."""
        if self.is_package:
            return self.name + "/"
        if self.file is not None and self.file.endswith(".pyi"):
            return self.name + ".pyi"
        return self.name + ".py"


class PackageMembers:
    """The packages of a `ModuleTree` and their members; the first file of each namespace
    package is found in one pass over the sources, on first need."""

    __slots__ = ("_first_files", "_members", "_tree")

    def __init__(self, tree: ModuleTree) -> None:
        self._tree = tree
        self._first_files: dict[str, str] | None = None
        self._members: dict[str, tuple[PackageMember, ...]] = {}

    def is_package(self, name: str) -> bool:
        tree = self._tree
        if name in tree.packages:
            return True
        # A directory of Python code without `__init__` (a module of the same name wins).
        return name in tree.children and name not in tree.sources and name != ""

    def packages(self) -> tuple[str, ...]:
        """Every package of the project, regular or namespace, in name order."""
        tree = self._tree
        found = set(tree.packages)
        found.update(name for name in tree.children if name and name not in tree.sources)
        return tuple(sorted(found))

    def members(self, package: str) -> tuple[PackageMember, ...]:
        """The direct members of `package`, in name order (none for a module)."""
        found = self._members.get(package)
        if found is None:
            if self.is_package(package):
                children = sorted(self._tree.children.get(package, ()))
                found = tuple(self._member(package, child) for child in children)
            else:
                found = ()
            self._members[package] = found
        return found

    def package_file(self, package: str) -> str | None:
        """The file that stands for a package: its `__init__.py(i)`, or the first source
        file below a namespace package (None for a package without any source file)."""
        tree = self._tree
        if package in tree.packages:
            return tree.sources[package]
        return self._first_file_map().get(package)

    def members_at(self, module: str, file: str) -> tuple[PackageMember, ...]:
        """The members that `file` (the source of `module`) stands for: the module itself
        (a package through its `__init__`), and each namespace package above it whose
        first file it is. Top-level names are members of no package."""
        found: list[PackageMember] = []
        package, _, name = module.rpartition(".")
        if package:
            member = self._member(package, name)
            if member.file == file:
                found.append(member)
        namespaces = [
            above
            for above in parents(module)
            if "." in above and above not in self._tree.sources and self.is_package(above)
        ]
        if namespaces:
            first = self._first_file_map()
            for above in namespaces:
                if first.get(above) == file:
                    holder, _, last = above.rpartition(".")
                    found.append(PackageMember(holder, last, is_package=True, file=file))
        return tuple(sorted(found, key=lambda member: member.dotted))

    def _member(self, package: str, child: str) -> PackageMember:
        dotted = f"{package}.{child}"
        if self.is_package(dotted):
            return PackageMember(package, child, is_package=True, file=self.package_file(dotted))
        return PackageMember(package, child, is_package=False, file=self._tree.sources.get(dotted))

    def _first_file_map(self) -> dict[str, str]:
        """Namespace package -> the first source file below it, in path order."""
        if self._first_files is None:
            tree = self._tree
            first: dict[str, str] = {}
            for name, file in tree.sources.items():
                for above in parents(name):
                    if above in tree.sources:
                        continue
                    known = first.get(above)
                    if known is None or file < known:
                        first[above] = file
            self._first_files = first
        return self._first_files
