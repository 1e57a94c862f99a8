"""What a check kind's pages are made of: its prose (`KindDocs`) and its examples (`Example`).

Both are fields of `CheckKind`. The rule page of every rule that names the kind, the kind's
own page, `inwards rule CODE` and SARIF's rule help are rendered from them
(`inwards_core.authoring.docgen`), and the test suites run every example
(`inwards_core.authoring.examples`).

A bad example marks every line where a finding must start with a trailing
`# expect: CODE[, CODE]` comment; a good example must produce no finding at all. The markers
are stripped before the example runs and before it is rendered into a page. An example may
bring rule definitions of its own (`definitions`: file name under `.inwards/rules/` -> TOML
text): they are resolved as project-root definitions on top of the core ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

import attrs

from inwards_core.model.value_repr import value_repr


@attrs.frozen
class KindDocs:
    """The prose of a kind's pages, one Markdown text per section (its `## ` heading is
    written by the page). Write each for a user who met a finding of the kind."""

    __repr__ = value_repr

    what_it_does: str
    why_is_this_bad: str
    how_to_fix: str
    limitations: str

    def sections(self) -> tuple[tuple[str, str], ...]:
        """(title, Markdown) of each section that has text, in page order."""
        sections = (
            ("What it does", self.what_it_does),
            ("Why is this bad?", self.why_is_this_bad),
            ("How to fix", self.how_to_fix),
            ("Limitations", self.limitations),
        )
        return tuple((title, text.strip()) for title, text in sections if text.strip())

    def markdown(self) -> str:
        """Every section under its `## ` heading."""
        return "\n\n".join(f"## {title}\n{text}" for title, text in self.sections())


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
    """A small project (a dict of files) that documents a kind and tests it: `good` when
    it must produce no finding, else exactly the findings its `# expect:` markers name. It
    runs with `config` (three layers under `shop` by default) and, for a kind no shipped
    rule uses, its own rule `definitions` (file name -> TOML text)."""

    __repr__ = value_repr

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


# A kind's examples are built when a page or a test asks for them, not when the family is
# imported (which every `inwards check` does).
ExamplesFunction = Callable[[], Sequence[Example]]


def no_examples() -> tuple[Example, ...]:
    return ()
