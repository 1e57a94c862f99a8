"""What a command loads before it works: the configuration file (found from where the user
stands, or named), the rule families and definitions of every root, and the plugins for
what they contribute besides their families."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inwards_cli.commands.console import fail, fail_config, warn
from inwards_cli.composition import (
    ResolvedRules,
    installed_plugin_host,
    resolve_rule_roots,
    rule_warnings,
)
from inwards_cli.config_file import NO_CONFIG_MESSAGE, LoadedConfig, find_config, read_config
from inwards_core.config.values import Config, ConfigError
from inwards_core.plugins import FamilyLoadError, PluginHost
from inwards_core.rules.selection import ActiveRule

__all__ = [
    "ResolvedRules",
    "active_rules",
    "build_config",
    "find_optional_config",
    "locate_config",
    "plugin_host",
    "print_rule_warnings",
    "resolve_rules",
    "rule_warnings",
]


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


def resolve_rules(
    loaded: LoadedConfig | None,
    config: Config | None,
    *,
    isolated: bool,
    use_cache: bool = True,
    verify_cache: bool = False,
    disabled: Sequence[str] | None = (),
    user_rules: str | None = None,
    on_collision: str | None = None,
) -> ResolvedRules:
    """Resolve core, user and project definitions (`resolve_rule_roots`); a family that
    fails to load is exit 2."""
    try:
        return resolve_rule_roots(
            loaded,
            config,
            isolated=isolated,
            use_cache=use_cache,
            verify_cache=verify_cache,
            disabled=tuple(disabled or ()),
            user_rules=user_rules,
            on_collision=on_collision,
        )
    except FamilyLoadError as error:
        fail(f"error: {error}")


def active_rules(loaded: LoadedConfig, config: Config, *, isolated: bool) -> tuple[ActiveRule, ...]:
    """Every rule as `[tool.inwards.rules]` selects it (enabled or not), as `check` would
    run it; a selection or rule option `check` refuses is exit 2 with the same problems."""
    from inwards_core.rules.selection import select, validate_rule_settings

    rule_set = resolve_rules(loaded, config, isolated=isolated).rule_set
    problems = validate_rule_settings(config.rules, rule_set, config.file, config.positions)
    if problems:  # as `inwards check` says them, before the rules are selected
        fail_config(ConfigError(problems))
    return tuple(select(rule_set, config.rules))


def print_rule_warnings(resolved: ResolvedRules) -> None:
    for line in rule_warnings(resolved):
        warn(line)


def plugin_host(project_dir: Path | None) -> PluginHost:
    """The installed plugins less those INWARDS_DISABLE_PLUGINS leaves out (never imported),
    as `resolve_rules` loads them; a plugin that fails to load is exit 2."""
    try:
        return installed_plugin_host(project_dir)[0]
    except FamilyLoadError as error:
        fail(f"error: {error}")
