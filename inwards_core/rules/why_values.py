"""The values `why.explain_rule` builds its explanation from, shared with `why_run` (the
part that reads the run): one reason, one finding explained, and what the run was asked."""

from __future__ import annotations

import attrs

from inwards_core.model.findings import Finding, Origin
from inwards_core.model.value_repr import value_repr


@attrs.frozen
class Reason:
    """One reason: its category (`reason`), a sentence for people, and where it applies."""

    __repr__ = value_repr

    reason: str
    message: str
    file: str = ""
    line: int | None = None


@attrs.frozen
class ExplainedFinding:
    """A finding the rule reported, and the definitions that produced it (lowest first:
    the definition in force last; an overlay's chain before it)."""

    __repr__ = value_repr

    finding: Finding
    definition: Origin
    chain: tuple[Origin, ...] = ()


@attrs.frozen
class WhyContext:
    """What the run was asked: the named paths (None: whole project), whether the user
    root was left out (`--isolated`), and whether the command line chose the rules
    (`--select`, `--extend-select`, `--ignore`)."""

    paths: tuple[str, ...] | None = None
    isolated: bool = False
    command_line_selection: bool = False
