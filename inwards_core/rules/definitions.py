"""Rule definitions: the values one `<CODE>.toml` file becomes, and the keys it may hold.

A definition is data: it names a check kind (code from a family), its options, its
severity and the guidance printed under its findings. `inwards_core.rules.reading` reads a
file into these values; `inwards_core.rules.resolver` decides which one is in force.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core.model.findings import Origin, RootKind, Severity
from inwards_core.model.quoting import capped_message, quoted
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.scaffold import Placeholder

CODE_PATTERN = re.compile(r"^[A-Z]{2,6}[0-9]{3}$")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

DEFINITION_KEYS = (
    "code",
    "name",
    "summary",
    "check",
    "default",
    "severity",
    "suppressible",
    "always-on",
    "options",
    "guidance",
    "description",
    "shadow",
)
GUIDANCE_KEYS = ("summary", "steps", "docs", "variants")
VARIANT_KEYS = ("summary", "steps")
SHADOW_KEYS = ("root", "distribution", "version", "sha256", "path")
# An overlay (`overlays = "CODE"` or an `[overlay]` table) gives only the fields it changes.
OVERLAY_ONLY_KEYS = ("overlays", "overlay", "unset")
OVERLAY_FORBIDDEN_KEYS = ("check", "shadow")  # another kind is a whole-file shadow
OVERLAY_TABLE_KEYS = (
    "code",
    "root",
    "distribution",
    "version",
    "path",
    "sha256",
    "was",
    "was-absent",
)


@attrs.frozen
class GuidanceVariant:
    """The fix for one variant of a rule's findings (`[guidance.variants.<name>]`), which
    a kind names in `Violation.variant`. What it leaves out (None) comes from the main
    guidance of the same definition."""

    __repr__ = value_repr

    summary: str | None = None
    steps: tuple[str, ...] | None = None


def code_of_path(path: str) -> str:
    """The code a definition file is named after: its stem (`<CODE>.toml`), upper-cased;
    empty for a path that names no definition file (a root, a folder)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name[: -len(".toml")].upper() if name.lower().endswith(".toml") else ""


def docs_pointer(code: str, docs: str) -> str:
    """Where a finding of rule `code` points for more: the definition's `docs` as written
    (a URL, or for a team's own rule a path in its repository), else the command that
    prints the rule's page offline in any project."""
    return docs or f"inwards rule {code}"


@attrs.frozen
class Guidance:
    __repr__ = value_repr

    summary: str
    steps: tuple[str, ...]
    # A URL of a page about the rule (SARIF's helpUri when it is http(s)); anything else
    # is shown as written. Empty: findings point at `inwards rule CODE` (docs_pointer).
    docs: str
    variants: Mapping[str, GuidanceVariant] = attrs.field(factory=dict)

    def texts(self, variant: str = "") -> tuple[str, tuple[str, ...]] | None:
        """The summary and steps of `variant`, completed from the main guidance; None when
        this guidance has no such variant."""
        found = self.variants.get(variant) if variant else None
        if found is None:
            return None
        return (
            self.summary if found.summary is None else found.summary,
            self.steps if found.steps is None else found.steps,
        )


@attrs.frozen
class ShadowBase:
    """The `[shadow]` table `inwards rules shadow` writes: what the copy was taken from."""

    __repr__ = value_repr

    root: str
    distribution: str
    version: str
    sha256: str
    path: str


@attrs.frozen
class FieldOrigin:
    """Who set one field of a merged definition: `key` is its dotted path as messages write
    it ("severity", "options.forbidden", "guidance.steps"), `how` is "base" (the whole-file
    definition the chain starts from), "set", "extend" (`extend-<key>` appended to it) or
    "unset"."""

    __repr__ = value_repr

    key: str
    origin: Origin
    how: str
    # For "extend": how many elements the array had before this overlay appended to it
    # (element i of the merged array is element i - appended_after of `extend-<key>`).
    appended_after: int = 0


