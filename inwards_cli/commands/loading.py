"""What a command loads before it works: the configuration file (found from where the user
stands, or named), and the rule families and definitions of every root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from inwards_cli.adapters.rule_manifest import RuleRootsManifest
from inwards_cli.adapters.rule_roots import LocalRuleSources
from inwards_cli.bootstrap import CACHE_DIR, rule_sources
from inwards_cli.commands.console import fail, fail_config, warn
from inwards_cli.config_file import NO_CONFIG_MESSAGE, LoadedConfig, find_config, read_config
from inwards_core.adapters.entry_points import installed_entry_points
from inwards_core.api import load_rules
from inwards_core.config.values import Config, ConfigError
from inwards_core.plugins import FamilyLoadError, PluginHost
from inwards_core.ports import RootState
from inwards_core.rules.rule_set import RuleSet
from inwards_core.verification import CacheMismatch


def locate_config(config: Path | None) -> LoadedConfig:
    try:
        if config is not None:
            # read_config says what is wrong: absent, a directory, a FIFO, unreadable.
            return read_config(config)
        found = find_config(Path.cwd())
        if found is None:
            fail(*NO_CONFIG_MESSAGE.split("\n"))
        return read_config(found)
    except ConfigError as error:
        fail_config(error)


def find_optional_config(config: Path | None) -> LoadedConfig | None:
    """Like `locate_config`, but outside a project (no file found) is None, not an error:
    `status` and `rules shadow --to user` work anywhere."""
    if config is None and find_config(Path.cwd()) is None:
        return None
    return locate_config(config)


def build_config(loaded: LoadedConfig) -> Config:
    try:
        return loaded.build()
    except ConfigError as error:
        fail_config(error)


@attrs.frozen
class ResolvedRules:
    """The rule set a command works with, and the sources it came from."""

    sources: LocalRuleSources
    rule_set: RuleSet
    manifest: RuleRootsManifest | None
    # With `verify_cache`: the cached tables that differ from their definitions.
    cache_mismatches: tuple[CacheMismatch, ...] = ()


def resolve_rules(
    loaded: LoadedConfig | None,
    config: Config | None,
    *,
    isolated: bool,
    use_cache: bool = True,
    verify_cache: bool = False,
) -> ResolvedRules:
    """Resolve core, user and project definitions with the project's `user-rules` policy.
    A family that fails to load is exit 2; definition problems are left in the rule set
    for the command to report (errors stop `check`, warnings don't). With `use_cache`, the
    parsed definitions kept in the project's cache directory are reused; with
    `verify_cache` too, every definition is parsed afresh and each cached table that
    differs is a mismatch (the fresh tables replace them in the manifest)."""
    try:
        project_dir = loaded.project_dir if loaded is not None else None
        points = installed_entry_points(project_dir)
        families = PluginHost.create(entry_points=points).families()
    except FamilyLoadError as error:
        fail(f"error: {error}")
    policy = config.user_rules if config is not None else "on"
    sources = rule_sources(
        families,
        project_dir=loaded.project_dir if loaded is not None else None,
        user_rules=policy,
        isolated=isolated,
    )
    manifest = None
    if loaded is not None and use_cache:
        manifest = RuleRootsManifest.read(loaded.project_dir / CACHE_DIR)
    fresh: dict[str, Any] | None = {} if verify_cache else None
    rule_set = load_rules(
        families,
        sources,
        user_rules=policy,
        parsed_tables=fresh if fresh is not None or manifest is None else manifest.tables,
    )
    mismatches: list[CacheMismatch] = []
    if manifest is not None and fresh is not None:
        mismatches = manifest.verify(fresh, sources.documents())
        manifest.tables.update(fresh)
    return ResolvedRules(sources, rule_set, manifest, tuple(mismatches))


def rule_warnings(resolved: ResolvedRules) -> list[str]:
    """What a command prints as `warning:` lines about the rule roots."""
    lines = [
        f"{report.root.value} rules: {report.warning}"
        for report in resolved.sources.roots()
        if report.warning and report.state is not RootState.IGNORED
    ]
    lines += resolved.rule_set.warnings()
    return lines


def print_rule_warnings(resolved: ResolvedRules) -> None:
    for line in rule_warnings(resolved):
        warn(line)
