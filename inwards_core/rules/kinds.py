"""Check kinds: the code a family registers, which rule definitions name.

A kind is a pure function of (project model, options) that yields `Violation`s. The engine
turns a violation into a `Finding` by adding the rule's code, name, severity, origin and
guidance (the guidance templates are formatted with `Violation.params`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from inwards_core.model.findings import ChainStep, Fix, Severity, Span
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.kind_docs import ExamplesFunction, KindDocs, no_examples

if TYPE_CHECKING:
    from inwards_core.config.values import Config
    from inwards_core.index.modules import ModuleIndex, ModuleInfo
    from inwards_core.rules.project import ProjectModel


class Scope(enum.Enum):
    FILE = "file"  # runs on every checked file, also with PATHS
    PROJECT = "project"  # needs the whole project; skipped with PATHS
    REVIEW = "review"  # runs after suppressions, on their verdicts (suppression comments)


class Reach(enum.Enum):
    """What a kind's findings depend on, besides the configuration and the module index
    (which a warm `Session` rebuilds, with every kind's findings, when they change). After
    a file changes, the session runs again only the kinds its change reaches:

    - `FILE`: the findings on a checked file depend on that file's facts alone, and its
      findings on any other file (the configuration) on no file's, so the kind runs again
      over the changed files only (its check, given a model whose `checked` holds those
      files, yields exactly their findings); what a package's `__init__` does to
      `__path__`, `sys.modules` or `sys.meta_path` (`ProjectModel.extended_at`) counts as
      every file's;
    - `IMPORT_GRAPH`: they depend on every read file's imports (and on what a package's
      `__init__` does to `__path__` or `sys.modules`), so the kind runs again over the
      whole project when a change touches those, and not after an edit that leaves them
      as they were.

    A kind that declares no reach (`CheckKind.reach` None) runs again whole after any
    change."""

    FILE = "file"
    IMPORT_GRAPH = "import-graph"


@attrs.frozen
class Violation:
    """What a check kind found, before the rule's identity and guidance are attached.

    `severity` lets a kind mark one variant of its findings as a warning by default
    (INW006's package findings); a `severity` setting for the rule overrides it.
    `params` fill the guidance templates (`{statement}`, `{layer}`, ...). `step_lists`
    holds parameters that are lists of finished steps (the sentences of a shape's `hints`):
    a guidance step that is one such `{name}` alone becomes one step per item, as written,
    and none for an empty list; elsewhere `{name}` takes `params[name]`.
    `stable_message` is the message without parts that change when unrelated config
    changes (baselines key on it); empty means the whole message.

    `variant` names the guidance this finding needs when it is not the rule's main one:
    the definition's `[guidance.variants.<variant>]` (a shipped definition words it; a
    shadow may reword it). A definition without that variant gives the finding its main
    guidance. `fallback` is the kind's own fix for a rule whose definition words none (the
    generic kinds, which no shipped definition words) and for a problem in the rule's own
    options (`in_definition`), which the main guidance is not about. A fallback is finished
    text and is never filled: only a definition's guidance is a template, and the project's
    text (names, statements) reaches it only as a value of `params`.
    """

    __repr__ = value_repr

    file: str
    module: str | None
    span: Span
    message: str
    params: Mapping[str, str] = attrs.field(factory=dict)
    step_lists: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    severity: Severity | None = None
    stable_message: str = ""
    variant: str = ""
    fallback: Fix | None = None
    # The problem is in the rule's own options (an entry that matches no module): the
    # engine locates it in the definition file instead of `file`.
    in_definition: bool = False
    # The imports of the chain the violation is about (`Finding.chain`).
    chain: tuple[ChainStep, ...] = attrs.field(default=(), eq=False)


# The guidance parameters the engine gives every finding, whatever its kind.
COMMON_GUIDANCE_PARAMS: Mapping[str, str] = {
    "file": "the file of the finding, relative to the project directory",
    "module": "the module of the finding (empty when the finding is not about one module)",
}

CheckFunction = Callable[["ProjectModel", Any], Iterable[Violation]]


@attrs.frozen
class ReadScope:
    """Which modules' facts a rule needs, beyond the modules a `[tool.inwards]` layer owns
    (which are always read).

    - `modules`: prefixes or selectors of the modules the rule reports on; read on every
      run (with PATHS, the named files among them).
    - `every_module`: any module may be reported on (who imports a protected module):
      every module not in `ignore` is read (with PATHS, the named files).
    - `import_graph`: the rule follows import chains through any first-party module, so
      every module not in `ignore` is read on a whole-project run. With PATHS that part of
      a file-scope rule is skipped (the engine says so in a note).
    - `content`: the rule reads content facts (`ProjectModel.content`: functions, classes,
      calls, bindings) of the modules it judges. The engine reads them in one batch for
      the checked modules that import a module at or below one of `content_imports` (all
      checked modules when it is empty), through the cache; others on first need. A run
      with no such rule reads none.
      `content_words` narrows that batch further to the modules whose text holds one of
      these words (INW013: `async `, as only an `async def` can break it; any other module
      it follows one hop into is read on demand).
      With `content_batch` False the engine reads none for the rule up front: the kind
      knows better which modules it needs (by name, or after a pass over the imports) and
      reads them itself in one batch with `ProjectModel.read_content_of`.
    - `documents`: the rule reads the files `diagrams` names (`ProjectModel.documents`).
    """

    __repr__ = value_repr

    modules: tuple[str, ...] = ()
    every_module: bool = False
    import_graph: bool = False
    content: bool = False
    content_imports: tuple[str, ...] = ()
    content_words: tuple[str, ...] = ()
    content_batch: bool = True
    documents: bool = False


ReadsFunction = Callable[[Any], ReadScope]
# Given the rule's options, a checked module and the model: why the kind does not judge that
# module ("shop.api is not covered by modules = [\"shop.domain\"]"), or None when it does.
# Only `inwards check --explain` asks (see `CheckKind.scope_of`).
ScopeFunction = Callable[[Any, "ModuleInfo", "ProjectModel"], str | None]
# Given the index and the rule's options, a test of the modules the kind judges from the
# file listing alone, or None when it judges none (see `CheckKind.judges_listed`).
ListingJudge = Callable[["ModuleIndex", Any], Callable[["ModuleInfo"], bool] | None]
# Given the model and the rule's options: what the rule has to say about the run beyond its
# findings, a line each (a package it could not judge, and why); see `CheckKind.notes`.
NotesFunction = Callable[["ProjectModel", Any], Iterable[str]]


@attrs.frozen
class NoOptions:
    """This rule takes no options."""

    __repr__ = value_repr


@attrs.frozen
class CheckKind:
    """Everything a family says about one check kind; pages, schemas and tests read only
    these fields.

    - `id` is `<family>.<name>` (`inw.layer-dependency`); `summary` one line on what it
      reports, which is also the summary of a rule whose definition says none (a family's
      own definitions leave it out: it is written once, here).
    - `options_type` is an attrs class whose fields are the kind's options (`NoOptions` for
      none; `inwards_core.rules.options.option` declares one with its metadata).
    - `check` yields the `Violation`s; `scope`, `reads` and `version` tell the engine when
      to run it, what to read for it and when its derived results go stale; `reach` tells
      a warm session which changes make it run again.
    - `guidance_params` names every key of `Violation.params` the kind fills, with what it
      holds (shown on the kind's page). A definition's guidance may use these and
      `COMMON_GUIDANCE_PARAMS` as `{name}`; any other field is a definition error.
    - `docs` is the prose of its pages; `examples` returns its good and bad example
      projects, which the pages show with their real output and the tests run.
    """

    __repr__ = value_repr

    id: str
    summary: str
    options_type: type[Any]
    check: CheckFunction
    scope: Scope = Scope.FILE
    version: str = "1"
    # What the rule needs read, from its options; None: the layered modules only.
    reads: ReadsFunction | None = None
    # What its findings depend on, for a warm session (see `Reach`); None: anything.
    reach: Reach | None = None
    # Whether the configuration gives the kind anything to judge (contexts, cycles, shapes);
    # a whole-project kind without is left out of the note on what a PATHS run skipped.
    applies: Callable[[Config], bool] | None = attrs.field(default=None, eq=False)
    # A per-file kind that judges some modules from the file listing alone (INW007 judges
    # a package's members by their names): with PATHS, a named module it judges is checked
    # (`ProjectModel.listed`) even when no rule needs its facts, which are then not read.
    judges_listed: ListingJudge | None = attrs.field(default=None, eq=False)
    guidance_params: Mapping[str, str] = attrs.field(factory=dict, eq=False)
    # Why the kind leaves a module out (its `modules`, the layers, the contexts); None: the
    # kind says nothing, and an explanation says it looked at the file and found nothing.
    scope_of: ScopeFunction | None = attrs.field(default=None, eq=False)
    docs: KindDocs | None = attrs.field(default=None, eq=False)
    examples: ExamplesFunction = attrs.field(default=no_examples, eq=False)
    # What a rule of the kind tells about the run beside its findings (INW010: the packages
    # whose import hook it leaves unjudged), asked after the kinds ran, on a whole run and a
    # warm one alike; the report's notes list each line once.
    notes: NotesFunction | None = attrs.field(default=None, eq=False)

    def guidance_names(self) -> frozenset[str]:
        """The names a guidance template of a definition of this kind may use."""
        return frozenset(COMMON_GUIDANCE_PARAMS) | frozenset(self.guidance_params)


@attrs.frozen
class Family:
    """A rule family, as a plugin registers it.

    `prefix` is the code prefix it owns (`INW`); `definitions` is the package whose
    `*.toml` resources are its core rule definitions; `distribution` and `version` name
    the installed distribution that ships it.
    """

    __repr__ = value_repr

    prefix: str
    kinds: tuple[CheckKind, ...]
    definitions: str
    distribution: str
    version: str
    docs_base: str = ""


def kinds_by_id(families: Iterable[Family]) -> dict[str, tuple[Family, CheckKind]]:
    return {kind.id: (family, kind) for family in families for kind in family.kinds}
