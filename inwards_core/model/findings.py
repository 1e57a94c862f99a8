"""Values every part of inwards shares: positions, findings, fixes, origins, reports.

All of them are frozen attrs classes: they hash, compare, and cross ports unchanged.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from inwards_core.model import diagnostics
from inwards_core.model.value_repr import value_repr

if TYPE_CHECKING:
    from inwards_core.model.rule_trace import RuleTrace
    from inwards_core.model.source_lines import SourceLine


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


class RootKind(enum.Enum):
    """Where a rule definition came from (see THREE-ROOTS.md and, for the organisation
    root, docs/rules-roots-and-shadowing.md). Declared in ascending precedence: code that
    iterates the enum (digests, schema enums) lists the roots in that order."""

    CORE = "core"
    ORG = "org"
    USER = "user"
    PROJECT = "project"


ROOTS_ASCENDING = tuple(RootKind)
"""The roots from the lowest precedence to the highest (a higher root's definition shadows a
lower one's), in the order `RootKind` declares them: the one place that order is written."""


@attrs.frozen(order=True)
class Span:
    """A region of a file: 1-based lines and columns, end column exclusive."""

    __repr__ = value_repr

    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, line: int, column: int) -> Span:
        return cls(line, column, line, column)

    @classmethod
    def start_of_file(cls) -> Span:
        return cls(1, 1, 1, 1)


@attrs.frozen
class Fix:
    """What to do about a finding: a one-line summary and numbered steps."""

    __repr__ = value_repr

    summary: str
    steps: tuple[str, ...] = ()


@attrs.frozen
class Origin:
    """Which file a rule definition was read from, and the sha256 of its bytes."""

    __repr__ = value_repr

    root: RootKind
    path: str
    sha256: str

    def data(self) -> dict[str, str]:
        """Root, path and sha256, as every JSON and SARIF document names a definition file."""
        return {"root": self.root.value, "path": self.path, "sha256": self.sha256}


@attrs.frozen
class UserDefinitionInEffect:
    """A user-root rule definition that changes a run: a new rule, a shadow of a core rule,
    or only its guidance (`user-rules = "guidance-only"`). Reports name every one, so a
    laptop's results can be told apart from CI's."""

    __repr__ = value_repr

    code: str
    path: str
    effect: str  # "new" | "shadows core" | "guidance only"


@attrs.frozen
class OverlayInEffect:
    """A rule whose definition in force is an overlay (it changes some fields of the one
    below it): the files merged into it, the whole definition at the bottom first, and how
    many fields it sets or unsets upstream has changed since it was written (conflicts)."""

    __repr__ = value_repr

    code: str
    chain: tuple[Origin, ...]
    conflicts: int = 0


@attrs.frozen
class ChainStep:
    """One import of a chain a finding is about (a cycle, an indirect route between
    layers): `importer` imports `imported` at `span` of `file` (POSIX, relative to the
    project directory, like a finding's)."""

    __repr__ = value_repr

    importer: str
    imported: str
    file: str
    span: Span


@attrs.frozen
class Finding:
    """One problem inwards reports.

    `file` is POSIX and relative to the project directory (the folder holding the
    configuration); reporters turn it into a path relative to where the user stands.
    """

    __repr__ = value_repr

    code: str
    rule: str
    severity: Severity
    file: str
    module: str | None
    span: Span
    message: str
    fix: Fix
    docs: str
    origin: RootKind = RootKind.CORE
    suppressible: bool = True
    # Whole-project findings sort after per-file ones (cycles, dead prefixes, ...).
    whole_project: bool = False
    # The stable form of the message a baseline keys on (no "Allowed direction" tail).
    stable_message: str = ""
    # The imports of the chain the finding is about, in order (empty for one import or
    # none): the message already words them; this is for editors to point at each. Not
    # part of equality, so baselines, memo keys and comparisons are as before.
    chain: tuple[ChainStep, ...] = attrs.field(default=(), eq=False, repr=False)

    def to_json(self, *, display: Callable[[str], str] | None = None) -> dict[str, Any]:
        """This finding as one element of `diagnostics` in `inwards check --format json`
        (a dict of JSON values; `json.dumps` it to write it). `file` stays relative to the
        project directory unless `display` maps it elsewhere."""
        return diagnostics.diagnostic(self, display or diagnostics.same_path)

    def sort_key(self) -> tuple[bool, str, int, int, int, int, int, str, str]:
        # The span's fields, not the Span: comparing attrs values was most of the time
        # sorting 20,000 findings took.
        span = self.span
        return (
            self.whole_project,
            self.file,
            span.line,
            span.column,
            span.end_line,
            span.end_column,
            0 if self.severity is Severity.ERROR else 1,
            self.code,
            self.message,
        )


