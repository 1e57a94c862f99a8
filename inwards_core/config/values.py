"""The validated `[tool.inwards]` configuration.

Built by `inwards_core.config.load.build_config` from a plain mapping (the CLI reads the
TOML); nothing here touches the disk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from inwards_core.model.findings import Severity
from inwards_core.model.quoting import capped_message, quoted
from inwards_core.model.value_repr import value_repr

if TYPE_CHECKING:
    from inwards_core.config.feature_values import Context as Context
    from inwards_core.config.feature_values import NameRule as NameRule
    from inwards_core.config.feature_values import PublicEntry as PublicEntry
    from inwards_core.config.feature_values import Shape as Shape
    from inwards_core.config.feature_values import TemplateRule as TemplateRule

# Named here, built in `feature_values` on first use: most configurations have none.
_FEATURE_VALUES = frozenset({"Context", "NameRule", "PublicEntry", "Shape", "TemplateRule"})


def __getattr__(name: str) -> Any:
    if name in _FEATURE_VALUES:
        from inwards_core.config import feature_values

        return getattr(feature_values, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class SourcePositions(Protocol):
    """Where each dotted key stands in the configuration file (1-based line, column).

    `tool.inwards.layers[2].modules[0]` names the first entry of the third layer's
    `modules`; a key that is not in the file gives None.
    """

    def locate(self, key: str) -> tuple[int, int] | None: ...


class NoPositions:
    """For configurations that come from code, not a file."""

    def locate(self, key: str) -> tuple[int, int] | None:
        return None


@attrs.frozen
class ConfigProblem:
    """One thing wrong with the configuration; `key` is the dotted key. Both are capped
    (`inwards_core.model.quoting`): a key or a value they quote may be megabytes long."""

    __repr__ = value_repr

    file: str
    line: int | None
    column: int | None
    key: str = attrs.field(converter=quoted)
    message: str = attrs.field(converter=capped_message)

    def render(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class ConfigError(Exception):
    """The configuration can't be used. Exit code 2; every problem is listed."""

    def __init__(self, problems: tuple[ConfigProblem, ...]) -> None:
        super().__init__("\n".join(p.render() for p in problems))
        self.problems = problems


@attrs.frozen
class Layer:
    """One layer. `rank` orders layers innermost first (0 is innermost); siblings of one
    group share a rank. `key` is the dotted key of its table, for messages."""

    __repr__ = value_repr

    name: str
    modules: tuple[str, ...]
    rank: int
    key: str
    allow_libraries: tuple[str, ...] | None = None
    deny_libraries: tuple[str, ...] | None = None
    extend_deny_libraries: tuple[str, ...] = ()


@attrs.frozen
class RuleSettings:
    """`[tool.inwards.rules]`: selection and per-rule option tables (keyed by rule name),
    and the rules templates turn on (`templates`, validated against the rule set too)."""

    __repr__ = value_repr

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = attrs.field(factory=dict)
    options: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    templates: tuple[TemplateRule, ...] = ()


@attrs.frozen
class RulePolicies:
    """The project's policies over the rule roots: how much of the user root it takes
    (`user-rules`) and what a project definition colliding with a user one does
    (`on-collision`). Read even when the rest of the configuration fails to build."""

    __repr__ = value_repr

    user_rules: str = "on"
    on_collision: str = "warn"


MODULE_CYCLES, CONTEXT_CYCLES = "modules", "contexts"
DEFAULT_CYCLES = (CONTEXT_CYCLES,)


DEFAULT_GENERATED = ("*_pb2", "*_pb2_grpc", "_version")
DEFAULT_ESCALATE_AFTER = 3


@attrs.frozen
class Config:
    """`file` is the configuration file's path relative to the project directory (the
    directory holding it); `root` is relative to the project directory too."""

    __repr__ = value_repr

    file: str
    root: str
    layers: tuple[Layer, ...]
    ignore: tuple[str, ...] = ()
    generated: tuple[str, ...] = DEFAULT_GENERATED
    namespace_packages: tuple[str, ...] = ()
    required_version: str | None = None
    # Set by the CLI in a uv workspace, never read from [tool.inwards]: the packages of
    # the other members ("workspace packages": not this project's code), and the portions
    # of this project's namespace packages installed in the workspace's .venv.
    workspace_packages: tuple[str, ...] = ()
    installed_portions: tuple[str, ...] = ()
    user_rules: str = "on"
    on_collision: str = "warn"
    rules: RuleSettings = attrs.field(factory=RuleSettings)
    contexts: tuple[Context, ...] = ()
    cycles: tuple[str, ...] = DEFAULT_CYCLES
    shapes: tuple[Shape, ...] = ()
    names: tuple[NameRule, ...] = ()
    # Globs of the files holding architecture diagrams (`inwards_core.config.path_globs`).
    diagrams: tuple[str, ...] = ()
    # What the coding-agent hooks do (`inwards hook claude-code`): how many times the same
    # finding blocks before the agent is told to ask the user, and whether a suppression
    # comment the agent added during its session counts.
    escalate_after: int = DEFAULT_ESCALATE_AFTER
    agent_suppressions: str = "deny"
    positions: SourcePositions = attrs.field(factory=NoPositions, eq=False, repr=False)

    def locate(self, key: str) -> tuple[int, int]:
        return self.positions.locate(key) or (1, 1)

    @property
    def ranks(self) -> int:
        return 1 + max((layer.rank for layer in self.layers), default=-1)

    def layer_named(self, name: str) -> Layer | None:
        return next((layer for layer in self.layers if layer.name == name), None)

    def context_named(self, name: str) -> Context | None:
        return next((context for context in self.contexts if context.name == name), None)
