"""`[tool.inwards]`: the validated configuration, its loading, and key positions."""

from __future__ import annotations

from inwards_core.config.load import TOP_LEVEL_KEYS, build_config
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import (
    DEFAULT_GENERATED,
    Config,
    ConfigError,
    ConfigProblem,
    Layer,
    NoPositions,
    RuleSettings,
    SourcePositions,
)

__all__ = [
    "DEFAULT_GENERATED",
    "TOP_LEVEL_KEYS",
    "Config",
    "ConfigError",
    "ConfigProblem",
    "Layer",
    "NoPositions",
    "RuleSettings",
    "SourcePositions",
    "TomlPositions",
    "build_config",
]