@attrs.frozen
class SuppressedFinding:
    __repr__ = value_repr

    finding: Finding
    reason: str
    # The suppression directive that hid it (`inwards check --explain` shows
    # where); not kept by the run memo, so not part of equality.
    comment: Span | None = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class NotChecked:
    """A path the user named, or a part of the tree, that was not checked, and why."""

    __repr__ = value_repr

    path: str
    message: str


@attrs.frozen
class BaselineEntry:
    """One kind of finding a baseline accepts: rule code, module (or file), the stable form
    of the message (no line numbers), and how many such findings are accepted."""

    __repr__ = value_repr

    code: str
    module: str
    message: str
    count: int


@attrs.frozen
class Report:
    __repr__ = value_repr

    findings: tuple[Finding, ...]
    files_checked: int
    suppressed: tuple[SuppressedFinding, ...] = ()
    not_checked: tuple[NotChecked, ...] = ()
    whole_project: bool = True
    duration_ms: float = 0.0
    # Notes for people (config warnings, skipped whole-project checks); never findings.
    notes: tuple[str, ...] = ()
    # The effective rule set: its fingerprint, and the user definitions it took in.
    rule_set_fingerprint: str = ""
    user_definitions: tuple[UserDefinitionInEffect, ...] = ()
    # The rules whose definition in force is an overlay, and the files it merges.
    overlays: tuple[OverlayInEffect, ...] = ()
    # Findings a baseline accepted (not in `findings`), and baseline entries that matched
    # fewer findings than they accept (fixed since; whole-project runs only).
    baselined: tuple[Finding, ...] = ()
    baseline_resolved: tuple[BaselineEntry, ...] = ()
    # The entry that accepted each of `baselined`, in the same order.
    baselined_by: tuple[BaselineEntry, ...] = ()
    # The baseline file the run read (shown as reporters show finding files), or None
    # when no baseline was read: "0 accepted" and "no baseline" are different answers.
    baseline_file: str | None = None
    # The lines the findings point at, for the text format's frames (only when the run
    # was asked for them); never part of the JSON document nor of a report's equality.
    source_lines: tuple[SourceLine, ...] = attrs.field(default=(), eq=False, repr=False)
    # What a run on named paths left out, as codes (the `notes` say it to people): the
    # whole-project rules skipped, and the file-scope rules whose import chains were not
    # followed.
    skipped_rules: tuple[str, ...] = ()
    chains_skipped: tuple[str, ...] = ()
    # What the engine saw of one rule, when a run was asked to trace it (`check --explain`).
    trace: RuleTrace | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.WARNING)

    @property
    def nothing_checked(self) -> bool:
        return self.files_checked == 0 and not self.whole_project

    def exit_code(self) -> int:
        """0 clean or warnings only, 1 errors, 2 nothing checked."""
        if self.nothing_checked:
            return 2
        return 1 if self.errors else 0

    def to_json(self, *, display: Callable[[str], str] | None = None) -> dict[str, Any]:
        """The `inwards/diagnostics@1` document, as `inwards check --format json` run in the
        project directory prints it, as a dict of JSON values (`json.dumps` writes the same
        document; `schemas/diagnostics.schema.json` describes it). Paths stay relative to
        the project directory unless `display` maps them elsewhere."""
        return diagnostics.diagnostics_document(self, display=display or diagnostics.same_path)
