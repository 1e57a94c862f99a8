"""The values of the configuration's optional features: the rules templates turn on, and
`contexts`, `shape` and `names` entries.

Built only when a configuration has those keys, so they live apart from
`inwards_core.config.values` (which names them lazily): a run of a project without them
does not create these classes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core.model.findings import Severity


@attrs.frozen
class TemplateRule:
    """A rule that the `rules` of `[tool.inwards.templates.*]` turn on for the modules of
    some roles, gathered over every layer that uses those templates.

    `keys` are the dotted keys of the role entries that name it (in file order), which
    decided that it runs; `severity_key` the one that set `severity`; `options` the option
    values the entries give (two entries never disagree: the loader refuses that). `modules`
    becomes the rule's `modules` option, beside any the user lists in the rule's table."""

    name: str
    modules: tuple[str, ...]
    keys: tuple[str, ...]
    severity: Severity | None = None
    severity_key: str | None = None
    options: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class PublicEntry:
    """One entry of a context's `public`: the module and everything below it, or with
    `exact` (written with a leading `=`) the module alone, such as a package's facade."""

    module: str
    exact: bool = False

    def covers(self, name: str) -> bool:
        if self.exact:
            return name == self.module
        return name == self.module or name.startswith(self.module + ".")


@attrs.frozen
class Context:
    """One bounded context (`[[tool.inwards.contexts]]`): the module prefixes it owns (the
    longest prefix of any context owns a module), its public modules, and the contexts it
    may import directly (`depends_on`, not transitive). `key` is its table's dotted key."""

    name: str
    modules: tuple[str, ...]
    key: str
    public: tuple[PublicEntry, ...] = ()
    depends_on: tuple[str, ...] = ()


@attrs.frozen
class Shape:
    """One `[[tool.inwards.shape]]` entry: the packages it shapes (selectors: `a.b`, `a.*`,
    `a.**`; the first entry that matches a package wins) and the direct members they may,
    must and must not have (`fnmatch` patterns; `name/` is a subpackage only, `name.py` a
    module only). `allow` None allows any member. `hints` maps a member name to the name
    the team uses instead (a "did you mean" of the team's own); `advice` holds the
    sentences of `hints` written as a list (the reference product's form), each shown as a
    step of the fix of a refused member, as written."""

    packages: tuple[str, ...]
    key: str
    allow: tuple[str, ...] | None = None
    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    extra: Severity = Severity.ERROR
    hints: Mapping[str, str] = attrs.field(factory=dict)
    advice: tuple[str, ...] = ()


@attrs.frozen
class NameRule:
    """One `[[tool.inwards.names]]` entry: a member whose name matches `pattern` (`fnmatch`,
    with the same `name/` and `name.py` forms) may stand only in the `only_in` packages."""

    pattern: str
    only_in: tuple[str, ...]
    key: str
