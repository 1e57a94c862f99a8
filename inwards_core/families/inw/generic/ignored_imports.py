"""The options every generic kind (inw.layers, inw.independence, inw.forbidden,
inw.protected, inw.acyclic) shares about which imports it sees at all: `ignore-imports`,
`unmatched-ignore`, `type-checking`, `dynamic` and `missing-modules`.

`ignore-imports` takes import-linter's grammar, so a converted contract keeps its meaning:
each side of `"importer -> imported"` is an exact module name, where a whole name segment
may be `*` (exactly one segment) or `**` (one segment or more; `shop.**` is every module
below `shop`, not `shop` itself). Unlike `allow`, nothing is a prefix: `shop -> shop.api`
names the import of `shop.api` by the package `shop` alone. A library is matched by its
import name or a dotted prefix of what is imported (`requests` matches
`import requests.adapters`), as import-linter sees a library by its top-level name.

An ignored import, an import under `if TYPE_CHECKING:` with `type-checking = false`, a
dynamic import with `dynamic = false`, and an import of a module of this project that doesn't
exist with `missing-modules = false` are taken out before the kind looks: nothing reports
them and no chain goes through them (`honours_import_options`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

import attrs

from inwards_core import (
    ImportEdge,
    ImportStyle,
    ModuleInfo,
    ProjectModel,
    ReadScope,
    Severity,
    Span,
    Violation,
    option,
    quoted,
)
from inwards_core.families.inw.module_entries import definition_warning

ARROW = "->"
ONE = "*"  # exactly one name segment
ANY = "**"  # one name segment or more
UNMATCHED_CHOICES = ("error", "warning", "none")

# The paragraph each generic kind's "What it does" ends with.
IMPORT_OPTIONS_DOCS = """
Five options choose which imports the rule sees at all; what they take out is neither
reported nor followed by a chain. `ignore-imports` lists imports as
`"importer -> imported"` in import-linter's grammar: exact module names on both sides, where
a whole name segment may be `*` (exactly one segment) or `**` (one or more: `shop.**` is
every module below `shop`, not `shop` itself); a library matches by its import name or a
dotted prefix (`requests` matches `import requests.adapters`). An entry that matches no
import is a warning in the rule's definition, or with `unmatched-ignore = "error"` an error
that fails the run (`"none"` says nothing). `type-checking = false` leaves out the imports
under `if TYPE_CHECKING:`, `dynamic = false` the dynamic ones
(`importlib.import_module("x")`, `__import__("x")`), which import-linter never sees, and
`missing-modules = false` the imports of modules of this project that don't exist, as
import-linter's graph has them: `from shop.gone import x` is no import at all, and
`import shop.api.gone` an import of `shop.api` when that exists.
"""

# The guidance parameters of the finding an unmatched `ignore-imports` entry gives.
IGNORED_IMPORT_PARAMS = {
    "ignored": "an `ignore-imports` entry that matches no import (findings about the rule)",
}


def _side_problem(side: str) -> str | None:
    """What is wrong with one side of an expression, or None (import-linter's rules)."""
    before = ""
    for segment in side.split("."):
        if not segment:
            return f'"{quoted(side)}" has an empty name between dots.'
        if before == ANY and segment in (ONE, ANY):
            return f'in "{quoted(side)}", "**" can\'t be followed by another wildcard.'
        if before == ONE and segment == ANY:
            return f'in "{quoted(side)}", "*" can\'t be followed by "**".'
        if "*" in segment and segment not in (ONE, ANY):
            return (
                f'in "{quoted(side)}", "{quoted(segment)}" is part name, part wildcard: a '
                'wildcard stands for whole names only ("*" for one, "**" for one or more).'
            )
        before = segment if segment in (ONE, ANY) else ""
    return None


def check_ignore_imports(value: tuple[str, ...]) -> str | None:
    """The problem with the first entry that is no import expression, or None."""
    for position, entry in enumerate(value):
        sides = [side.strip() for side in entry.split(ARROW)]
        if len(sides) != 2 or not all(sides):
            return (
                f'[{position}] is "{quoted(entry)}": write it "importer {ARROW} imported", '
                "a module name on each side."
            )
        for side in sides:
            problem = _side_problem(side)
            if problem is not None:
                return f'[{position}] is "{quoted(entry)}": {problem}'
    return None


def _check_unmatched(value: str) -> str | None:
    if value in UNMATCHED_CHOICES:
        return None
    return f'is "{quoted(value)}"; write "error", "warning" or "none".'


def ignore_imports_option() -> Any:
    """The `ignore-imports` field of an options class."""
    return option(
        (),
        check=check_ignore_imports,
        description='Imports taken out before the rule looks, each "importer -> imported" in '
        "import-linter's grammar: exact module names, where a whole segment may be `*` (one "
        "segment) or `**` (one or more). Nothing reports them and no chain goes through them.",
    )


def unmatched_ignore_option() -> Any:
    """The `unmatched-ignore` field of an options class."""
    return option(
        "warning",
        check=_check_unmatched,
        description='What an `ignore-imports` entry that matches no import is: "warning" (the '
        'default), "error" (a finding that fails the run, as in import-linter) or "none".',
    )


def type_checking_option() -> Any:
    """The `type-checking` field of an options class."""
    return option(
        True,
        description="Whether imports under `if TYPE_CHECKING:` count (the default); false "
        "leaves them out, as import-linter's `exclude_type_checking_imports` does.",
    )


def dynamic_option() -> Any:
    """The `dynamic` field of an options class."""
    return option(
        True,
        description='Whether dynamic imports with a readable target (`importlib.import_module("x")`'
        ", `__import__`) count (the default); false leaves them out, as import-linter never "
        "sees them.",
    )


def missing_modules_option() -> Any:
    """The `missing-modules` field of an options class."""
    return option(
        True,
        description="Whether imports of modules of this project that don't exist count (the "
        "default); false leaves them out as import-linter's graph does: `from shop.gone import "
        "x` is no import, `import shop.api.gone` one of `shop.api` when that exists.",
    )


class ImportOptions(Protocol):
    """The options of a kind that takes the five fields above."""

    @property
    def ignore_imports(self) -> tuple[str, ...]: ...

    @property
    def unmatched_ignore(self) -> str: ...

    @property
    def type_checking(self) -> bool: ...

    @property
    def dynamic(self) -> bool: ...

    @property
    def missing_modules(self) -> bool: ...


def _segment_regex(segment: str) -> str:
    if segment == ONE:
        return r"[^.]+"
    if segment == ANY:
        return r"[^.]+(?:\.[^.]+)*"
    return re.escape(segment)


@functools.lru_cache(maxsize=1024)
def side_regex(side: str) -> re.Pattern[str]:
    """One side of an expression as a regular expression over whole module names."""
    return re.compile(r"\.".join(_segment_regex(s) for s in side.strip().split(".")))


@attrs.frozen
class IgnoredImport:
    """One `ignore-imports` entry, parsed."""

    entry: str
    importer: re.Pattern[str]
    imported: re.Pattern[str]

    @classmethod
    def parse(cls, entry: str) -> IgnoredImport:
        left, right = entry.split(ARROW)
        return cls(entry, side_regex(left), side_regex(right))

    def matches(self, edge: ImportEdge) -> bool:
        if self.importer.fullmatch(edge.importer) is None:
            return False
        if edge.first_party:
            return self.imported.fullmatch(edge.target) is not None
        parts = edge.target.split(".")
        return any(
            self.imported.fullmatch(".".join(parts[:end])) is not None
            for end in range(1, len(parts) + 1)
        )


def ignored_imports(entries: tuple[str, ...]) -> tuple[IgnoredImport, ...]:
    return tuple(IgnoredImport.parse(entry) for entry in entries)


def _left_out(options: ImportOptions, edge: ImportEdge) -> bool:
    """Whether `type-checking = false` or `dynamic = false` leaves `edge` out."""
    return (not options.type_checking and edge.type_checking) or (
        not options.dynamic and edge.dynamic
    )


def _kept(options: ImportOptions) -> Callable[[ImportEdge], bool] | None:
    """Which imports the kind sees, or None when it sees every one."""
    ignored = ignored_imports(options.ignore_imports)
    if not ignored and options.type_checking and options.dynamic:
        return None

    def kept(edge: ImportEdge) -> bool:
        if _left_out(options, edge):
            return False
        return not any(expression.matches(edge) for expression in ignored)

    return kept


def as_grimp_sees(
    model: ProjectModel, info: ModuleInfo, edges: Iterable[ImportEdge]
) -> Iterator[ImportEdge]:
    """The edges as import-linter's graph (grimp) records them: grimp tries the name an
    import reaches, then the module above it, then drops the import. So `from shop.gone
    import x` and `import shop.gone.deep` are no imports, `import shop.api.gone` is one of
    `shop.api` when that exists; `from shop.api.gone import x` reaches `shop.api.gone`
    (here its target), above which grimp never looks."""
    index = model.index
    for edge in edges:
        if not edge.first_party or index.exists(edge.target):
            yield edge
            continue
        above = edge.target.rpartition(".")[0]
        if above and index.exists(above) and _imports_whole_name(model, info, edge):
            yield attrs.evolve(edge, target=above)


def _imports_whole_name(model: ProjectModel, info: ModuleInfo, edge: ImportEdge) -> bool:
    """Whether the edge's target is the whole name imported (`import a.b.c`, a dynamic
    import), not the module part of `from a.b import c`."""
    if edge.dynamic:
        return True
    return any(
        fact.span == edge.span and fact.style is ImportStyle.IMPORT
        for fact, _ in model.resolved_imports(info)
    )


@attrs.frozen
class FilteredModel(ProjectModel):
    """The project as one rule sees it: `import_edges` leaves out what `keep` refuses, and
    with `as_grimp` sees imports of missing modules as grimp does (`as_grimp_sees`).
    Everything else (and the cache of every file's edges) is the run's own model's."""

    keep: Callable[[ImportEdge], bool] = attrs.field(kw_only=True, eq=False, repr=False)
    as_grimp: bool = attrs.field(default=False, kw_only=True)
    _kept_edges: dict[str, tuple[ImportEdge, ...]] = attrs.field(
        factory=dict, eq=False, repr=False, alias="_kept_edges", kw_only=True
    )

    def import_edges(self, info: ModuleInfo) -> tuple[ImportEdge, ...]:
        found = self._kept_edges.get(info.file)
        if found is None:
            edges: Iterable[ImportEdge] = super().import_edges(info)
            if self.as_grimp:
                edges = as_grimp_sees(self, info, edges)
            found = tuple(edge for edge in edges if self.keep(edge))
            self._kept_edges[info.file] = found
        return found


def _keep_all(edge: ImportEdge) -> bool:
    return True


def filtered(model: ProjectModel, options: ImportOptions) -> ProjectModel:
    """The model the kind checks: without the imports the options take out."""
    keep = _kept(options)
    if keep is None and options.missing_modules:
        return model
    fields = {
        (field.alias or field.name): getattr(model, field.name)
        for field in attrs.fields(ProjectModel)
        if field.init
    }
    fields["_shared"] = {}  # what a kind computed once per run saw every import
    return FilteredModel(**fields, keep=keep or _keep_all, as_grimp=not options.missing_modules)


def unmatched(model: ProjectModel, options: ImportOptions) -> Iterator[Violation]:
    """A finding, in the rule's definition, for each `ignore-imports` entry that matches no
    import of a read module (whole-project runs only), unless `unmatched-ignore = "none"`.
    Imports that `type-checking`/`dynamic` leave out don't count, as import-linter never
    sees them either."""
    if options.unmatched_ignore == "none" or not options.ignore_imports:
        return
    if not model.whole_project:
        return
    left = dict(enumerate(ignored_imports(options.ignore_imports)))
    for name in sorted(model.index.modules):
        info = model.index.modules[name]
        candidates = [p for p, e in left.items() if e.importer.fullmatch(name) is not None]
        if not candidates or info.file not in model.facts:
            continue
        edges: Iterable[ImportEdge] = model.import_edges(info)
        if not options.missing_modules:
            edges = as_grimp_sees(model, info, edges)
        for edge in edges:
            if _left_out(options, edge):
                continue
            for position in [p for p in candidates if left[p].matches(edge)]:
                candidates.remove(position)
                del left[position]
        if not left:
            return
    severity = Severity.ERROR if options.unmatched_ignore == "error" else Severity.WARNING
    for position, expression in sorted(left.items()):
        yield _unmatched_finding(position, expression.entry, severity)


def _unmatched_finding(position: int, entry: str, severity: Severity) -> Violation:
    key = f"options.ignore-imports[{position}]"
    shown = quoted(entry)
    finding = definition_warning(
        f'`{key}` is "{shown}", which matches no import of this project: it ignores nothing.',
        params={"ignored": shown, "option": key, "module": "", "statement": ""},
        variant="unmatched-ignore",
        summary=f'Remove "{shown}" from `{key}` of the rule definition, or fix it.',
        steps=(
            "If the import it ignored is gone, delete the entry: a stale exception would let "
            "the same import back in unnoticed.",
            f'Otherwise check both sides of "{shown}": each is an exact module name, with `*` '
            "for one name segment and `**` for one or more.",
        ),
    )
    return attrs.evolve(finding, severity=severity, span=Span.start_of_file())


_Options = TypeVar("_Options", bound=ImportOptions)


def honours_import_options(
    check: Callable[[ProjectModel, _Options], Iterator[Violation]],
) -> Callable[[ProjectModel, _Options], Iterator[Violation]]:
    """A kind's `check` that sees the model without the imports its options take out, then
    reports each `ignore-imports` entry that matched nothing."""

    @functools.wraps(check)
    def checked(model: ProjectModel, options: _Options) -> Iterator[Violation]:
        yield from check(filtered(model, options), options)
        yield from unmatched(model, options)

    return checked


def _read_prefix(side: str) -> str | None:
    """The literal names before the first wildcard of a side (`shop` for `shop.*.api`), or
    None when it starts with one."""
    literal: list[str] = []
    for segment in side.strip().split("."):
        if segment in (ONE, ANY):
            break
        literal.append(segment)
    return ".".join(literal) or None


def reads_ignored_importers(
    reads: Callable[[_Options], ReadScope],
) -> Callable[[_Options], ReadScope]:
    """A kind's `reads`, plus the importers of its `ignore-imports` entries: an entry is
    unmatched only when no import of any module it names matches it, so they are read."""

    @functools.wraps(reads)
    def scope(options: _Options) -> ReadScope:
        found = reads(options)
        if not options.ignore_imports or options.unmatched_ignore == "none":
            return found
        prefixes = [_read_prefix(entry.split(ARROW)[0]) for entry in options.ignore_imports]
        if any(prefix is None for prefix in prefixes):
            return attrs.evolve(found, every_module=True)
        more = tuple(p for p in prefixes if p is not None and p not in found.modules)
        return attrs.evolve(found, modules=found.modules + tuple(dict.fromkeys(more)))

    return scope
