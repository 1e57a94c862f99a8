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

from inwards_core.model.value_repr import value_repr

_WILD = ("*", "**")


@attrs.frozen
class PatternMatch:
    """How a pattern matched a module: `depth` segments of the module were consumed, and
    the pattern's last literal segment stood at segment `last_literal` (1-based)."""

    __repr__ = value_repr

    depth: int
    last_literal: int
    literals: int

    def precedence(self) -> tuple[int, int, int]:
        return (self.last_literal, self.depth, self.literals)


@attrs.frozen
class ModulePattern:
    __repr__ = value_repr

    text: str
    segments: tuple[str, ...]

    @property
    def is_selector(self) -> bool:
        return any(s in _WILD for s in self.segments)

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
    """The best match, found without trying every way to match.

    Trying each way backtracked through every split of the module among the `**`
    segments: ten of them over a package 30 deep took a minute. Instead the module
    positions each pattern prefix can reach are computed once per segment (time in the
    module's parts times the pattern's). Every full match consumes all literal segments,
    so the best match is the one whose last literal segment sits deepest, then the
    deepest: only the wildcards after that last literal remain to place, and they can
    always reach the deepest end they allow."""
    literal_at = [index for index, segment in enumerate(pattern) if segment not in _WILD]
    last = literal_at[-1] if literal_at else -1
    # The positions in `module` reached after each segment up to the last literal one.
    reached = [0]
    for segment in pattern[: last + 1]:
        reached = _advance(reached, segment, module)
        if not reached:
            return None
    tail = pattern[last + 1 :]
    singles = sum(1 for segment in tail if segment == "*")
    any_deep = "**" in tail
    needed = singles + tail.count("**")
    for position in reversed(reached):
        if position + needed > len(module):
            continue
        depth = len(module) if any_deep else position + singles
        return PatternMatch(depth, position if last >= 0 else 0, len(literal_at))
    return None


def _advance(reached: list[int], segment: str, module: tuple[str, ...]) -> list[int]:
    """The module positions (ascending) reached after `segment`, from those `reached`
    before it (ascending)."""
    if segment == "**":  # one or more parts: everything past the shallowest start
        return list(range(reached[0] + 1, len(module) + 1))
    if segment == "*":
        return [position + 1 for position in reached if position < len(module)]
    return [
        position + 1
        for position in reached
        if position < len(module) and module[position] == segment
    ]
