"""inwards_core: the architecture checks of inwards, as a library.

    import inwards_core

    report = inwards_core.check_sources(
        {"shop/domain/order.py": "from shop.infrastructure import db\n", ...},
        pyproject=open("pyproject.toml").read(),
    )
    for finding in report.findings:
        print(finding.file, finding.span.line, finding.code, finding.message)

For a project on disk, build the adapters yourself (or use `inwards_cli.bootstrap`):
`inwards_core.check(config, files)` takes any `ProjectFiles`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from inwards_core.version import VERSION as __version__

if TYPE_CHECKING:
    from inwards_core.api import (
        Prepared,
        check,
        check_sources,
        installed_families,
        load_config,
        load_config_text,
        load_rules,
        prepare,
    )
    from inwards_core.config.model import Config, ConfigError, ConfigProblem, Layer
    from inwards_core.model import (
        Finding,
        Fix,
        NotChecked,
        Origin,
        Report,
        RootKind,
        Severity,
        Span,
        SuppressedFinding,
    )
    from inwards_core.plugins import PluginHost, hookimpl
    from inwards_core.rules.kinds import CheckKind, Family, Scope, Violation
    from inwards_core.rules.runtime import ActiveRule, RuleDefinition, RuleSet
    from inwards_core.version import inwards_version

# The public API, imported on first use: `import inwards_core.version` (or any small
# module) must not pay for the whole engine, and the CLI's start-up depends on it.
_HOMES = {
    "Prepared": "inwards_core.api",
    "check": "inwards_core.api",
    "check_sources": "inwards_core.api",
    "installed_families": "inwards_core.api",
    "load_config": "inwards_core.api",
    "load_config_text": "inwards_core.api",
    "load_rules": "inwards_core.api",
    "prepare": "inwards_core.api",
    "Config": "inwards_core.config.model",
    "ConfigError": "inwards_core.config.model",
    "ConfigProblem": "inwards_core.config.model",
    "Layer": "inwards_core.config.model",
    "Finding": "inwards_core.model",
    "Fix": "inwards_core.model",
    "NotChecked": "inwards_core.model",
    "Origin": "inwards_core.model",
    "Report": "inwards_core.model",
    "RootKind": "inwards_core.model",
    "Severity": "inwards_core.model",
    "Span": "inwards_core.model",
    "SuppressedFinding": "inwards_core.model",
    "PluginHost": "inwards_core.plugins",
    "hookimpl": "inwards_core.plugins",
    "CheckKind": "inwards_core.rules.kinds",
    "Family": "inwards_core.rules.kinds",
    "Scope": "inwards_core.rules.kinds",
    "Violation": "inwards_core.rules.kinds",
    "ActiveRule": "inwards_core.rules.runtime",
    "RuleDefinition": "inwards_core.rules.runtime",
    "RuleSet": "inwards_core.rules.runtime",
    "inwards_version": "inwards_core.version",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'inwards_core' has no attribute {name!r}")
    module = importlib.import_module(home)  # inwards: ignore[INW011] reason="a fixed table"
    value = getattr(module, name)
    globals()[name] = value
    return value


__all__ = [
    "ActiveRule",
    "CheckKind",
    "Config",
    "ConfigError",
    "ConfigProblem",
    "Family",
    "Finding",
    "Fix",
    "Layer",
    "NotChecked",
    "Origin",
    "PluginHost",
    "Prepared",
    "Report",
    "RootKind",
    "RuleDefinition",
    "RuleSet",
    "Scope",
    "Severity",
    "Span",
    "SuppressedFinding",
    "Violation",
    "__version__",
    "check",
    "check_sources",
    "hookimpl",
    "installed_families",
    "inwards_version",
    "load_config",
    "load_config_text",
    "load_rules",
    "prepare",
]
