"""The five ports through which everything outside reaches the core.

Adapters in this repository subclass the Protocol they implement, so mypy checks them
where they are defined. Data members are read-only properties.
"""

from __future__ import annotations

import ast
import enum
import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import attrs

from inwards_core.model.facts import ModuleFacts
from inwards_core.model.findings import Report, RootKind
from inwards_core.model.value_repr import value_repr

if TYPE_CHECKING:
    import libcst


# -- ProjectFiles ------------------------------------------------------------------------


@attrs.frozen
class ListingProblem:
    """A part of the tree that could not be listed (unreadable directory, symlink loop)."""

    __repr__ = value_repr

    path: str
    message: str


@attrs.frozen
class ProjectListing:
    """Every file and directory below the project directory, POSIX and relative to it.

    `files` holds every regular file (any suffix: `.py`, `.pyi`, `.so`, ...), sorted;
    `directories` every directory, sorted; `symlinks` maps each symlinked path (file or
    directory) inside the tree to its resolved target relative to the project directory,
    or to an absolute POSIX path when the target is outside it.
    """

    __repr__ = value_repr

    files: tuple[str, ...]
    directories: tuple[str, ...]
    symlinks: tuple[tuple[str, str], ...] = ()
    problems: tuple[ListingProblem, ...] = ()


# What every ProjectFiles adapter leaves out of a listing: one rule, so the disk and the
# in-memory adapters can't drift apart.
VIRTUALENV_MARKER = "pyvenv.cfg"
_SKIPPED_DIRECTORY_NAMES = frozenset({"__pycache__", "node_modules"})


def is_skipped_directory_name(name: str) -> bool:
    """Hidden directories, `__pycache__`, `node_modules` and `*.egg-info` are never listed
    (a directory holding `VIRTUALENV_MARKER` is left out too)."""
    return name.startswith(".") or name in _SKIPPED_DIRECTORY_NAMES or name.endswith(".egg-info")


class ProjectFiles(Protocol):
    """The checked project's files. Nothing of the project is ever imported or run."""

    def listing(self, under: str) -> ProjectListing:
        """List everything below `under` (POSIX, relative to the project dir; "" or "."
        for the whole project). Hidden directories, `__pycache__` and virtual
        environments are left out. Symlinks inside the project directory are followed and
        each real directory is listed once; a link that leads out of the project, a second
        path to a listed directory and a loop are problems, not followed.
        """
        ...

    def read_bytes(self, path: str) -> bytes:
        """The bytes of one listed file. Raises OSError when it can't be read."""
        ...

    def digest(self, path: str) -> str:
        """The sha256 hex of one listed file's bytes, raising OSError as `read_bytes` does.
        An adapter may know it without reading the file (from its stat, see `RunMemo`)."""
        return hashlib.sha256(self.read_bytes(path)).hexdigest()

    # What went wrong on the way that is no finding (stamps that could not be saved), as
    # `warning:` lines: a plain attribute, which an adapter appends to as it goes.
    warnings: Sequence[str] = ()


# -- ExtractionCache ---------------------------------------------------------------------


@attrs.frozen
class CacheKey:
    """What a cached fact depends on: the bytes, the module name and the extractor."""

    __repr__ = value_repr

    digest: str  # sha256 hex of the file's bytes
    module: str
    is_package: bool
    extractor: str  # extractor id + version + grammar ids


class ExtractionCache(Protocol):
    """Facts by content key."""

    @property
    def keeps_nothing(self) -> bool:
        """True for a cache that keeps nothing (`--no-cache`): the engine then skips the
        sha256 of every file read, which only its keys need."""
        return False

    # What went wrong on the way that is no finding (an entry that could not be written),
    # as `warning:` lines: a plain attribute, which an adapter appends to as it goes.
    warnings: Sequence[str] = ()

    def get(self, key: CacheKey) -> ModuleFacts | None:
        """The facts stored under `key`; None on a miss. A corrupt entry is a miss."""
        ...

    def put(self, key: CacheKey, facts: ModuleFacts) -> None: ...

    def flush(self, *, prune: bool) -> None:
        """Persist what was put. With `prune`, keep only the entries used by this run."""
        ...


# -- RunMemo -----------------------------------------------------------------------------


