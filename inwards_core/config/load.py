"""`[tool.inwards]` (a plain mapping) -> `Config`, strictly.

Every problem is collected before anything is raised, so one run shows the user all of
them, each with its dotted key and, when the mapping came from a file, line and column.
Only the shape of `[tool.inwards.rules]` is checked here; codes, rule names and options
are checked against the resolved rule set by `inwards_core.rules.selection`.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Callable, Mapping
from typing import Any

from inwards_core.config.dotted_keys import key_segment
from inwards_core.config.patterns import parse_module_pattern
from inwards_core.config.values import (
    DEFAULT_GENERATED,
    Config,
    ConfigError,
    ConfigProblem,
    Layer,
    RuleSettings,
    SourcePositions,
)
from inwards_core.model.findings import Severity
from inwards_core.version import inwards_version

PREFIX = "tool.inwards"

# The keys `[tool.inwards]` accepts. A new top-level key is one more entry here (and its
# reading in `build_config`); unknown-key messages list exactly these.
TOP_LEVEL_KEYS = (
    "root",
    "layers",
    "ignore",
    "generated",
    "namespace-packages",
    "required-version",
    "user-rules",
    "rules",
)
LAYER_KEYS = ("name", "modules", "allow-libraries", "deny-libraries", "extend-deny-libraries")
RULES_KEYS = ("select", "extend-select", "ignore", "severity")
USER_RULES_VALUES = ("on", "guidance-only", "off")
SEVERITY_VALUES = tuple(s.value for s in Severity)

_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
_LEADING_VERSION = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?")
_GENERATED_SEGMENT = re.compile(r"^[\w*?]+$")


def build_config(table: Mapping[str, Any], *, file: str, positions: SourcePositions) -> Config:
    """Validate `[tool.inwards]` and build the `Config`; `ConfigError` lists every problem.

    `file` names the configuration file in messages (relative to the project directory);
    `positions` finds each dotted key in it (`NoPositions` for a mapping built in code).
    """
    reader = _Reader(file, positions)
    config = reader.read(table)
    if reader.problems or config is None:
        raise ConfigError(reader.sorted_problems())
    return config


def type_name(value: Any) -> str:
    """How messages name the TOML type of `value`: "a string", "an array", ..."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, Mapping):
        return "a table"
    return "a date or time" if hasattr(value, "isoformat") else type(value).__name__


def _closest(unknown: str, keys: tuple[str, ...]) -> str | None:
    """The key `unknown` was probably meant to be. A name over three times as long as
    every key is close to none (difflib's ratio is at most twice the shorter length over
    both); difflib took seconds over a key of megabytes."""
    if len(unknown) > 3 * max(map(len, keys), default=0):
        return None
    close = difflib.get_close_matches(unknown, keys, n=1)
    return close[0] if close else None


def _known(keys: tuple[str, ...], unknown: str) -> str:
    close = _closest(unknown, keys)
    hint = f' Did you mean "{close}"?' if close else ""
    return f"Known keys: {', '.join(keys)}.{hint}"


def _sub(key: str, name: str) -> str:
    return f"{key}.{key_segment(name)}"


def _dotted_name_problem(text: str) -> str | None:
    """Why `text` is not a dotted Python name, or None when it is one."""
    if not text:
        return "must not be empty"
    for segment in text.split("."):
        if not segment:
            return f'"{text}" has an empty segment'
        if not segment.isidentifier():
            return f'"{text}": "{segment}" is not a valid module name segment'
    return None


