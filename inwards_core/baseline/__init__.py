"""The baseline: the error findings a project accepts today, so that inwards can be adopted
on a codebase that already breaks its layers while every new violation still fails.

A baseline is a versioned JSON document (`inwards/baseline@1`). Each entry keys a kind of
finding without its position: rule code, module (the file, for findings outside any
module), and the finding's stable message, which leaves out what changes when unrelated
configuration changes. Each entry accepts `count` findings: moving an import to another
line keeps it accepted, a second copy of it is one more than the baseline accepts.

Only error findings are baselined. Warnings never fail a check, so accepting them would
only hide them; inline-suppressed findings are not findings of the report at all.

Pure: bytes in, bytes out; the CLI reads and writes the file. This package holds what a
baseline is; `reading` parses one strictly, `matching` applies it to a report, `writing`
builds and serialises one, beside the JSON Schema of the document it writes.
"""

from __future__ import annotations

import attrs

from inwards_core.model.findings import BaselineEntry, Finding
from inwards_core.model.value_repr import value_repr

SCHEMA = "inwards/baseline@1"
BASELINE_FILE_NAME = "inwards-baseline.json"
# Far above any real baseline (1,000 accepted findings take about 200 KB); a bigger file
# is refused before it is read, so a sparse one claiming terabytes costs nothing.
MAX_BASELINE_BYTES = 64 * 1024 * 1024

TOP_KEYS = ("schema", "entries")
ENTRY_KEYS = ("code", "module", "message", "count")

Key = tuple[str, str, str]


@attrs.frozen
class Baseline:
    """The accepted findings: entries sorted by (code, module, message), one per key."""

    __repr__ = value_repr

    entries: tuple[BaselineEntry, ...] = ()

    @property
    def accepted(self) -> int:
        """How many findings the baseline accepts in all."""
        return sum(entry.count for entry in self.entries)


class BaselineError(Exception):
    """A baseline that can't be used: it doesn't parse, isn't an inwards baseline of this
    version, or holds something the schema doesn't allow. `file` is the name to show."""

    def __init__(
        self,
        file: str,
        reason: str,
        *,
        line: int | None = None,
        column: int | None = None,
        key: str = "",
    ) -> None:
        self.file = file
        self.reason = reason
        self.line = line
        self.column = column
        self.key = key
        super().__init__(self.render())

    def render(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}" if self.column is None else f":{self.line}:{self.column}"
        return f"{where}: {self.key}: {self.reason}" if self.key else f"{where}: {self.reason}"


def finding_key(finding: Finding) -> Key:
    """What a baseline entry matches: no line or column, so moving code keeps it accepted."""
    module = finding.module if finding.module else finding.file
    return (finding.code, module, finding.stable_message or finding.message)


def entry_key(entry: BaselineEntry) -> Key:
    return (entry.code, entry.module, entry.message)
