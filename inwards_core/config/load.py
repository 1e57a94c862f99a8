"""`[tool.inwards]` (a plain mapping) -> `Config`, strictly.

Every problem is collected before anything is raised, so one run shows the user all of
them, each with its dotted key and, when the mapping came from a file, line and column.
Only the shape of `[tool.inwards.rules]` is checked here; codes, rule names and options
are checked against the resolved rule set by `inwards_core.rules.selection`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from inwards_core.config.entries import any_string, dotted_entry, generated_entry, ignore_entry
from inwards_core.config.layers import read_layers
from inwards_core.config.path_globs import path_glob_problem
from inwards_core.config.problems import (
    PREFIX,
    ProblemCollector,
    closest,
    known_keys,
    sub_key,
    type_name,
)
from inwards_core.config.template_use import uses_templates
from inwards_core.config.values import (
    DEFAULT_CYCLES,
    DEFAULT_ESCALATE_AFTER,
    DEFAULT_GENERATED,
    Config,
    ConfigError,
    RulePolicies,
    RuleSettings,
    SourcePositions,
)
from inwards_core.model.findings import Severity
from inwards_core.version import inwards_version

if TYPE_CHECKING:
    from inwards_core.config.values import Context, NameRule, Shape

# The keys `[tool.inwards]` accepts. A new top-level key is one more entry here (and its
# reading in `build_config`); unknown-key messages list exactly these.
TOP_LEVEL_KEYS = (
    "root",
    "layers",
    "templates",
    "ignore",
    "generated",
    "namespace-packages",
    "required-version",
    "user-rules",
    "on-collision",
    "rules",
    "contexts",
    "cycles",
    "shape",
    "names",
    "diagrams",
    "escalate-after",
    "agent-suppressions",
)
RULES_KEYS = ("select", "extend-select", "ignore", "severity")
USER_RULES_VALUES = ("on", "guidance-only", "off")
ON_COLLISION_VALUES = ("warn", "error", "ignore")
AGENT_SUPPRESSIONS_VALUES = ("deny", "allow")
SEVERITY_VALUES = tuple(s.value for s in Severity)

_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
_LEADING_VERSION = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def build_config(table: Mapping[str, Any], *, file: str, positions: SourcePositions) -> Config:
    """Validate `[tool.inwards]` and build the `Config`; `ConfigError` lists every problem.

    `file` names the configuration file in messages (relative to the project directory);
    `positions` finds each dotted key in it (`NoPositions` for a mapping built in code).
    """
    reader = _Reader(file, positions)
    if not uses_templates(table):  # most configurations: the expander is not even imported
        config = reader.read(table)
        if reader.problems or config is None:
            raise ConfigError(reader.sorted_problems())
        return config
    from inwards_core.config.templates import expand_templates

    # Templates first: every reader, and everything after, sees only the expanded form.
    expansion = expand_templates(table, reader)
    reader.key_in_file = expansion.key_in_file
    config = reader.read(expansion.table)
    if reader.problems or config is None:
        raise ConfigError(reader.sorted_problems())
    return expansion.applied_to(config)


def read_rule_settings(
    table: Any, *, file: str, positions: SourcePositions
) -> tuple[RuleSettings, RulePolicies]:
    """`[tool.inwards.rules]` and the `user-rules` and `on-collision` policies read from
    the raw table, as far as they can be: what `build_config` would keep, and defaults
    where it would refuse. Used when the build fails elsewhere (a broken layer), so that
    the rules table is still checked against the rule set and one run reports every
    problem of the file; the shape problems found here are `build_config`'s too, so they
    are dropped."""
    if not isinstance(table, Mapping):
        return RuleSettings(), RulePolicies()
    reader = _Reader(file, positions)
    policy = table.get("user-rules", "on")
    collision = table.get("on-collision", "warn")
    return reader.rules(table.get("rules", {})), RulePolicies(
        policy if policy in USER_RULES_VALUES else "on",
        collision if collision in ON_COLLISION_VALUES else "warn",
    )


class _Reader(ProblemCollector):
    """Reads the table key by key; the layers are read by `inwards_core.config.layers`."""

    # -- the table -------------------------------------------------------------------

    def read(self, table: Any) -> Config | None:
        # `table` may come from a user's script, whatever its annotation says.
        if not isinstance(table, Mapping):
            self.add(PREFIX, f"must be a table, not {type_name(table)}.")
            return None
        for name in table:
            if name not in TOP_LEVEL_KEYS:
                self.add(
                    sub_key(PREFIX, name),
                    f"is not a [tool.inwards] key. {known_keys(TOP_LEVEL_KEYS, name)}",
                )
        root = self.root(table.get("root", "."))
        layers = read_layers(self, table)
        ignore = self.string_list(table, "ignore", ignore_entry)
        generated = self.string_list(table, "generated", generated_entry)
        namespace = self.string_list(table, "namespace-packages", dotted_entry)
        required = self.required_version(table.get("required-version"))
        user_rules = self.choice(table, "user-rules", USER_RULES_VALUES, "on")
        on_collision = self.choice(table, "on-collision", ON_COLLISION_VALUES, "warn")
        rules = self.rules(table.get("rules", {}))
        contexts, cycles = self.contexts_and_cycles(table)
        shapes, names = self.shapes_and_names(table)
        diagrams = self.string_list(table, "diagrams", path_glob_problem)
        escalate_after = self.escalate_after(table.get("escalate-after", DEFAULT_ESCALATE_AFTER))
        agent_suppressions = self.choice(
            table, "agent-suppressions", AGENT_SUPPRESSIONS_VALUES, "deny"
        )
        return Config(
            file=self.file,
            root=root,
            layers=layers,
            ignore=ignore if ignore is not None else (),
            generated=generated if generated is not None else DEFAULT_GENERATED,
            namespace_packages=namespace if namespace is not None else (),
            required_version=required,
            user_rules=user_rules,
            on_collision=on_collision,
            rules=rules,
            contexts=contexts,
            cycles=cycles,
            shapes=shapes,
            names=names,
            diagrams=diagrams or (),
            escalate_after=escalate_after,
            agent_suppressions=agent_suppressions,
            positions=self.positions,
        )

    # Their readers are imported only for a configuration that has the keys: a fast run of
    # a project without them loads none of that code.
    def contexts_and_cycles(
        self, table: Mapping[str, Any]
    ) -> tuple[tuple[Context, ...], tuple[str, ...]]:
        if "contexts" not in table and "cycles" not in table:
            return (), DEFAULT_CYCLES
        from inwards_core.config.contexts import read_contexts, read_cycles

        return read_contexts(self, table), read_cycles(self, table)

    def shapes_and_names(
        self, table: Mapping[str, Any]
    ) -> tuple[tuple[Shape, ...], tuple[NameRule, ...]]:
        if "shape" not in table and "names" not in table:
            return (), ()
        from inwards_core.config.shapes import read_names, read_shapes

        return read_shapes(self, table), read_names(self, table)

    def root(self, value: Any) -> str:
        key = f"{PREFIX}.root"
        if not isinstance(value, str):
            self.add(key, f"must be a string, not {type_name(value)}.")
            return "."
        text = value.replace("\\", "/")
        if not text.strip():
            self.add(key, 'must name a directory; use "." for the directory of the configuration.')
        elif "\0" in text:
            # No file system allows it, and every os call would raise on it.
            self.add(key, "must not hold a NUL character (\\u0000); no directory name can.")
        elif text.startswith("/") or re.match(r"^[A-Za-z]:", text):
            self.add(key, f'"{value}" must be relative to the directory of the configuration.')
        elif ".." in text.split("/"):
            self.add(
                key, f'"{value}" must stay inside the directory of the configuration (no "..").'
            )
        else:
            return posixpath.normpath(text)
        return "."

    def choice(
        self, table: Mapping[str, Any], name: str, allowed: tuple[str, ...], default: str
    ) -> str:
        value = table.get(name, default)
        if value in allowed:
            return str(value)
        options = ", ".join(f'"{a}"' for a in allowed)
        shown = f'"{value}"' if isinstance(value, str) else type_name(value)
        self.add(sub_key(PREFIX, name), f"must be one of {options}, not {shown}.")
        return default

    def escalate_after(self, value: Any) -> int:
        # bool is an int in Python, and `true` is no count.
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        whole = isinstance(value, int) and not isinstance(value, bool)
        shown = str(value) if whole else type_name(value)
        self.add(
            sub_key(PREFIX, "escalate-after"),
            f"must be a whole number of 1 or more (how many times the agent hooks block the "
            f"same finding before they ask the agent to stop and ask the user), not {shown}.",
        )
        return DEFAULT_ESCALATE_AFTER

    # -- version ---------------------------------------------------------------------

    def required_version(self, value: Any) -> str | None:
        if value is None:
            return None
        key = f"{PREFIX}.required-version"
        if not isinstance(value, str):
            self.add(key, f'must be a string such as "1.2.0", not {type_name(value)}.')
            return None
        wanted = _VERSION.match(value)
        if wanted is None:
            self.add(
                key, f'"{value}" must be a version written MAJOR.MINOR.PATCH, such as "1.2.0".'
            )
            return None
        current = inwards_version()
        if _version_tuple(value) > _version_tuple(current):
            self.add(key, f"This project requires inwards {value} or newer; this is {current}.")
        return value

    # -- rules -----------------------------------------------------------------------

    def rules(self, value: Any) -> RuleSettings:
        key = f"{PREFIX}.rules"
        if not isinstance(value, Mapping):
            self.add(key, f"must be a table, not {type_name(value)}.")
            return RuleSettings()
        select = self.string_list(value, "select", any_string, f"{key}.select")
        if isinstance(value.get("select"), list | tuple) and not value["select"]:
            self.add(
                f"{key}.select",
                "must list at least one rule code; to keep the default rules, leave it out.",
            )
        extend = self.string_list(value, "extend-select", any_string, f"{key}.extend-select")
        ignore = self.string_list(value, "ignore", any_string, f"{key}.ignore")
        severity = self.severity(value.get("severity", {}), f"{key}.severity")
        options: dict[str, Mapping[str, Any]] = {}
        for name, table in value.items():
            if name in RULES_KEYS:
                continue
            if isinstance(table, Mapping):
                options[name] = dict(table)
            else:
                hint = closest(name, RULES_KEYS)
                suggestion = f' Did you mean "{hint}"?' if hint else ""
                self.add(
                    sub_key(key, name),
                    f'must be a table of options for the rule named "{name}", not '
                    f"{type_name(table)}; the other rules keys are "
                    f"{', '.join(RULES_KEYS)}.{suggestion}",
                )
        return RuleSettings(
            select=select,
            extend_select=extend or (),
            ignore=ignore or (),
            severity=severity,
            options=options,
        )

    def severity(self, value: Any, key: str) -> dict[str, Severity]:
        if not isinstance(value, Mapping):
            self.add(
                key,
                f'must be a table of rule codes, such as {{ INW006 = "warning" }}, '
                f"not {type_name(value)}.",
            )
            return {}
        levels: dict[str, Severity] = {}
        for code, level in value.items():
            if level in SEVERITY_VALUES:
                levels[code] = Severity(level)
            else:
                shown = f'"{level}"' if isinstance(level, str) else type_name(level)
                self.add(sub_key(key, code), f'must be "error" or "warning", not {shown}.')
        return levels


def _version_tuple(text: str) -> tuple[int, int, int]:
    found = _LEADING_VERSION.match(text)
    if found is None:
        return (0, 0, 0)
    major, minor, patch = (int(part) if part else 0 for part in found.groups())
    return (major, minor, patch)