class RunMemo(Protocol):
    """The report of a whole-project check kept under everything it was made from. The
    engine gives `inputs`, a digest of the listing and every source file's digest; the
    adapter adds what the engine can't see (inwards' code, the configuration, the rule
    set, the options). A damaged entry, or one made for other inputs, is a miss.

    A `ProjectFiles` adapter used with a memo may answer `digest(path)` without reading the
    file (`remembered_runs.source_digests`); by default each file is read."""

    def recall(self, inputs: str) -> Report | None:
        """The report kept for `inputs`; None on a miss."""
        ...

    def keep(self, inputs: str, report: Report) -> None: ...

    def forget(self) -> None:
        """Drop what is kept (`--verify-cache` does before it runs afresh: a report made
        from forged facts must not outlive them if the run stops at the first difference)."""
        ...

    @property
    def entry_name(self) -> str:
        """How `--verify-cache` names the entry when it differs from a fresh run."""
        ...

    # What went wrong on the way that is no finding (a memo that could not be saved), as
    # `warning:` lines: a plain attribute, which an adapter appends to as it goes.
    warnings: Sequence[str] = ()


# -- GrammarBinaries ---------------------------------------------------------------------


class ParserRefused(Exception):
    """Raised by `GrammarBinaries.parse_concrete` of an adapter that won't run libcst's
    native parser where it is (a crash there would take the whole run with it). `extract`
    lets it through, so that its caller can read the file where a crash costs only that
    file (the CLI: a worker process)."""


class GrammarBinaries(Protocol):
    """The parsers extractors may use, each with a stable id that goes into cache keys."""

    @property
    def grammar_ids(self) -> tuple[str, ...]: ...

    def parse_python(self, text: str, filename: str) -> ast.Module:
        """CPython's own parser. Raises SyntaxError."""
        ...

    def check_python(self, text: str, filename: str) -> None:
        """Whether CPython's parser accepts `text`, as cheaply as possible (no Python
        tree). Raises SyntaxError."""
        ...

    def parse_concrete(self, text: str) -> libcst.Module:
        """libcst's native parser (a concrete tree). Raises libcst.ParserSyntaxError, or
        `ParserRefused` where the adapter won't run it."""
        ...


# -- RuleSources -------------------------------------------------------------------------


class RootState(enum.Enum):
    FOUND = "found"
    ABSENT = "absent"
    UNREADABLE = "unreadable"
    IGNORED = "ignored"  # by policy (`user-rules = "off"`) or `--isolated`


@attrs.frozen
class RuleDocument:
    """One rule-definition file: its bytes and where it lives.

    `path` is the file's path as shown to people (for core: `<package>/<resource>`);
    `relative` is its path inside its root (POSIX), which the root's digest covers;
    `family` is the distribution that ships a core document, with its version.
    """

    __repr__ = value_repr

    root: RootKind
    path: str
    data: bytes
    family: str = ""
    family_version: str = ""
    relative: str = ""

    @property
    def root_relative(self) -> str:
        return self.relative or self.path.rsplit("/", 1)[-1]


@attrs.frozen
class RulePack:
    """An installed organisation rule pack: its `inwards.rule_packs` entry-point name, the
    distribution and version that ship it, and the folder of definitions it names."""

    __repr__ = value_repr

    name: str
    distribution: str
    version: str
    location: str


ORG_DIR_FAMILY = "$INWARDS_ORG_RULES_DIR"
"""The `family` of the org root's documents read from INWARDS_ORG_RULES_DIR (a pack's
documents carry the pack's distribution)."""


@attrs.frozen
class RootReport:
    """One root as the sources found it. `location` is the resolved directory (for core:
    the definition packages); `note` says how it was found or why it is ignored;
    `problems` are files or directories of the root that could not be read."""

    __repr__ = value_repr

    root: RootKind
    location: str
    state: RootState
    problems: tuple[ListingProblem, ...] = ()
    note: str = ""
    warning: str = ""  # worth a `warning:` line on every run (a relative XDG_CONFIG_HOME)
    packs: tuple[RulePack, ...] = ()  # the org root's installed rule packs


class RuleSources(Protocol):
    def documents(self) -> Sequence[RuleDocument]:
        """Every definition document of every root, in a deterministic order."""
        ...

    def roots(self) -> Sequence[RootReport]: ...
