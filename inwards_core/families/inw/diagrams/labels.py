"""What a node's label says about the code: the module prefixes or selectors written in it.

A label is read as module names only where it looks like them: it is split at line
breaks (`<br>`, `<br/>`, a new line) and commas, and a part is judged when it is one word
that is a module prefix or selector holding a `.` or a wildcard, or one lower-case word
(`shop`). Prose (`Domain model`, `REST API`) and capitalised words are a caption, not a
claim about the code: they are never reported.
"""

from __future__ import annotations

import re

from inwards_core import parse_module_pattern

_BREAKS = re.compile(r"<br\s*/?>|\n|,", re.IGNORECASE)


def module_parts(label: str) -> tuple[str, ...]:
    """The parts of `label` that name modules, in order."""
    found: list[str] = []
    for raw in _BREAKS.split(label):
        part = raw.strip().strip("`")
        if not part or any(char.isspace() for char in part):
            continue
        if "." not in part and "*" not in part and not (part.islower() and part.isidentifier()):
            continue
        try:
            parse_module_pattern(part)
        except ValueError:
            continue
        found.append(part)
    return tuple(found)
