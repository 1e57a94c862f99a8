"""Module patterns: literal prefixes (`shop.domain`) and selectors (`shop.*.domain`, `shop.**.api`).

A pattern owns every module it matches and everything below it: `shop.domain` owns
`shop.domain` and `shop.domain.order`, never `shop.domainx`. In a selector `*` stands for
exactly one segment and `**` for one or more; a selector starts with a literal top-level
package, and a segment is either a whole identifier or a whole wildcard.

When several patterns match one module, the owner is decided by, in order: the deepest last
literal segment of the match, the deeper match, more literal segments, the pattern listed
first (`precedence` gives the first three as a key where bigger wins).
"""

from __future__ import annotations

import functools

import attrs

_WILD = ("*", "**")


@attrs.frozen
class PatternMatch:
    """How a pattern matched a module: `depth` segments of the module were consumed, and
    the pattern's last literal segment stood at segment `last_literal` (1-based)."""

    depth: int
    last_literal: int
    literals: int

    def precedence(self) -> tuple[int, int, int]:
        return (self.last_literal, self.depth, self.literals)


@attrs.frozen
class ModulePattern:
    text: str
    segments: tuple[str, ...]

    @property
    def is_selector(self) -> bool:
        return any(s in _WILD for s in self.segments)

    @property
    def literal_count(self) -> int:
        return sum(1 for s in self.segments if s not in _WILD)

    @property
    def top_level(self) -> str:
        return self.segments[0]

    def match(self, module: str) -> PatternMatch | None:
        """The best way this pattern matches `module` or a package above it; None if not."""
        return _match(self.segments, tuple(module.split(".")))

    def matches(self, module: str) -> bool:
        return self.match(module) is not None


def parse_module_pattern(text: str) -> ModulePattern:
    """Parse one `modules` entry; `ValueError` with a message saying what is wrong."""
    if not isinstance(text, str):
        raise ValueError("must be a string")
    if text != text.strip() or not text:
        raise ValueError(f'"{text}" must be a dotted module name without spaces')
    if "/" in text or "\\" in text:
        raise ValueError(f'"{text}" is a path; write a dotted module name such as "shop.domain"')
    segments = tuple(text.split("."))
    for segment in segments:
        if segment == "":
            raise ValueError(f'"{text}" has an empty segment')
        if segment in _WILD:
            continue
        if any(ch in segment for ch in "*?[]"):
            raise ValueError(
                f'"{text}" has a partial wildcard in "{segment}": a segment is a whole name, '
                '"*" (one segment) or "**" (one or more)'
            )
        if not segment.isidentifier():
            raise ValueError(f'"{text}": "{segment}" is not a valid module name segment')
    if segments[0] in _WILD:
        raise ValueError(
            f'"{text}" must start with a literal top-level package, such as "shop.*.domain"'
        )
    return ModulePattern(text, segments)


@functools.lru_cache(maxsize=65536)
def _match(pattern: tuple[str, ...], module: tuple[str, ...]) -> PatternMatch | None:
    best: PatternMatch | None = None

    def walk(p: int, m: int, last_literal: int, literals: int) -> None:
        nonlocal best
        if p == len(pattern):
            found = PatternMatch(m, last_literal, literals)
            if best is None or found.precedence() > best.precedence():
                best = found
            return
        if m == len(module):
            return
        segment = pattern[p]
        if segment == "*":
            walk(p + 1, m + 1, last_literal, literals)
        elif segment == "**":
            for end in range(m + 1, len(module) + 1):
                walk(p + 1, end, last_literal, literals)
        elif module[m] == segment:
            walk(p + 1, m + 1, m + 1, literals + 1)

    walk(0, 0, 0, 0)
    return best
