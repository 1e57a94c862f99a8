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

__version__ = inwards_version()

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
