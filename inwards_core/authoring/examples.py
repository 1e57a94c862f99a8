"""Rule examples: small projects, as data, that document a check kind and test it.

Each check-kind module has `EXAMPLES`, a tuple of `Example`. A bad example marks every line
where a finding must start with a trailing `# expect: CODE[, CODE]` comment; a good example
must produce no finding at all. The markers are stripped before the example runs and before it
is rendered into the rule's docs page.

An example may bring rule definitions of its own (`definitions`: file name under
`.inwards/rules/` -> TOML text): they are resolved as project-root definitions on top of the
core ones, through the one resolver, exactly as `inwards check` would resolve them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import attrs

from inwards_core.model.findings import Report, RootKind
from inwards_core.ports import RuleDocument
from inwards_core.rules.kinds import Family
from inwards_core.rules.runtime import RuleSet, resolve

DEFAULT_EXAMPLE_CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""

_EXPECT = re.compile(r"\s*# expect: ([A-Z0-9, ]+)$")
PROJECT_RULES = ".inwards/rules"


def _strip_markers(text: str) -> str:
    return "\n".join(_EXPECT.sub("", line) for line in text.split("\n"))


@attrs.frozen
class Example:
    title: str
    good: bool
    files: Mapping[str, str]
    config: str = DEFAULT_EXAMPLE_CONFIG
    definitions: Mapping[str, str] = attrs.field(factory=dict)

    def sources(self) -> dict[str, str]:
        """The files without their `# expect:` markers."""
        return {path: _strip_markers(text) for path, text in self.files.items()}

    def definition_sources(self) -> dict[str, str]:
        """The definitions by their path in the project (`.inwards/rules/ACME001.toml`),
        without their `# expect:` markers."""
        return {
            f"{PROJECT_RULES}/{name}": _strip_markers(text)
            for name, text in sorted(self.definitions.items())
        }

    def expected(self) -> list[tuple[str, int, str]]:
        """Sorted (file, line, code) of every finding the example must produce (a finding
        about a definition's own options is marked in the definition)."""
        found: list[tuple[str, int, str]] = []
        marked = {
            **self.files,
            **{f"{PROJECT_RULES}/{name}": text for name, text in self.definitions.items()},
        }
        for path, text in marked.items():
            for number, line in enumerate(text.split("\n"), start=1):
                match = _EXPECT.search(line)
                if match:
                    for code in match.group(1).split(","):
                        found.append((path, number, code.strip()))
        return sorted(found)


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