@attrs.frozen
class OverlayBase:
    """The `[overlay]` table an overlay may carry (`inwards rules shadow --overlay` writes
    it): the definition in force below when it was written. `sha256` is the `table_digest`
    of that definition's (merged) table, `was` the values it then had of each field the
    overlay sets or unsets (dotted keys), `was_absent` the fields it did not have."""

    __repr__ = value_repr

    code: str = ""
    root: str = ""
    distribution: str = ""
    version: str = ""
    path: str = ""
    sha256: str = ""
    was: Mapping[str, Any] = attrs.field(factory=dict)
    was_absent: tuple[str, ...] = ()


@attrs.frozen
class OverlayInfo:
    """How an overlay's definition was merged. `chain` holds the origins that made it,
    lowest first: the whole-file definition the chain starts from (the cut), then each
    overlay up to this one. `fields` maps each field of the merged table (dotted key) to
    who set it, lowest first; `below` is the (merged) table of the definition in force
    below this overlay and `below_sha256` its `table_digest`."""

    __repr__ = value_repr

    base: OverlayBase | None
    chain: tuple[Origin, ...]
    fields: Mapping[str, tuple[FieldOrigin, ...]] = attrs.field(factory=dict)
    below: Mapping[str, Any] = attrs.field(factory=dict, eq=False, repr=False)
    below_sha256: str = ""


@attrs.frozen
class RuleDefinition:
    __repr__ = value_repr

    code: str
    name: str
    summary: str
    check: str
    default: str  # "on" | "opt-in"
    severity: Severity
    suppressible: bool
    options: Mapping[str, Any]
    guidance: Guidance
    origin: Origin
    description: str = ""
    family: str = ""
    family_version: str = ""
    shadow: ShadowBase | None = None
    # Set when `user-rules = "guidance-only"` took this rule's guidance from a user file.
    guidance_origin: Origin | None = None
    # Lines of `code`, `name` and `always-on` (when written), for messages about what is
    # found after parsing (collisions, a shadow that would turn an always-on rule off).
    key_lines: Mapping[str, int] = attrs.field(factory=dict, eq=False, repr=False)
    # `options` as the kind's options class, parsed once when the definition was read.
    parsed_options: Any = attrs.field(default=None, eq=False, repr=False)
    # `table_digest` of the parsed table the definition was built from (which may come from
    # the cache rather than the bytes): the rule-set fingerprint covers it.
    table_sha256: str = attrs.field(default="", eq=False, repr=False)
    # `always-on = true`: `[tool.inwards.rules]` can't turn the rule off, re-level it or set
    # its options (INW000: a file inwards can't read is never left unchecked).
    always_on: bool = False
    # The TOML table the definition was built from (for an overlay, the merged table).
    table: Mapping[str, Any] = attrs.field(factory=dict, eq=False, repr=False)
    # Set when the file is an overlay: its chain and who set each field of `table`.
    overlay: OverlayInfo | None = None
    # Keys of the file that still hold a text `inwards rules new` wrote for the author to
    # replace (`inwards_core.rules.scaffold`): loading the rules warns about each.
    placeholders: tuple[Placeholder, ...] = attrs.field(default=(), eq=False, repr=False)


@attrs.frozen
class DefinitionProblem:
    """A definition file that can't be used. In the project root this is a config error;
    in the user root a warning (the lower definition stays in force). Key and message are
    capped (`inwards_core.model.quoting`): what they quote of the definition may be huge."""

    __repr__ = value_repr

    root: RootKind
    path: str
    line: int | None
    key: str = attrs.field(converter=quoted)
    message: str = attrs.field(converter=capped_message)
    column: int | None = None  # 1-based, of the key (or of a TOML syntax error)
    # The rule the file is about: the code it defines (or overlays) when it says one, else
    # its file stem upper-cased (a file that could not be read is still named after its
    # code); empty for a problem of a root or a folder.
    code: str = attrs.field(
        default=attrs.Factory(lambda self: code_of_path(self.path), takes_self=True)
    )

    @property
    def blocking(self) -> bool:
        """Project (and core) problems stop a run; user- and org-root problems only warn
        (neither root is committed with the project: the lower definition stays)."""
        return self.root in (RootKind.CORE, RootKind.PROJECT)

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.line is not None and self.column is not None:
            where += f":{self.column}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"
