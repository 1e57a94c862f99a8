"""The public entry points: load a configuration, resolve rules, check a project.

Everything here takes its adapters as arguments; `inwards_cli.bootstrap` wires the real
ones, and a user's script can pass in-memory ones.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

import attrs

from inwards_core.adapters.caches import NullExtractionCache
from inwards_core.adapters.entry_points import installed_entry_points
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.packaged_rules import PackagedRuleSources
from inwards_core.arguments import path_sequence, require_mapping, require_str, shown, type_name
from inwards_core.config.load import build_config
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import Config, ConfigError, ConfigProblem, SourcePositions
from inwards_core.engine import ParseMany, check_project, parse_serially
from inwards_core.model.findings import Report
from inwards_core.plugins import PluginHost
from inwards_core.ports import ExtractionCache, GrammarBinaries, ProjectFiles, RuleSources
from inwards_core.rules.definitions import DefinitionProblem
from inwards_core.rules.kinds import Family
from inwards_core.rules.resolver import resolve
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule, select, validate_rule_settings


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
    parsed_tables: MutableMapping[str, Any] | None = None,
) -> RuleSet:
    """Resolve the rule definitions of every root the sources give (core only by default).
    `user_rules` is the project's `user-rules` policy ("on", "guidance-only", "off");
    `parsed_tables` an optional cache of parsed definitions (sha256 -> TOML table)."""
    families = installed_families() if families is None else _families("families", families)
    sources = sources or PackagedRuleSources(families)
    return resolve(
        sources.documents(),
        families,
        user_rules=user_rules,
        roots=sources.roots(),
        parsed_tables=parsed_tables,
    )


def definition_errors(rule_set: RuleSet) -> tuple[DefinitionProblem, ...]:
    """Problems that stop a run: any in the core or project root (user-root problems warn)."""
    return rule_set.errors


@attrs.frozen
class Prepared:
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
    problems = [ConfigProblem(p.path, p.line, None, p.key, p.message) for p in blocking]
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
    whole, so syntax errors anywhere are reported (named paths always are)."""
    paths = path_sequence("paths", paths)
    prepared = prepare(config, rule_set or load_rules())
    return check_project(
        prepared.config,
        prepared.rules,
        files=files,
        cache=cache or NullExtractionCache(),
        grammars=grammars or StandardGrammars(),
        paths=paths,
        parse_many=parse_many,
        full_parse=full_parse,
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
