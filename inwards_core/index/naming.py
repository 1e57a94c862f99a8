"""File <-> module name: which file is which module, and every name something importable
of the project stands for.

Module names are computed from `config.root`: with root "src", `src/shop/x.py` is `shop.x`
and `src/shop/__init__.py` is `shop`. A segment need not be an identifier: Django's
`migrations/0001_initial.py`, alembic's `versions/0882f9657f22_add_x.py` or `my-script.py`
are loaded by name with importlib (`import_module("shop.migrations.0001_initial")`) and
import like any other module. A segment holding a dot (`foo.bar.py`, `v1.2/`) names no
module, since the dot would split it; nor does `__pycache__`, or one holding a space or a
character that doesn't print. A directory without
`__init__.py` is a namespace package (PEP 420).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from inwards_core.config.values import Layer
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import ProjectListing

# Sources the checks read. A stub counts only where no `.py` stands beside it.
_SOURCE_SUFFIXES = (".py", ".pyi")
# Files Python (or a build step) imports that are not sources we read.
_COMPILED_SUFFIXES = (".pyx", ".pyc")
_EXTENSION_SUFFIXES = (".so", ".pyd")
_PYCACHE = "__pycache__"

# Which file stands for a module when several do; lower wins. A regular package beats a
# module of the same name, as Python's path finder decides, and a `.py` beats its stub.
_PRIORITY_INIT_PY = 0
_PRIORITY_MODULE_PY = 1
_PRIORITY_INIT_PYI = 2
_PRIORITY_MODULE_PYI = 3


@attrs.frozen
class ModuleInfo:
    """One Python source module of the project.

    `name` is dotted (`shop.domain` for `shop/domain/__init__.py`), `file` is POSIX and
    relative to the project directory, `is_package` is set for an `__init__.py(i)`, and
    `layer` is the layer that owns it, or None when no layer does.
    """

    __repr__ = value_repr

    name: str
    file: str
    is_package: bool
    layer: Layer | None


def parents(name: str) -> Iterable[str]:
    """`a.b.c` -> `a`, `a.b` (the packages above a name, outermost first)."""
    index = name.find(".")
    while index != -1:
        yield name[:index]
        index = name.find(".", index + 1)


class ModuleTree:
    """The names the project's files give. Build it with `scan`.

    `sources` maps each source module to the file that stands for it, and `packages` names
    those that are packages (an `__init__.py(i)` stands for them); `module_files` holds every name a module file of any kind gives (compiled and
    extension modules too), `prefixes` those and their packages, `existing` those and every
    identifier directory (a namespace package), and `children` the child names of each
    name that holds Python code ("" for the top level).
    """

    __slots__ = ("_children", "existing", "module_files", "packages", "prefixes", "sources")

    def __init__(
        self,
        sources: Mapping[str, str],
        packages: frozenset[str],
        module_files: frozenset[str],
        directories: frozenset[str],
    ) -> None:
        self.sources = sources
        self.packages = packages
        self.module_files = module_files
        self.prefixes = _with_parents(module_files)
        self.existing = self.prefixes | directories
        self._children: dict[str, set[str]] | None = None

    @property
    def children(self) -> dict[str, set[str]]:
        """The child names of each name that holds Python code ("" for the top level);
        built on first use (hints and package members ask, a one-file check doesn't)."""
        if self._children is None:
            self._children = {}
            for name in self.prefixes:
                parent, _, child = name.rpartition(".")
                self._children.setdefault(parent, set()).add(child)
        return self._children

    @classmethod
    def scan(cls, root: str, listing: ProjectListing) -> ModuleTree:
        """Name every file and directory of `listing` under `root`."""
        prefix = _root_prefix(root)
        cut = len(prefix)
        chosen: dict[str, tuple[int, str]] = {}
        module_files: set[str] = set()
        # Many files share a directory: its segments are judged, and joined, once.
        dotted_of: dict[str, str | None] = {}
        for path in listing.files:
            if not path.startswith(prefix):
                continue
            directory, slash, filename = path[cut:].rpartition("/")
            if not slash:
                dotted: str | None = ""
            elif directory in dotted_of:
                dotted = dotted_of[directory]
            else:
                split = directory.split("/")
                valid = all(_is_segment(folder) for folder in split)
                dotted = dotted_of[directory] = ".".join(split) if valid else None
            if dotted is None:
                continue
            parsed = _module_stem(filename)
            if parsed is None:
                continue
            stem, is_source = parsed
            is_package = stem == "__init__"
            name = dotted if is_package else (f"{dotted}.{stem}" if dotted else stem)
            if not name:
                continue  # an `__init__.py` directly in the root names no module
            module_files.add(name)
            if is_source:
                priority = _priority(is_package, stub=filename.endswith(".pyi"))
                if name not in chosen or priority < chosen[name][0]:
                    chosen[name] = (priority, path)
        sources = {name: path for name, (_, path) in chosen.items()}
        packages = frozenset(
            name
            for name, (priority, _) in chosen.items()
            if priority in (_PRIORITY_INIT_PY, _PRIORITY_INIT_PYI)
        )
        return cls(sources, packages, frozenset(module_files), _directories(prefix, listing))


def _with_parents(names: frozenset[str]) -> frozenset[str]:
    """`names` and every package above one of them."""
    found = set(names)
    for name in names:
        parent = name.rpartition(".")[0]
        # Once a parent is found, so are the ones above it (or they will be, when the name
        # that put it there is walked in its turn).
        while parent and parent not in found:
            found.add(parent)
            parent = parent.rpartition(".")[0]
    return frozenset(found)


def _priority(is_package: bool, *, stub: bool) -> int:
    if is_package:
        return _PRIORITY_INIT_PYI if stub else _PRIORITY_INIT_PY
    return _PRIORITY_MODULE_PYI if stub else _PRIORITY_MODULE_PY


def _directories(prefix: str, listing: ProjectListing) -> frozenset[str]:
    """The dotted names of the identifier directories under the root."""
    directories: set[str] = set()
    for path in listing.directories:
        if not path.startswith(prefix):
            continue
        folders = path[len(prefix) :].strip("/").split("/")
        if folders != [""] and all(_is_segment(folder) for folder in folders):
            directories.add(".".join(folders))
    return frozenset(directories)


def _root_prefix(root: str) -> str:
    """`"src"` -> `"src/"`, `"."` or `""` -> `""` (paths in the listing start there)."""
    cleaned = root.replace("\\", "/").strip()
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    cleaned = cleaned.strip("/")
    return "" if cleaned in ("", ".") else cleaned + "/"


def is_module_segment(segment: str) -> bool:
    """Whether a file or directory name can be a segment of a dotted module name: a name
    importlib loads, so not only an identifier (`0001_initial`, `my-script`); never one
    holding a dot, a space or a character that doesn't print (a control or bidi
    character: a name built to hurt, not to be imported)."""
    return (
        bool(segment)
        and "." not in segment
        and segment.isprintable()
        and " " not in segment
        and segment != _PYCACHE
    )


_is_segment = is_module_segment


def _module_stem(filename: str) -> tuple[str, bool] | None:
    """The module name a file gives and whether it is a readable source; None if none.

    Extension modules carry an ABI tag between the name and the suffix
    (`x.cpython-311-x86_64-linux-gnu.so`, `x.cp311-win_amd64.pyd`); the name is what
    stands before the first dot, and must be an identifier (it names the module's `PyInit_`
    function).
    """
    for suffix in _SOURCE_SUFFIXES:
        if filename.endswith(suffix):
            stem = filename[: -len(suffix)]
            return (stem, True) if _is_segment(stem) else None
    for suffix in _COMPILED_SUFFIXES:
        if filename.endswith(suffix):
            stem = filename[: -len(suffix)]
            return (stem, False) if _is_segment(stem) else None
    for suffix in _EXTENSION_SUFFIXES:
        if filename.endswith(suffix):
            stem = filename.partition(".")[0]
            return (stem, False) if stem.isidentifier() else None
    return None
