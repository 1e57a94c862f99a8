"""What a run saw of one rule, recorded only when asked (`check_project(trace_rule=...)`,
for `inwards check --explain` and `inwards rules why`): the files it did not judge and why,
and the suppression comments naming it that hid nothing. A run without a trace pays for
none of it."""

from __future__ import annotations

import attrs

from inwards_core.model.value_repr import value_repr


@attrs.frozen
class TracedFile:
    """A file the traced rule did not judge. `state`: "out-of-scope" (the rule's options
    or the configuration leave the module out), "not-read" (no enabled rule needs its
    facts) or "unreadable" (its facts could not be read: INW000/INW020, limits)."""

    __repr__ = value_repr

    file: str
    module: str
    state: str
    detail: str


@attrs.frozen
class TracedComment:
    """A suppression comment naming the traced code that hid nothing of it. `state`:
    "unused" (nothing of the rule on that line), "unknown", "unsuppressible", or the
    comment's own problem ("malformed", "no-reason", "second-directive")."""

    __repr__ = value_repr

    file: str
    line: int
    state: str


@attrs.frozen
class RuleTrace:
    """`ran`: the rule's check ran on this run (enabled, and not skipped for PATHS)."""

    __repr__ = value_repr

    code: str
    ran: bool
    files: tuple[TracedFile, ...] = ()
    comments: tuple[TracedComment, ...] = ()
