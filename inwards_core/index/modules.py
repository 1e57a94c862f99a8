"""The module index: which file is which module, what exists, and which layer owns what.

Built once per run from the configuration and the project listing (no disk access of its
own, nothing of the project imported). Module names are computed from `config.root`:
with root "src", `src/shop/x.py` is `shop.x` and `src/shop/__init__.py` is `shop`. A path
with a segment that is not an identifier (`my-script.py`, `foo.bar.py`, `my-pkg/`) is no
module; a directory without `__init__.py` is a namespace package (PEP 420).

Ownership: every layer entry is a `ModulePattern`; among the entries that match a name the
one with the biggest `PatternMatch.precedence()` wins, ties going to the layer listed first
and then to its earlier entry. Lookups of other names are memoised, because the engine asks
about the same imported names over and over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType

import attrs

from inwards_core.config.patterns import ModulePattern, parse_module_pattern
from inwards_core.config.values import Config, Layer
from inwards_core.index.stdlib import is_stdlib
from inwards_core.model.facts import ImportFact, ImportStyle
from inwards_core.ports import ProjectListing

FIRST_PARTY = "first-party"
STDLIB = "stdlib"
THIRD_PARTY = "third-party"

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

    name: str
    file: str
    is_package: bool
    layer: Layer | None


@attrs.frozen
class _Entry:
    """One `modules` entry of one layer, parsed."""

    layer_index: int
    entry_index: int
    layer: Layer
    pattern: ModulePattern


class _SegmentRuns:
    """Names matched by dotted patterns that may stand anywhere in a name, on whole
    segments: `migrations` matches `shop.orders.migrations` and everything below it.

    A leading `/` anchors a pattern at the top level. With `wildcards`, `*` in a segment
    stands for any run of characters and `?` for one character, never crossing a dot.
    """

    def __init__(self, texts: Iterable[str], *, wildcards: bool) -> None:
        # Unanchored one-segment patterns (the usual `migrations`, `*_pb2`) are checked per
        # segment with one set and one regex; the rest as runs of segments.
        literals: set[str] = set()
        wild: list[str] = []
        self._runs: list[tuple[bool, tuple[re.Pattern[str] | str, ...]]] = []
        for text in texts:
            anchored = text.startswith("/")
            segments = text.lstrip("/").split(".")
            if not all(segments):
                continue  # the config loader reports malformed entries; they match nothing
            if not anchored and len(segments) == 1:
                if wildcards and _is_wild(segments[0]):
                    wild.append(_segment_regex(segments[0]))
                else:
                    literals.add(segments[0])
                continue
            self._runs.append(
                (
                    anchored,
                    tuple(
                        re.compile(_segment_regex(seg)) if wildcards and _is_wild(seg) else seg
                        for seg in segments
                    ),
                )
            )
        self._single_literals = frozenset(literals)
        self._single_wild = re.compile("|".join(f"(?:{w})" for w in wild)) if wild else None
        self._cache: dict[str, bool] = {}
        self._segment_cache: dict[str, bool] = {}

    def __bool__(self) -> bool:
        return bool(self._single_literals or self._single_wild or self._runs)

    def covers(self, name: str) -> bool:
        known = self._cache.get(name)
        if known is None:
            known = self._cache[name] = self._covers(name.split("."))
        return known

    def _covers(self, segments: list[str]) -> bool:
        if any(self._segment_hit(segment) for segment in segments):
            return True
        for anchored, pattern in self._runs:
            last_start = 0 if anchored else len(segments) - len(pattern)
            for start in range(last_start + 1):
                if len(segments) - start >= len(pattern) and all(
                    _segment_matches(p, segments[start + offset])
                    for offset, p in enumerate(pattern)
                ):
                    return True
        return False

    def _segment_hit(self, segment: str) -> bool:
        known = self._segment_cache.get(segment)
        if known is None:
            known = segment in self._single_literals or (
                self._single_wild is not None and self._single_wild.fullmatch(segment) is not None
            )
            self._segment_cache[segment] = known
        return known


def _is_wild(segment: str) -> bool:
    return "*" in segment or "?" in segment


def _segment_regex(segment: str) -> str:
    """A regex that fullmatches what the glob `segment` matches, in time linear in the
    name times the pattern: `*a*a*a*b` as `.*a.*a.*a.*b` backtracked exponentially over a
    long file name. Each run between two `*` takes its first occurrence (an atomic group
    never gives it back), which is always right for runs of fixed length."""
    chunks = [
        "".join("." if ch == "?" else re.escape(ch) for ch in run) for run in segment.split("*")
    ]
    if len(chunks) == 1:
        return chunks[0]
    first, *middle, last = chunks
    return first + "".join(f"(?>.*?{chunk})" for chunk in middle) + ".*" + last


def _segment_matches(pattern: re.Pattern[str] | str, segment: str) -> bool:
    if isinstance(pattern, str):
        return pattern == segment
    return pattern.fullmatch(segment) is not None


def _root_prefix(root: str) -> str:
    """`"src"` -> `"src/"`, `"."` or `""` -> `""` (paths in the listing start there)."""
    cleaned = root.replace("\\", "/").strip()
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    cleaned = cleaned.strip("/")
    return "" if cleaned in ("", ".") else cleaned + "/"


def _is_segment(segment: str) -> bool:
    return segment.isidentifier() and segment != _PYCACHE


def _module_stem(filename: str) -> tuple[str, bool] | None:
    """The module name a file gives and whether it is a readable source; None if none.

    Extension modules carry an ABI tag between the name and the suffix
    (`x.cpython-311-x86_64-linux-gnu.so`, `x.cp311-win_amd64.pyd`); the name is what
    stands before the first dot.
    """
    for suffix in _SOURCE_SUFFIXES:
        if filename.endswith(suffix):
            stem = filename[: -len(suffix)]
            return (stem, True) if stem.isidentifier() else None
    for suffix in _COMPILED_SUFFIXES:
        if filename.endswith(suffix):
            stem = filename[: -len(suffix)]
            return (stem, False) if stem.isidentifier() else None
    for suffix in _EXTENSION_SUFFIXES:
        if filename.endswith(suffix):
            stem = filename.partition(".")[0]
            return (stem, False) if stem.isidentifier() else None
    return None


def _parents(name: str) -> Iterable[str]:
    """`a.b.c` -> `a`, `a.b` (the packages above a name, outermost first)."""
    index = name.find(".")
    while index != -1:
        yield name[:index]
        index = name.find(".", index + 1)


def _edit_distance(left: str, right: str, limit: int | None = None) -> int:
    """Levenshtein distance; with `limit`, any answer over it may come back as `limit + 1`
    (the rows stop once every cell is past it)."""
    if limit is not None and abs(len(left) - len(right)) > limit:
        return limit + 1
    previous = list(range(len(right) + 1))
    for i, left_char in enumerate(left, start=1):
        current = [i]
        for j, right_char in enumerate(right, start=1):
            current.append(
                min(
                    previous[j] + 1,
                    current[j - 1] + 1,
                    previous[j - 1] + (left_char != right_char),
                )
            )
        previous = current
        if limit is not None and min(previous) > limit:
            return limit + 1
    return previous[-1]


# How much comparing (characters of the missing name times characters of a candidate,
# summed) one index spends on suggesting close modules: each unknown import compared with
# every module of its package, in pure Python, took seconds per thousand findings. Past
# it, findings suggest none; a name longer than any module's is not a typo of one.
_CLOSEST_BUDGET = 5_000_000
_CLOSEST_MAX_LENGTH = 100


class ModuleIndex:
    """File <-> module name, what exists, and who owns what. Build it with `build`."""

    __slots__ = (
        "_children",
        "_closest_cache",
        "_closest_spent",
        "_dead",
        "_entries",
        "_existing",
        "_exists_cache",
        "_first_party_cache",
        "_first_party_tops",
        "_generated",
        "_ignored",
        "_literals",
        "_module_files",
        "_module_prefixes",
        "_namespace_packages",
        "_owner_cache",
        "_path_extending",
        "_selectors",
        "by_file",
        "config",
        "modules",
    )

    config: Config
    modules: Mapping[str, ModuleInfo]
    by_file: Mapping[str, ModuleInfo]

    def __init__(
        self,
        config: Config,
        *,
        sources: Mapping[str, tuple[str, bool]],
        module_files: frozenset[str],
        directories: frozenset[str],
        path_extending: frozenset[str],
    ) -> None:
        self.config = config
        self._entries = _parse_entries(config.layers)
        # A literal entry matches exactly the names at or below it, so it is found by dict
        # lookups of a name's prefixes; only selectors need the pattern matcher.
        self._literals: dict[str, list[_Entry]] = {}
        self._selectors: dict[str, list[_Entry]] = {}
        for entry in self._entries:
            if entry.pattern.is_selector:
                self._selectors.setdefault(entry.pattern.top_level, []).append(entry)
            else:
                self._literals.setdefault(entry.pattern.text, []).append(entry)
        self._owner_cache: dict[str, tuple[Layer, int] | None] = {}
        self._exists_cache: dict[str, bool] = {}
        self._first_party_cache: dict[str, bool] = {}
        self._closest_cache: dict[tuple[str, str, int], tuple[str, ...]] = {}
        self._closest_spent = 0
        self._generated = _SegmentRuns(config.generated, wildcards=True)
        self._ignored = _SegmentRuns(config.ignore, wildcards=False)
        self._namespace_packages = tuple(n for n in config.namespace_packages if n)
        self._path_extending = path_extending
        self._dead: tuple[_Entry, ...] | None = None

        # Every name something importable stands for: module files of any kind, their
        # packages, and every identifier directory (a namespace package, PEP 420).
        self._module_files = module_files
        self._module_prefixes = frozenset(
            {*module_files, *(p for name in module_files for p in _parents(name))}
        )
        self._existing = self._module_prefixes | directories
        # Children per parent ("" for the root), only of names that hold Python code.
        self._children: dict[str, set[str]] = {}
        for name in self._module_prefixes:
            parent, _, child = name.rpartition(".")
            self._children.setdefault(parent, set()).add(child)
        # A top-level namespace directory is first-party only when it holds Python code:
        # a `templates/` folder is not a package, and a namespace portion never shadows a
        # standard-library module (regular modules and packages do).
        self._first_party_tops = frozenset(
            {
                *(
                    top
                    for top in self._children.get("", ())
                    if top in module_files or not is_stdlib(top)
                ),
                *(p.partition(".")[0] for p in self._namespace_packages),
            }
        )

        infos = [
            ModuleInfo(name, file, is_package, self.layer_of(name))
            for name, (file, is_package) in sorted(sources.items())
        ]
        self.modules = MappingProxyType({info.name: info for info in infos})
        self.by_file = MappingProxyType({info.file: info for info in sorted(infos, key=_file)})

    # -- building --------------------------------------------------------------------

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
        prefix = _root_prefix(config.root)
        chosen: dict[str, tuple[int, str]] = {}
        module_files: set[str] = set()
        directories: set[str] = set()
        for path in listing.files:
            if not path.startswith(prefix):
                continue
            *folders, filename = path[len(prefix) :].split("/")
            if not all(_is_segment(folder) for folder in folders):
                continue
            parsed = _module_stem(filename)
            if parsed is None:
                continue
            stem, is_source = parsed
            is_package = stem == "__init__"
            name = ".".join(folders if is_package else [*folders, stem])
            if not name:
                continue  # an `__init__.py` directly in the root names no module
            module_files.add(name)
            if is_source:
                stub = filename.endswith(".pyi")
                if is_package:
                    priority = _PRIORITY_INIT_PYI if stub else _PRIORITY_INIT_PY
                else:
                    priority = _PRIORITY_MODULE_PYI if stub else _PRIORITY_MODULE_PY
                if name not in chosen or priority < chosen[name][0]:
                    chosen[name] = (priority, path)
        for path in listing.directories:
            if not path.startswith(prefix):
                continue
            folders = path[len(prefix) :].strip("/").split("/")
            if folders != [""] and all(_is_segment(folder) for folder in folders):
                directories.add(".".join(folders))
        sources = {
            name: (path, priority in (_PRIORITY_INIT_PY, _PRIORITY_INIT_PYI))
            for name, (priority, path) in chosen.items()
        }
        return cls(
            config,
            sources=sources,
            module_files=frozenset(module_files),
            directories=frozenset(directories),
            path_extending=frozenset(path_extending),
        )

    # -- ownership -------------------------------------------------------------------

    def owning_pattern(self, name: str) -> tuple[Layer, int] | None:
        """The layer owning the dotted `name` (a module or anything below one, such as
        `shop.domain.order.Order`) and the index of the winning entry in its `modules`."""
        try:
            return self._owner_cache[name]
        except KeyError:
            owner = self._owner_cache[name] = self._find_owner(name)
            return owner

    def layer_of(self, name: str) -> Layer | None:
        owner = self.owning_pattern(name)
        return None if owner is None else owner[0]

    def _find_owner(self, name: str) -> tuple[Layer, int] | None:
        best: _Entry | None = None
        best_key: tuple[tuple[int, int, int], int, int] | None = None
        if self._literals:
            for depth, prefix in enumerate((*_parents(name), name), start=1):
                for entry in self._literals.get(prefix, ()):
                    key = ((depth, depth, depth), -entry.layer_index, -entry.entry_index)
                    if best_key is None or key > best_key:
                        best, best_key = entry, key
        for entry in self._selectors.get(name.partition(".")[0], ()):
            found = entry.pattern.match(name)
            if found is None:
                continue
            key = (found.precedence(), -entry.layer_index, -entry.entry_index)
            if best_key is None or key > best_key:
                best, best_key = entry, key
        return None if best is None else (best.layer, best.entry_index)

    # -- existence and classification --------------------------------------------------

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
        return any(name == p or name.startswith(p + ".") for p in self._namespace_packages)

    def is_first_party(self, name: str) -> bool:
        """Whether the top-level package of `name` belongs to this project."""
        top = name.partition(".")[0]
        known = self._first_party_cache.get(top)
        if known is None:
            known = top in self._first_party_tops or (
                bool(self._generated) and self._generated.covers(top)
            )
            self._first_party_cache[top] = known
        return known

    def classify(self, name: str) -> str:
        """`"first-party"`, `"stdlib"` or `"third-party"`, in that order of precedence."""
        if self.is_first_party(name):
            return FIRST_PARTY
        if is_stdlib(name):
            return STDLIB
        return THIRD_PARTY

    def resolve_target(self, fact: ImportFact) -> str | None:
        """The module or name an import reaches: for `from pkg import sub`, `pkg.sub` when
        that is a module or package here, else `pkg`; the target for `import a.b`; the
        module for a star import. None when a relative import climbs too high."""
        if fact.style is ImportStyle.FROM:
            if fact.module is None:
                return None
            if fact.name is None:
                return fact.module
            parent = self.modules.get(fact.module)
            if parent is not None and not parent.is_package:
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

    def closest_modules(self, name: str, limit: int = 3) -> tuple[str, ...]:
        """Modules or packages in the package where `name` goes missing, closest to the
        missing segment by edit distance (ties by name)."""
        missing = self.missing_part(name)
        if missing is None or limit <= 0:
            return ()
        parent, segment = missing
        key = (parent, segment, limit)
        known = self._closest_cache.get(key)
        if known is None:
            known = self._closest_cache[key] = self._closest(parent, segment, limit)
        return known

    def _closest(self, parent: str, segment: str, limit: int) -> tuple[str, ...]:
        children = sorted(self._children.get(parent, ()))
        cost = len(segment) * sum(map(len, children))
        if len(segment) > _CLOSEST_MAX_LENGTH or self._closest_spent + cost > _CLOSEST_BUDGET:
            return ()
        self._closest_spent += cost
        best: list[tuple[int, str]] = []  # the `limit` closest so far, in order
        for child in children:
            bound = best[-1][0] if len(best) == limit else None
            distance = _edit_distance(segment, child, bound)
            if bound is None or distance <= bound:
                best.append((distance, child))
                best.sort()
                del best[limit:]
        return tuple(f"{parent}.{child}" if parent else child for _, child in best)

    # -- configuration against the tree -------------------------------------------------

    def unmatched_patterns(self) -> tuple[tuple[Layer, int], ...]:
        """Layer entries that match no module of the project (dead prefixes/selectors),
        in configuration order, each as the layer and the index in its `modules`."""
        return tuple((entry.layer, entry.entry_index) for entry in self._dead_entries())

    def empty_layers(self) -> tuple[Layer, ...]:
        """Layers none of whose entries matches a module (including layers without any)."""
        dead = set(self._dead_entries())
        alive = {entry.layer_index for entry in self._entries if entry not in dead}
        return tuple(layer for index, layer in enumerate(self.config.layers) if index not in alive)

    def _dead_entries(self) -> tuple[_Entry, ...]:
        if self._dead is None:
            by_top: dict[str, list[str]] = {}
            for name in self._module_files:
                by_top.setdefault(name.partition(".")[0], []).append(name)
            self._dead = tuple(
                entry
                for entry in self._entries
                if not self._matches_some_module(entry.pattern, by_top)
            )
        return self._dead

    def _matches_some_module(self, pattern: ModulePattern, by_top: dict[str, list[str]]) -> bool:
        if not pattern.is_selector:
            return pattern.text in self._module_prefixes
        return any(pattern.matches(name) for name in by_top.get(pattern.top_level, ()))

    def unassigned_packages(self) -> tuple[ModuleInfo, ...]:
        """The highest modules and packages that no layer owns, that are not ignored, and
        that hold no layer-owned module: `shop.common` once, never its children, and never
        `shop` when it holds the layers. For a namespace package (no `__init__`) the info
        points at the first file below it."""
        holding: set[str] = set()
        first_file: dict[str, str] = {}
        for info in self.modules.values():
            if info.layer is not None:
                holding.add(info.name)
                holding.update(_parents(info.name))
            for parent in _parents(info.name):
                if parent not in first_file or info.file < first_file[parent]:
                    first_file[parent] = info.file
        children: dict[str, set[str]] = {}
        for name in (*self.modules, *first_file):
            parent, _, child = name.rpartition(".")
            children.setdefault(parent, set()).add(child)

        found: list[ModuleInfo] = []
        pending = [""]
        while pending:
            parent = pending.pop()
            for child in children.get(parent, ()):
                name = f"{parent}.{child}" if parent else child
                if self.is_ignored(name):
                    continue
                if name in holding:
                    pending.append(name)
                elif name in self.modules:
                    found.append(self.modules[name])
                else:
                    found.append(ModuleInfo(name, first_file[name], True, None))
        return tuple(sorted(found, key=_name))

    # -- ignore / generated ------------------------------------------------------------

    def is_ignored(self, name: str) -> bool:
        """Whether an `ignore` entry covers `name` (whole segments anywhere, or from the
        top level with a leading `/`)."""
        return bool(self._ignored) and self._ignored.covers(name)

    def is_generated(self, name: str) -> bool:
        """Whether a `generated` pattern covers `name` (whole segments anywhere; `*` and
        `?` within one segment)."""
        return bool(self._generated) and self._generated.covers(name)


def _parse_entries(layers: tuple[Layer, ...]) -> tuple[_Entry, ...]:
    entries: list[_Entry] = []
    for layer_index, layer in enumerate(layers):
        for entry_index, text in enumerate(layer.modules):
            try:
                pattern = parse_module_pattern(text)
            except ValueError:
                continue  # reported by the config loader; such an entry owns nothing
            entries.append(_Entry(layer_index, entry_index, layer, pattern))
    return tuple(entries)


def _file(info: ModuleInfo) -> str:
    return info.file


def _name(info: ModuleInfo) -> str:
    return info.name