class _Reader:
    def __init__(self, file: str, positions: SourcePositions) -> None:
        self.file = file
        self.positions = positions
        self.problems: list[ConfigProblem] = []

    def add(self, key: str, message: str) -> None:
        where = self.positions.locate(key)
        line, column = (where[0], where[1]) if where else (None, None)
        self.problems.append(ConfigProblem(self.file, line, column, key, message))

    def sorted_problems(self) -> tuple[ConfigProblem, ...]:
        # File order when positions are known; discovery order otherwise (stable sort).
        def order(problem: ConfigProblem) -> tuple[int, int]:
            return (problem.line or 0, problem.column or 0)

        return tuple(sorted(self.problems, key=order))

    # -- the table -------------------------------------------------------------------

    def read(self, table: Any) -> Config | None:
        # `table` may come from a user's script, whatever its annotation says.
        if not isinstance(table, Mapping):
            self.add(PREFIX, f"must be a table, not {type_name(table)}.")
            return None
        for name in table:
            if name not in TOP_LEVEL_KEYS:
                self.add(
                    _sub(PREFIX, name),
                    f"is not a [tool.inwards] key. {_known(TOP_LEVEL_KEYS, name)}",
                )
        root = self.root(table.get("root", "."))
        layers = self.layers(table)
        ignore = self.string_list(table, "ignore", self.ignore_entry)
        generated = self.string_list(table, "generated", self.generated_entry)
        namespace = self.string_list(table, "namespace-packages", self.dotted_entry)
        required = self.required_version(table.get("required-version"))
        user_rules = self.choice(table, "user-rules", USER_RULES_VALUES, "on")
        rules = self.rules(table.get("rules", {}))
        return Config(
            file=self.file,
            root=root,
            layers=layers,
            ignore=ignore if ignore is not None else (),
            generated=generated if generated is not None else DEFAULT_GENERATED,
            namespace_packages=namespace if namespace is not None else (),
            required_version=required,
            user_rules=user_rules,
            rules=rules,
            positions=self.positions,
        )

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
        self.add(_sub(PREFIX, name), f"must be one of {options}, not {shown}.")
        return default

    # -- string lists ----------------------------------------------------------------

    def string_list(
        self,
        table: Mapping[str, Any],
        name: str,
        check: Callable[[str], str | None],
        key: str | None = None,
    ) -> tuple[str, ...] | None:
        """The array of strings at `name`, each checked by `check` (which returns the
        problem's message or None); None when the key is absent."""
        if name not in table:
            return None
        key = key or _sub(PREFIX, name)
        value = table[name]
        if not isinstance(value, list | tuple):
            self.add(key, f"must be an array of strings, not {type_name(value)}.")
            return ()
        items: list[str] = []
        for index, item in enumerate(value):
            item_key = f"{key}[{index}]"
            if not isinstance(item, str):
                self.add(item_key, f"must be a string, not {type_name(item)}.")
                continue
            message = check(item)
            if message:
                self.add(item_key, message)
                continue
            items.append(item)
        return tuple(items)

    @staticmethod
    def any_string(text: str) -> str | None:
        return None

    @staticmethod
    def dotted_entry(text: str) -> str | None:
        problem = _dotted_name_problem(text)
        return (
            f'{problem}; write a dotted package name such as "google.cloud".' if problem else None
        )

    @staticmethod
    def ignore_entry(text: str) -> str | None:
        name = text[1:] if text.startswith("/") else text
        problem = _dotted_name_problem(name)
        if problem:
            return (
                f'{problem}; write a module name such as "tests" or "shop.migrations" '
                '(a leading "/" anchors it to the top level).'
            )
        return None

    @staticmethod
    def generated_entry(text: str) -> str | None:
        if not text:
            return "must not be empty."
        if "[" in text or "]" in text:
            return f'"{text}" has brackets; only "*" and "?" wildcards are allowed.'
        segments = text.split(".")
        if any(not segment for segment in segments):
            return f'"{text}" has an empty segment.'
        for segment in segments:
            if not _GENERATED_SEGMENT.match(segment) or segment[0].isdigit():
                return f'"{text}": "{segment}" is not a module name (with "*" or "?" wildcards).'
        if all(set(segment) <= {"*", "?"} for segment in segments):
            return f'"{text}" is only wildcards, so it would match every module.'
        return None

    @staticmethod
    def library_entry(text: str) -> str | None:
        problem = _dotted_name_problem(text)
        if problem is None:
            return None
        return (
            f'"{text}" is not an import name: write the name you import, such as "sqlalchemy" or '
            '"http.client"; globs and distribution names like "python-dateutil" are not accepted.'
        )

    # -- layers ----------------------------------------------------------------------

    def layers(self, table: Mapping[str, Any]) -> tuple[Layer, ...]:
        key = f"{PREFIX}.layers"
        if "layers" not in table:
            self.add(
                PREFIX,
                "has no `layers`. List the layers innermost first, such as "
                'layers = [{ name = "domain", modules = ["shop.domain"] }].',
            )
            return ()
        value = table["layers"]
        if not isinstance(value, list | tuple) or not value:
            shown = "an empty array" if isinstance(value, list | tuple) else type_name(value)
            self.add(key, f"must be a non-empty array of layer tables, not {shown}.")
            return ()
        layers: list[Layer] = []
        for rank, element in enumerate(value):
            element_key = f"{key}[{rank}]"
            if isinstance(element, Mapping):
                layer = self.layer(element, element_key, rank)
                if layer is not None:
                    layers.append(layer)
            elif isinstance(element, list | tuple):
                layers.extend(self.group(element, element_key, rank))
            else:
                self.add(
                    element_key,
                    f"must be a layer table or an array of sibling layer tables, "
                    f"not {type_name(element)}.",
                )
        self.check_layers_together(layers)
        return tuple(layers)

    def group(self, group: list[Any] | tuple[Any, ...], key: str, rank: int) -> list[Layer]:
        if len(group) < 2:
            self.add(
                key,
                "is a group of sibling layers with fewer than two layers; "
                "write a single layer as a table on its own, not inside an array.",
            )
        layers: list[Layer] = []
        for index, element in enumerate(group):
            element_key = f"{key}[{index}]"
            if not isinstance(element, Mapping):
                self.add(
                    element_key,
                    f"must be a layer table, not {type_name(element)}; "
                    "sibling groups can't be nested.",
                )
                continue
            layer = self.layer(element, element_key, rank)
            if layer is not None:
                layers.append(layer)
        return layers

    def layer(self, table: Mapping[str, Any], key: str, rank: int) -> Layer | None:
        for unknown in table:
            if unknown not in LAYER_KEYS:
                self.add(_sub(key, unknown), f"is not a layer key. {_known(LAYER_KEYS, unknown)}")
        name = table.get("name")
        if "name" not in table:
            self.add(key, "has no `name`.")
        elif not isinstance(name, str):
            self.add(f"{key}.name", f"must be a string, not {type_name(name)}.")
        elif not name.strip():
            self.add(f"{key}.name", "must not be empty.")
        elif "|" in name:
            self.add(f"{key}.name", f'"{name}" must not contain "|".')
        modules: tuple[str, ...] | None = None
        if "modules" not in table:
            self.add(
                key,
                'has no `modules`; list the module prefixes the layer owns, such as ["shop.domain"]'
                " (an empty array is allowed).",
            )
        else:
            modules = self.string_list(table, "modules", self.module_entry, f"{key}.modules")
        libraries = {
            option: self.string_list(table, option, self.library_entry, f"{key}.{option}")
            for option in ("allow-libraries", "deny-libraries", "extend-deny-libraries")
        }
        if not isinstance(name, str) or not name.strip():
            return None
        # A layer with other problems is still returned, with its valid entries, so the
        # checks across layers (names, shared entries) report on it too.
        return Layer(
            name=name,
            modules=modules or (),
            rank=rank,
            key=key,
            allow_libraries=libraries["allow-libraries"],
            deny_libraries=libraries["deny-libraries"],
            extend_deny_libraries=libraries["extend-deny-libraries"] or (),
        )

    @staticmethod
    def module_entry(text: str) -> str | None:
        try:
            parse_module_pattern(text)
        except ValueError as error:
            message = str(error)
            return message if message.endswith(".") else message + "."
        return None

    def check_layers_together(self, layers: list[Layer]) -> None:
        """Unique names; no module entry in two layers (or twice in one)."""
        names: dict[str, Layer] = {}
        owners: dict[str, Layer] = {}
        for layer in layers:
            first = names.setdefault(layer.name, layer)
            if first is not layer:
                self.add(
                    f"{layer.key}.name",
                    f'"{layer.name}" is already the name of the layer at {first.key}; '
                    "layer names must be unique.",
                )
            for index, module in enumerate(layer.modules):
                owner = owners.setdefault(module, layer)
                entry_key = f"{layer.key}.modules[{index}]"
                if owner is layer and layer.modules.index(module) != index:
                    self.add(entry_key, f'"{module}" is listed twice in layer "{layer.name}".')
                elif owner is not layer:
                    self.add(
                        entry_key,
                        f'"{module}" is in two layers, "{owner.name}" and "{layer.name}"; '
                        "a module entry belongs to one layer.",
                    )

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
        select = self.string_list(value, "select", self.any_string, f"{key}.select")
        if isinstance(value.get("select"), list | tuple) and not value["select"]:
            self.add(
                f"{key}.select",
                "must list at least one rule code; to keep the default rules, leave it out.",
            )
        extend = self.string_list(value, "extend-select", self.any_string, f"{key}.extend-select")
        ignore = self.string_list(value, "ignore", self.any_string, f"{key}.ignore")
        severity = self.severity(value.get("severity", {}), f"{key}.severity")
        options: dict[str, Mapping[str, Any]] = {}
        for name, table in value.items():
            if name in RULES_KEYS:
                continue
            if isinstance(table, Mapping):
                options[name] = dict(table)
            else:
                hint = _closest(name, RULES_KEYS)
                suggestion = f' Did you mean "{hint}"?' if hint else ""
                self.add(
                    _sub(key, name),
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
                self.add(_sub(key, code), f'must be "error" or "warning", not {shown}.')
        return levels


def _version_tuple(text: str) -> tuple[int, int, int]:
    found = _LEADING_VERSION.match(text)
    if found is None:
        return (0, 0, 0)
    major, minor, patch = (int(part) if part else 0 for part in found.groups())
    return (major, minor, patch)
