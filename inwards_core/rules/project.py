"""The immutable project model every check kind receives.

The engine builds it once per run: the configuration, the module index (which file is
which module, who owns what), and the facts of every file it read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from inwards_core.config.values import Config
from inwards_core.index.modules import ModuleIndex, ModuleInfo
from inwards_core.index.naming import parents
from inwards_core.model.facts import ImportFact, ModuleFacts
from inwards_core.model.findings import Span
from inwards_core.model.value_repr import value_repr
from inwards_core.suppression_verdicts import CommentVerdict

if TYPE_CHECKING:
    from inwards_core.model.content_facts import ContentFacts

# Reads the content facts of modules (through the cache), file -> facts; a file missing
# from the result could not be read.
ContentReader = Callable[[Sequence[ModuleInfo]], Mapping[str, "ContentFacts"]]

_Shared = TypeVar("_Shared")


@attrs.frozen
class ImportEdge:
    """One import of a read module, as the import-graph kinds see it.

    `target` is what the import reaches: for first-party code the module the index resolves
    (`ModuleIndex.resolve_target`), otherwise the dotted name as written (`django.db.models`
    for `from django.db import models`). Dynamic imports with a readable target count too.
    `type_checking`: a static import in the body of `if TYPE_CHECKING:`, which never runs.
    `statement_line`: the line its statement starts on when the imported name stands on
    another one (`ImportFact.statement_line`), else 0; `line` is the one to show.
    """

    __repr__ = value_repr

    importer: str
    file: str
    target: str
    first_party: bool
    span: Span
    statement: str
    dynamic: bool = False
    type_checking: bool = False
    statement_line: int = 0

    @property
    def line(self) -> int:
        """The line of the import statement, as import-linter names an import."""
        return self.statement_line or self.span.line


class PerFileMemo:
    """What a model computes once per file, keyed by the file it was computed from: each
    file's resolved imports and import edges, the dotted prefixes of what it imports, the
    facts of packages read for `extended_at`, top-level names and content facts read on
    demand. Each depends on that one file's facts (and the module index), so a warm session
    keeps it between runs and forgets the files that changed. (A plain class: it is built
    for every run and imported on every start, where an attrs class costs more.)"""

    __slots__ = ("content", "edges", "more", "names", "prefixes", "resolved")

    def __init__(self) -> None:
        self.resolved: dict[str, tuple[tuple[ImportFact, str | None], ...]] = {}
        self.edges: dict[str, tuple[ImportEdge, ...]] = {}
        self.prefixes: dict[str, frozenset[str]] = {}
        self.more: dict[str, ModuleFacts | None] = {}
        self.names: dict[str, tuple[str, ...]] = {}
        self.content: dict[str, ContentFacts | None] = {}

    def forget(self, files: Iterable[str]) -> None:
        for file in files:
            for table in (
                self.resolved,
                self.edges,
                self.prefixes,
                self.more,
                self.names,
                self.content,
            ):
                table.pop(file, None)


@attrs.frozen
class ProjectModel:
    """`facts` maps a file (POSIX, relative to the project dir) to its facts; it holds
    every file that was read, which is at least every file in `checked`. `checked` are the
    files per-file checks report on (all of them on a whole-project run, the named ones
    with PATHS). `whole_project` tells project-scope kinds whether they may run.
    `listed`: with PATHS, the named modules that only a kind judging from the file listing
    takes (`CheckKind.judges_listed`, INW007); their facts are not read.

    What is read is every module a layer owns, plus what the enabled rules ask for
    (`CheckKind.reads`): so `checked` may hold modules that no layer owns, and a kind that
    judges layered code only filters on `ModuleInfo.layer`."""

    __repr__ = value_repr

    config: Config
    index: ModuleIndex
    facts: Mapping[str, ModuleFacts]
    checked: tuple[ModuleInfo, ...]
    whole_project: bool
    listed: tuple[ModuleInfo, ...] = attrs.field(default=(), kw_only=True)
    # Filled for review kinds (which run after suppressions are applied).
    suppression_verdicts: tuple[CommentVerdict, ...] = ()
    # Reads one more module's facts on demand (the engine's, through the cache); None reads
    # nothing beyond `facts`.
    read_more: Callable[[ModuleInfo], ModuleFacts | None] | None = attrs.field(
        default=None, eq=False, repr=False
    )
    # Reads the top-level names of a module (`ModuleFacts.names`, through the cache) for
    # `top_names`; None takes them from `facts`.
    read_names: Callable[[ModuleInfo], tuple[str, ...] | None] | None = attrs.field(
        default=None, eq=False, repr=False
    )
    # Reads content facts for `content`; None: no content rule runs, none are read.
    read_contents: ContentReader | None = attrs.field(default=None, eq=False, repr=False)
    # The files `diagrams` names that a diagram rule reads: path -> text; and each
    # `diagrams` entry with the paths it matched.
    documents: Mapping[str, str] = attrs.field(factory=dict, kw_only=True)
    document_matches: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, kw_only=True)

    # What is computed once per file and kept (see `PerFileMemo`); a warm session hands
    # the next run what the files that did not change made.
    memo: PerFileMemo = attrs.field(
        factory=lambda: PerFileMemo(), eq=False, repr=False, kw_only=True
    )
    # What `shared` computed over the whole model, this run only.
    _shared: dict[Callable[[ProjectModel], Any], Any] = attrs.field(
        factory=dict, eq=False, repr=False, alias="_shared"
    )

    def shared(self, compute: Callable[[ProjectModel], _Shared]) -> _Shared:
        """What `compute` makes of this model, computed once per run: kinds that need the
        same pass over the project (every import into another context, say) share it by
        passing the same module-level function."""
        if compute in self._shared:
            return self._shared[compute]  # type: ignore[no-any-return]
        found = self._shared[compute] = compute(self)
        return found

    def top_names(self, info: ModuleInfo) -> tuple[str, ...] | None:
        """The names the top level of a module this run read binds (`ModuleFacts.names`);
        None for a module it didn't read. Few kinds need them, for few modules, so a run
        reads them on first need (a pass over the text that every file would pay
        otherwise)."""
        facts = self.facts.get(info.file)
        if facts is None:
            return None
        if self.read_names is None:
            return facts.names
        found = self.memo.names.get(info.file)
        if found is None:
            found = self.memo.names[info.file] = self.read_names(info) or ()
        return found

    def imports_any(self, info: ModuleInfo, modules: Iterable[str]) -> bool:
        """Whether the module imports one of `modules` or anything below one (`sqlalchemy`
        covers `from sqlalchemy.orm import Session`), statically or by a dynamic import
        whose target can be read; a module this run did not read is read on demand.
        Computed once per module, for every kind that narrows by imports."""
        prefixes = self.memo.prefixes.get(info.file)
        if prefixes is None:
            prefixes = self.memo.prefixes[info.file] = self._imported_prefixes(info)
        return any(module in prefixes for module in modules)

    def _imported_prefixes(self, info: ModuleInfo) -> frozenset[str]:
        facts = self.facts.get(info.file)
        if facts is None and self.read_more is not None:
            facts = self.read_more(info)
        if facts is None:
            return frozenset()
        names = [fact.target or fact.module for fact in facts.imports]
        names += [fact.target for fact in facts.dynamic_imports]
        found: set[str] = set()
        for name in names:
            while name and name not in found:
                found.add(name)
                name = name.rpartition(".")[0]
        return frozenset(found)

    def content(self, info: ModuleInfo) -> ContentFacts | None:
        """The content facts of any module of the index (functions, classes, calls,
        bindings: `inwards_core.ContentFacts`), for the rules that ask for them
        (`ReadScope.content`); None when the file could not be read or no content rule
        runs. The engine reads those of the modules the rules judge in one batch; any other
        is read here on first need, through the cache."""
        if info.file in self.memo.content:
            return self.memo.content[info.file]
        self.read_content_of((info,))
        return self.memo.content.get(info.file)

    def content_held(self, info: ModuleInfo) -> ContentFacts | None:
        """The module's content facts if this run has read them already (in the first
        batch, which `ReadScope.content_imports` and `content_words` narrow, or on demand),
        without reading any: a kind that judges only what its narrowing let through asks
        this, and `content` for the modules it follows."""
        return self.memo.content.get(info.file)

    def read_content_of(self, infos: Sequence[ModuleInfo]) -> None:
        """Reads the content facts of these modules in one batch (parsed in parallel
        where the caller allows), for `content` to answer from."""
        wanted = [info for info in infos if info.file not in self.memo.content]
        if not wanted:
            return
        found = self.read_contents(wanted) if self.read_contents is not None else {}
        for info in wanted:
            self.memo.content[info.file] = found.get(info.file)

    def extended_at(self, name: str) -> str | None:
        """What keeps the files from telling whether `name` exists: the package where it
        goes missing, when its `__init__` extends or replaces `__path__` (another
        distribution may add `pkg.sdk` to `pkg`), a name at or above it that the
        `__init__` of a package above it puts in `sys.modules`, or a package above it whose
        `__init__` adds a finder to `sys.meta_path` (which may serve `pkg.cli.errors` from
        another module); None when the files tell.
        Python imports every package above a name first, so their `__init__`s are sure to
        have run: they are read here, on first need, whether or not a layer owns them."""
        missing = self.index.missing_part(name)
        if missing is None or not missing[0]:
            return None
        deepest = missing[0]
        for package in (*parents(deepest), deepest):
            facts = self._package_facts(package)
            if facts is None:
                continue
            if (package == deepest and facts.extends_path) or facts.import_hook_line:
                return package
            for registered in facts.registers:
                if name == registered or name.startswith(registered + "."):
                    return registered
        return None

    def import_hooks(self) -> frozenset[str]:
        """The packages whose `__init__`, among the files this run has read (or read for
        `extended_at`), adds an import hook: cheap to ask, so a kind that cares asks it
        before any work (most projects have none)."""
        found: set[str] = set()
        for table in (self.facts, self.memo.more):
            for file, facts in table.items():
                if facts is not None and facts.import_hook_line:
                    info = self.index.by_file.get(file)
                    if info is not None and info.is_package:
                        found.add(info.name)
        return frozenset(found)

    def import_hook(self, package: str) -> tuple[str, int] | None:
        """The file and line where the `__init__` of `package` adds a finder to
        `sys.meta_path` (an import hook), or None when it adds none (or `package` is no
        package with an `__init__`); read on first need, as for `extended_at`."""
        facts = self._package_facts(package)
        info = self.index.module(package)
        if facts is None or info is None or not facts.import_hook_line:
            return None
        return info.file, facts.import_hook_line

    def _package_facts(self, package: str) -> ModuleFacts | None:
        info = self.index.module(package)
        if info is None or not info.is_package:
            return None  # a namespace package runs no `__init__`
        facts = self.facts.get(info.file)
        if facts is not None or self.read_more is None:
            return facts
        if info.file not in self.memo.more:
            self.memo.more[info.file] = self.read_more(info)
        return self.memo.more[info.file]

    def resolved_imports(self, info: ModuleInfo) -> tuple[tuple[ImportFact, str | None], ...]:
        """Each static import of the file with the module or name it reaches
        (`ModuleIndex.resolve_target`), computed once per run."""
        found = self.memo.resolved.get(info.file)
        if found is None:
            resolve = self.index.resolve_target
            found = tuple((fact, resolve(fact)) for fact in self.facts[info.file].imports)
            self.memo.resolved[info.file] = found
        return found

    def import_edges(self, info: ModuleInfo) -> tuple[ImportEdge, ...]:
        """Every import of a read file (static, and dynamic with a readable target), in
        source order, computed once per run; () for a file that was not read."""
        found = self.memo.edges.get(info.file)
        if found is not None:
            return found
        facts = self.facts.get(info.file)
        if facts is None:
            return ()
        index = self.index
        edges: list[ImportEdge] = []
        for fact, resolved in self.resolved_imports(info):
            if resolved is None:
                continue
            first_party = index.is_first_party(resolved)
            target = resolved if first_party else (fact.target or fact.module or resolved)
            edges.append(
                ImportEdge(
                    info.name,
                    info.file,
                    target,
                    first_party,
                    fact.span,
                    fact.statement,
                    type_checking=fact.type_checking,
                    statement_line=fact.statement_line,
                )
            )
        for dynamic in facts.dynamic_imports:
            if dynamic.target:
                edges.append(
                    ImportEdge(
                        info.name,
                        info.file,
                        dynamic.target,
                        index.is_first_party(dynamic.target),
                        dynamic.span,
                        dynamic.statement,
                        dynamic=True,
                    )
                )
        found = tuple(sorted(edges, key=lambda edge: edge.span))
        self.memo.edges[info.file] = found
        return found
