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
