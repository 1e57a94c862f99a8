"""The public entry points: load a configuration, resolve rules, check a project.

Everything here takes its adapters as arguments; `inwards_cli.bootstrap` wires the real
ones, and a user's script can pass in-memory ones.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from inwards_core.adapters.caches import NullExtractionCache
from inwards_core.adapters.entry_points import installed_entry_points
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.packaged_rules import PackagedRuleSources
from inwards_core.arguments import path_sequence, require_mapping, require_str, shown, type_name
from inwards_core.config.load import build_config, read_rule_settings
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import Config, ConfigError, ConfigProblem, SourcePositions
from inwards_core.engine import Ports, RunOptions, check_project
from inwards_core.extraction.facts_reading import ParseMany, parse_serially
from inwards_core.model.findings import Report
from inwards_core.model.value_repr import value_repr
from inwards_core.plugins import PluginHost
from inwards_core.ports import ExtractionCache, GrammarBinaries, ProjectFiles, RuleSources
from inwards_core.rules.definitions import DefinitionProblem
from inwards_core.rules.kinds import Family
from inwards_core.rules.resolver import resolve
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule, select, validate_rule_settings

if TYPE_CHECKING:
    pass


def load_config(
    table: Mapping[str, Any],
    *,
    file: str = "pyproject.toml",
    positions: SourcePositions | None = None,
) -> Config:
    """Validate a `[tool.inwards]` table (already parsed). Raises ConfigError."""
    return build_config(table, file=file, positions=positions or TomlPositions(""))


def load_config_text(text: str, *, file: str = "pyproject.toml") -> Config:
    """Validate the `[tool.inwards]` table of a whole pyproject.toml given as text."""
    require_str("text", text, "the text of a pyproject.toml")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            (ConfigProblem(file, None, None, "", f"is not valid TOML: {error}."),)
        ) from error
    table = data.get("tool", {}).get("inwards")
    if not isinstance(table, dict):
        raise ConfigError((ConfigProblem(file, None, None, "tool.inwards", "is missing."),))
    return build_config(table, file=file, positions=TomlPositions(text))


def installed_families(
    *, entry_points: bool = True, plugins: Sequence[object] = ()
) -> tuple[Family, ...]:
    """Every rule family registered through the `inwards` entry-point group by a
    distribution installed in this environment (none from the working directory), and
    those of `plugins`."""
    points = installed_entry_points() if entry_points else ()
    return PluginHost.create(plugins=plugins, entry_points=points).families()


def load_rules(
    families: Sequence[Family] | None = None,
    sources: RuleSources | None = None,
    *,
    user_rules: str = "on",
    on_collision: str = "warn",
    parsed_tables: MutableMapping[str, Any] | None = None,
) -> RuleSet:
    """Resolve the rule definitions of every root the sources give (core only by default).
    `user_rules` is the project's `user-rules` policy ("on", "guidance-only", "off");
    `on_collision` its `on-collision` policy ("warn", "error", "ignore") for a project
    definition that replaces a user one with another intent; `parsed_tables` an optional
    cache of parsed definitions (sha256 -> TOML table)."""
    families = installed_families() if families is None else _families("families", families)
    sources = sources or PackagedRuleSources(families)
    return resolve(
        sources.documents(),
        families,
        user_rules=user_rules,
        on_collision=on_collision,
        roots=sources.roots(),
        parsed_tables=parsed_tables,
    )


def definition_errors(rule_set: RuleSet) -> tuple[DefinitionProblem, ...]:
    """Problems that stop a run: any in the core or project root (user-root problems warn)."""
    return rule_set.errors


def whole_config_error(
    error: ConfigError,
    table: Mapping[str, Any],
    rule_set: RuleSet,
    *,
    file: str,
    positions: SourcePositions,
) -> ConfigError:
    """`error` (the configuration build failed) with every other problem `prepare` would
    have reported: the blocking rule-definition problems and the `[tool.inwards.rules]`
    problems, the table read from the raw mapping as far as it can be. One run lists all
    of them, sorted by file, line and column, instead of one stage per run."""
    settings, _ = read_rule_settings(table, file=file, positions=positions)
    problems = list(error.problems)
    problems += [
        ConfigProblem(p.path, p.line, p.column, p.key, p.message)
        for p in definition_errors(rule_set)
    ]
    problems += validate_rule_settings(settings, rule_set, file, positions)
    unique = list(dict.fromkeys(problems))

    def order(problem: ConfigProblem) -> tuple[str, int, int]:
        return (problem.file, problem.line or 0, problem.column or 0)

    return ConfigError(tuple(sorted(unique, key=order)))


@attrs.frozen
class Prepared:
    __repr__ = value_repr

    config: Config
    rule_set: RuleSet
    rules: tuple[ActiveRule, ...]


def prepare(config: Config, rule_set: RuleSet) -> Prepared:
    """Check `[tool.inwards.rules]` against the resolved rules and apply selection."""
    if not isinstance(config, Config):
        raise TypeError(
            f"config must be a Config (from load_config or load_config_text), "
            f"not {type_name(config)}"
        )
    if not isinstance(rule_set, RuleSet):
        raise TypeError(f"rule_set must be a RuleSet (from load_rules), not {type_name(rule_set)}")
    blocking = definition_errors(rule_set)
    problems = [ConfigProblem(p.path, p.line, p.column, p.key, p.message) for p in blocking]
    problems += validate_rule_settings(config.rules, rule_set, config.file, config.positions)
    if problems:
        raise ConfigError(tuple(problems))
    return Prepared(config, rule_set, select(rule_set, config.rules))


def check(
    config: Config,
    files: ProjectFiles,
    *,
    rule_set: RuleSet | None = None,
    cache: ExtractionCache | None = None,
    grammars: GrammarBinaries | None = None,
    paths: Sequence[str] | None = None,
    parse_many: ParseMany = parse_serially,
    full_parse: bool = False,
) -> Report:
    """Check a project and return the report. `paths` are POSIX paths relative to the
    project directory; None checks the whole project. `full_parse` parses every file
    whole, so syntax errors anywhere are reported (named paths always are).

    This is the low-level call: only the rule set it is given (the core definitions by
    default), no baseline, the adapters it is given. `check_path` checks a directory on
    disk as `inwards check` does."""
    _require_project_files(files)
    paths = path_sequence("paths", paths)
    prepared = prepare(config, rule_set or load_rules())
    ports = Ports(files, cache or NullExtractionCache(), grammars or StandardGrammars(), parse_many)
    return check_project(
        prepared.config, prepared.rules, ports, RunOptions(paths=paths, full_parse=full_parse)
    )


def check_sources(
    sources: Mapping[str, str | bytes], *, pyproject: str, paths: Sequence[str] | None = None
) -> Report:
    """Check an in-memory project: `sources` maps POSIX paths to file contents, `pyproject`
    is the text of its pyproject.toml. Handy in scripts, tests and editors.

    Raises `TypeError` for a path or contents of the wrong type, or `paths` given as one
    string, and `ValueError` for two paths that name one file (`a/b.py`, `./a/b.py`)."""
    from inwards_core.adapters.in_memory import InMemoryProjectFiles

    files = InMemoryProjectFiles(
        require_mapping("sources", sources, "paths to contents"), argument="sources"
    )
    named = path_sequence("paths", paths)
    config = load_config_text(require_str("pyproject", pyproject, "the text of pyproject.toml"))
    return check(config, files, paths=named)


def _require_project_files(files: object) -> None:
    """`check(config, ".")` would fail deep in the engine (no `listing` on a str)."""
    if callable(getattr(files, "listing", None)) and callable(getattr(files, "read_bytes", None)):
        return
    if isinstance(files, str | os.PathLike):
        raise TypeError(
            f"files must be a ProjectFiles adapter, not a path ({shown(files)}): to check a "
            f"directory on disk as `inwards check` does, call "
            f"inwards_core.check_path({shown(os.fspath(files))})"
        )
    raise TypeError(
        f"files must be a ProjectFiles adapter (listing() and read_bytes(), for example "
        f"inwards_core.adapters.in_memory.InMemoryProjectFiles), not {type_name(files)}: "
        f"{shown(files)}"
    )


def _families(argument: str, families: object) -> tuple[Family, ...]:
    if isinstance(families, str | bytes) or not isinstance(families, Sequence):
        raise TypeError(
            f"{argument} must be a sequence of Family (from installed_families), "
            f"not {type_name(families)}: {shown(families)}"
        )
    for index, family in enumerate(families):
        if not isinstance(family, Family):
            raise TypeError(f"{argument}[{index}] must be a Family, not {type_name(family)}")
    return tuple(families)


# -- the errors and warnings of a check on disk (`inwards_core.Session.open`) ------------


class ConfigNotFoundError(ConfigError):
    """No `pyproject.toml` with a `[tool.inwards]` table at or above the directory checked."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        super().__init__(
            (
                ConfigProblem(
                    directory,
                    None,
                    None,
                    "",
                    "has no pyproject.toml with a [tool.inwards] table, and neither has any "
                    "directory above it. Add a [tool.inwards] table listing the project's "
                    "layers, innermost first, to its pyproject.toml (see docs/configuration.md), "
                    "or run `inwards init` there to write a starting one.",
                ),
            )
        )


class InwardsWarning(UserWarning):
    """A warning of a check that is no finding (`warnings.warn`): a rule root or a user
    definition that can't be used, a cache that can't be written. The command line prints
    these as `warning:` lines on standard error."""
