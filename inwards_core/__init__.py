"""inwards_core: the architecture checks of inwards, as a library (docs/library.md).

    import inwards_core

    report = inwards_core.check_path(".")  # as `inwards check` run here
    for finding in report.findings:
        print(finding.file, finding.span.line, finding.code, finding.message)

`report.to_json()` is the document `inwards check --format json` prints.
`inwards_core.check_sources(files, pyproject=...)` checks an in-memory project, and
`inwards_core.check(config, files)` takes any `ProjectFiles` adapter.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from inwards_core.version import VERSION as __version__

if TYPE_CHECKING:
    from inwards_core.api import (
        ConfigNotFoundError,
        InwardsWarning,
        Prepared,
        check,
        check_sources,
        installed_families,
        load_config,
        load_config_text,
        load_rules,
        prepare,
    )
    from inwards_core.authoring.docgen import render_rule_page
    from inwards_core.authoring.examples import example_problems, run_example
    from inwards_core.baseline import Baseline, BaselineError
    from inwards_core.baseline.matching import apply_baseline
    from inwards_core.baseline.reading import parse_baseline
    from inwards_core.baseline.writing import build_baseline, serialise_baseline
    from inwards_core.config.entries import library_entry
    from inwards_core.config.patterns import ModulePattern, parse_module_pattern
    from inwards_core.config.values import (
        Config,
        ConfigError,
        ConfigProblem,
        Context,
        Layer,
        NameRule,
        PublicEntry,
        Shape,
    )
    from inwards_core.diagrams.blocks import DiagramBlock, find_diagram_blocks
    from inwards_core.diagrams.model import Diagram, DiagramEdge, DiagramKind, DiagramNode
    from inwards_core.diagrams.reading import parse_diagram_block
    from inwards_core.index.hints import edit_distance
    from inwards_core.index.members import PackageMember
    from inwards_core.index.modules import ModuleIndex, ModuleInfo
    from inwards_core.model.content_facts import (
        BindingFact,
        CallFact,
        ClassFact,
        ContentFacts,
        FunctionFact,
        HandlerFact,
        ParamFact,
        TryFact,
    )
    from inwards_core.model.facts import (
        DynamicImportFact,
        FileProblemKind,
        ImportFact,
        ImportStyle,
        ModuleFacts,
        SuppressionProblem,
    )
    from inwards_core.model.findings import (
        BaselineEntry,
        ChainStep,
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
    from inwards_core.model.quoting import LIST_LIMIT, quoted
    from inwards_core.plugins import FamilyLoadError, PluginHost, hookimpl
    from inwards_core.ports import RootReport, RootState, RuleDocument, RuleSources
    from inwards_core.rules.definitions import RuleDefinition
    from inwards_core.rules.kind_docs import Example, KindDocs
    from inwards_core.rules.kinds import (
        CheckKind,
        Family,
        NoOptions,
        Reach,
        ReadScope,
        Scope,
        Violation,
    )
    from inwards_core.rules.layering import RuleLayering
    from inwards_core.rules.module_names import ModuleNames, is_test_module
    from inwards_core.rules.options import OptionsError, option, option_name
    from inwards_core.rules.project import ImportEdge, ProjectModel
    from inwards_core.rules.resolver import resolve
    from inwards_core.rules.rule_set import RuleSet
    from inwards_core.rules.selection import ActiveRule
    from inwards_core.session import Session, SessionSetup, check_path
    from inwards_core.version import inwards_distribution, inwards_version

# The public API, imported on first use: `import inwards_core.version` (or any small
# module) must not pay for the whole engine, and the CLI's start-up depends on it.
_HOMES = {
    "ConfigNotFoundError": "inwards_core.api",
    "InwardsWarning": "inwards_core.api",
    "Prepared": "inwards_core.api",
    "check": "inwards_core.api",
    "check_path": "inwards_core.session",
    "check_sources": "inwards_core.api",
    "installed_families": "inwards_core.api",
    "load_config": "inwards_core.api",
    "load_config_text": "inwards_core.api",
    "load_rules": "inwards_core.api",
    "prepare": "inwards_core.api",
    "Config": "inwards_core.config.values",
    "ConfigError": "inwards_core.config.values",
    "ConfigProblem": "inwards_core.config.values",
    "Layer": "inwards_core.config.values",
    "Context": "inwards_core.config.values",
    "PublicEntry": "inwards_core.config.values",
    "Shape": "inwards_core.config.values",
    "NameRule": "inwards_core.config.values",
    # For authors of rule families: what a check kind reads, examples, docs pages.
    "render_rule_page": "inwards_core.authoring.docgen",
    "example_problems": "inwards_core.authoring.examples",
    "run_example": "inwards_core.authoring.examples",
    "BindingFact": "inwards_core.model.content_facts",
    "CallFact": "inwards_core.model.content_facts",
    "ClassFact": "inwards_core.model.content_facts",
    "ContentFacts": "inwards_core.model.content_facts",
    "FunctionFact": "inwards_core.model.content_facts",
    "HandlerFact": "inwards_core.model.content_facts",
    "ParamFact": "inwards_core.model.content_facts",
    "TryFact": "inwards_core.model.content_facts",
    "DynamicImportFact": "inwards_core.model.facts",
    "ImportFact": "inwards_core.model.facts",
    "ImportStyle": "inwards_core.model.facts",
    "ModuleFacts": "inwards_core.model.facts",
    "ModuleIndex": "inwards_core.index.modules",
    "ModuleInfo": "inwards_core.index.modules",
    "PackageMember": "inwards_core.index.members",
    "edit_distance": "inwards_core.index.hints",
    "ChainStep": "inwards_core.model.findings",
    "Finding": "inwards_core.model.findings",
    "Fix": "inwards_core.model.findings",
    "NotChecked": "inwards_core.model.findings",
    "Origin": "inwards_core.model.findings",
    "Report": "inwards_core.model.findings",
    "RootKind": "inwards_core.model.findings",
    "Severity": "inwards_core.model.findings",
    "Span": "inwards_core.model.findings",
    "SuppressedFinding": "inwards_core.model.findings",
    "FamilyLoadError": "inwards_core.plugins",
    "PluginHost": "inwards_core.plugins",
    "ProjectModel": "inwards_core.rules.project",
    "ModuleNames": "inwards_core.rules.module_names",
    "is_test_module": "inwards_core.rules.module_names",
    "hookimpl": "inwards_core.plugins",
    "CheckKind": "inwards_core.rules.kinds",
    "Family": "inwards_core.rules.kinds",
    "ReadScope": "inwards_core.rules.kinds",
    "Reach": "inwards_core.rules.kinds",
    "Session": "inwards_core.session",
    "SessionSetup": "inwards_core.session",
    "Scope": "inwards_core.rules.kinds",
    "Violation": "inwards_core.rules.kinds",
    "OptionsError": "inwards_core.rules.options",
    # The kind contract: its docs and examples, its options, and what its messages quote.
    "Example": "inwards_core.rules.kind_docs",
    "KindDocs": "inwards_core.rules.kind_docs",
    "NoOptions": "inwards_core.rules.kinds",
    "option": "inwards_core.rules.options",
    "option_name": "inwards_core.rules.options",
    "FileProblemKind": "inwards_core.model.facts",
    "SuppressionProblem": "inwards_core.model.facts",
    "ImportEdge": "inwards_core.rules.project",
    "ModulePattern": "inwards_core.config.patterns",
    "parse_module_pattern": "inwards_core.config.patterns",
    "library_entry": "inwards_core.config.entries",
    "LIST_LIMIT": "inwards_core.model.quoting",
    "quoted": "inwards_core.model.quoting",
    "ActiveRule": "inwards_core.rules.selection",
    "RuleDefinition": "inwards_core.rules.definitions",
    "RuleSet": "inwards_core.rules.rule_set",
    "RuleLayering": "inwards_core.rules.layering",
    "inwards_distribution": "inwards_core.version",
    "inwards_version": "inwards_core.version",
    # Rule definitions from roots of your own (an editor plugin, a script), and baselines.
    "resolve": "inwards_core.rules.resolver",
    "RootReport": "inwards_core.ports",
    "RootState": "inwards_core.ports",
    "RuleDocument": "inwards_core.ports",
    "RuleSources": "inwards_core.ports",
    "Baseline": "inwards_core.baseline",
    "BaselineEntry": "inwards_core.model.findings",
    "BaselineError": "inwards_core.baseline",
    "apply_baseline": "inwards_core.baseline.matching",
    "build_baseline": "inwards_core.baseline.writing",
    "parse_baseline": "inwards_core.baseline.reading",
    "serialise_baseline": "inwards_core.baseline.writing",
    # Marked architecture diagrams, read (the diagram rules, the import-diagram command).
    "Diagram": "inwards_core.diagrams.model",
    "DiagramKind": "inwards_core.diagrams.model",
    "DiagramBlock": "inwards_core.diagrams.blocks",
    "DiagramEdge": "inwards_core.diagrams.model",
    "DiagramNode": "inwards_core.diagrams.model",
    "find_diagram_blocks": "inwards_core.diagrams.blocks",
    "parse_diagram_block": "inwards_core.diagrams.reading",
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
    "LIST_LIMIT",
    "ActiveRule",
    "Baseline",
    "BaselineEntry",
    "BaselineError",
    "BindingFact",
    "CallFact",
    "ChainStep",
    "CheckKind",
    "ClassFact",
    "Config",
    "ConfigError",
    "ConfigNotFoundError",
    "ConfigProblem",
    "ContentFacts",
    "Context",
    "Diagram",
    "DiagramBlock",
    "DiagramEdge",
    "DiagramKind",
    "DiagramNode",
    "DynamicImportFact",
    "Example",
    "Family",
    "FamilyLoadError",
    "FileProblemKind",
    "Finding",
    "Fix",
    "FunctionFact",
    "HandlerFact",
    "ImportEdge",
    "ImportFact",
    "ImportStyle",
    "InwardsWarning",
    "KindDocs",
    "Layer",
    "ModuleFacts",
    "ModuleIndex",
    "ModuleInfo",
    "ModuleNames",
    "ModulePattern",
    "NameRule",
    "NoOptions",
    "NotChecked",
    "OptionsError",
    "Origin",
    "PackageMember",
    "ParamFact",
    "PluginHost",
    "Prepared",
    "ProjectModel",
    "PublicEntry",
    "Reach",
    "ReadScope",
    "Report",
    "RootKind",
    "RootReport",
    "RootState",
    "RuleDefinition",
    "RuleDocument",
    "RuleLayering",
    "RuleSet",
    "RuleSources",
    "Scope",
    "Session",
    "SessionSetup",
    "Severity",
    "Shape",
    "Span",
    "SuppressedFinding",
    "SuppressionProblem",
    "TryFact",
    "Violation",
    "__version__",
    "apply_baseline",
    "build_baseline",
    "check",
    "check_path",
    "check_sources",
    "edit_distance",
    "example_problems",
    "find_diagram_blocks",
    "hookimpl",
    "installed_families",
    "inwards_distribution",
    "inwards_version",
    "is_test_module",
    "library_entry",
    "load_config",
    "load_config_text",
    "load_rules",
    "option",
    "option_name",
    "parse_baseline",
    "parse_diagram_block",
    "parse_module_pattern",
    "prepare",
    "quoted",
    "render_rule_page",
    "resolve",
    "run_example",
    "serialise_baseline",
]
