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

from inwards_core.model import Severity, Span

if TYPE_CHECKING:
    from inwards_core.project import ProjectModel


class Scope(enum.Enum):
    FILE = "file"  # runs on every checked file, also with PATHS
    PROJECT = "project"  # needs the whole project; skipped with PATHS
    REVIEW = "review"  # runs after suppressions, on their verdicts (suppression comments)


@attrs.frozen
class Violation:
    """What a check kind found, before the rule's identity and guidance are attached.

    `severity` lets a kind mark one variant of its findings as a warning by default
    (INW006's package findings); a `severity` setting for the rule overrides it.
    `params` fill the guidance templates (`{statement}`, `{layer}`, ...).
    `stable_message` is the message without parts that change when unrelated config
    changes (baselines key on it); empty means the whole message.
    """

    file: str
    module: str | None
    span: Span
    message: str
    params: Mapping[str, str] = attrs.field(factory=dict)
    severity: Severity | None = None
    stable_message: str = ""
    steps: tuple[str, ...] | None = None  # replaces the guidance steps when set
    summary: str | None = None  # replaces the guidance summary when set


CheckFunction = Callable[["ProjectModel", Any], Iterable[Violation]]


@attrs.frozen
class CheckKind:
    """`id` is `<family>.<name>` (`inw.layer-dependency`). `options_type` is an attrs class
    whose fields are the kind's options (see `inwards_core.rules.options`)."""

    id: str
    summary: str
    options_type: type[Any]
    check: CheckFunction
    scope: Scope = Scope.FILE
    version: str = "1"


@attrs.frozen
class Family:
    """A rule family, as a plugin registers it.

    `prefix` is the code prefix it owns (`INW`); `definitions` is the package whose
    `*.toml` resources are its core rule definitions; `distribution` and `version` name
    the installed distribution that ships it.
    """

    prefix: str
    kinds: tuple[CheckKind, ...]
    definitions: str
    distribution: str
    version: str
    docs_base: str = ""


def kinds_by_id(families: Iterable[Family]) -> dict[str, tuple[Family, CheckKind]]:
    return {kind.id: (family, kind) for family in families for kind in family.kinds}
