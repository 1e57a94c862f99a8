"""Running a check kind's examples (`CheckKind.examples`, `Example` values): each is a
small project checked in memory, whose findings must be exactly the ones it marks.

An example's own rule definitions are resolved as project-root definitions on top of the
core ones, through the one resolver, exactly as `inwards check` would resolve them.
"""

from __future__ import annotations

import functools

import attrs

from inwards_core.model.findings import Report, RootKind
from inwards_core.ports import RuleDocument
from inwards_core.rules.kind_docs import Example
from inwards_core.rules.kinds import Family
from inwards_core.rules.resolver import resolve
from inwards_core.rules.rule_set import RuleSet

# `Example` is a field type of the kind API (`inwards_core.rules.kind_docs`); running one is here.
__all__ = ["Example", "example_problems", "example_rule_set", "found", "run_example"]


@functools.cache
def _installed_families() -> tuple[Family, ...]:
    from inwards_core.api import installed_families

    return installed_families()


def example_rule_set(example: Example, families: tuple[Family, ...] | None = None) -> RuleSet:
    """The core definitions of `families` (the installed ones by default) and the
    example's own definitions as project-root documents, resolved by the one resolver."""
    from inwards_core.adapters.packaged_rules import packaged_documents

    families = _installed_families() if families is None else families
    documents = [
        *packaged_documents(families),
        *(
            RuleDocument(RootKind.PROJECT, path, text.encode("utf-8"))
            for path, text in example.definition_sources().items()
        ),
    ]
    return resolve(documents, families)


def run_example(example: Example, rule_set: RuleSet | None = None) -> Report:
    """Check the example's files in memory with every rule it may trigger.

    `rule_set` stands for the core rules; an example with definitions of its own resolves
    them on top of the core definitions instead. Findings located in the configuration
    (layers that own nothing, entries that match no module) are left out: an example shows
    only the files that matter to it.
    """
    from inwards_core.adapters.in_memory import InMemoryProjectFiles
    from inwards_core.api import check, load_config_text

    files: dict[str, str | bytes] = {
        "pyproject.toml": example.config,
        **example.definition_sources(),
        **example.sources(),
    }
    config = load_config_text(example.config)
    if example.definitions:
        rule_set = example_rule_set(example)
    report = check(config, InMemoryProjectFiles(files), rule_set=rule_set)
    return attrs.evolve(report, findings=tuple(f for f in report.findings if f.file != config.file))


def found(report: Report) -> list[tuple[str, int, str]]:
    return sorted((f.file, f.span.line, f.code) for f in report.findings)


def example_problems(example: Example, rule_set: RuleSet | None = None) -> list[str]:
    """What is wrong with an example's outcome; empty when it behaves as documented."""
    report = run_example(example, rule_set)
    actual = found(report)
    if example.good:
        return [f"expected no finding, got {line}" for line in actual]
    expected = example.expected()
    if not expected:
        return ["a bad example must mark at least one `# expect:` line"]
    problems = [f"missing {item}" for item in expected if item not in actual]
    problems += [f"unexpected {item}" for item in actual if item not in expected]
    return problems
