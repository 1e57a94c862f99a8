"""Rule examples: small projects, as data, that document a check kind and test it.

Each check-kind module has `EXAMPLES`, a tuple of `Example`. A bad example marks every line
where a finding must start with a trailing `# expect: CODE[, CODE]` comment; a good example
must produce no finding at all. The markers are stripped before the example runs and before it
is rendered into the rule's docs page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from inwards_core.model import Report
from inwards_core.rules.runtime import RuleSet

DEFAULT_EXAMPLE_CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""

_EXPECT = re.compile(r"\s*# expect: ([A-Z0-9, ]+)$")


@attrs.frozen
class Example:
    title: str
    good: bool
    files: Mapping[str, str]
    config: str = DEFAULT_EXAMPLE_CONFIG

    def sources(self) -> dict[str, str]:
        """The files without their `# expect:` markers."""
        return {
            path: "\n".join(_EXPECT.sub("", line) for line in text.split("\n"))
            for path, text in self.files.items()
        }

    def expected(self) -> list[tuple[str, int, str]]:
        """Sorted (file, line, code) of every finding the example must produce."""
        found: list[tuple[str, int, str]] = []
        for path, text in self.files.items():
            for number, line in enumerate(text.split("\n"), start=1):
                match = _EXPECT.search(line)
                if match:
                    for code in match.group(1).split(","):
                        found.append((path, number, code.strip()))
        return sorted(found)


def run_example(example: Example, rule_set: RuleSet | None = None) -> Report:
    """Check the example's files in memory with every rule it may trigger.

    Findings located in the configuration (layers that own nothing, entries that match no
    module) are left out: an example shows only the files that matter to it.
    """
    from inwards_core.api import check, load_config_text
    from inwards_core.testing import InMemoryProjectFiles

    files: dict[str, str | bytes] = {"pyproject.toml": example.config, **example.sources()}
    config = load_config_text(example.config)
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
