"""Patterns of whole name segments that may stand anywhere in a dotted name, as
`[tool.inwards]` writes `ignore` (`migrations`, `/scripts`) and `generated` (`*_pb2`)."""

from __future__ import annotations

import re
from collections.abc import Iterable


class SegmentPatterns:
    """Names matched by dotted patterns that may stand anywhere in a name, on whole
    segments: `migrations` matches `shop.orders.migrations` and everything below it.

    A leading `/` anchors a pattern at the top level. With `wildcards`, `*` in a segment
    stands for any run of characters and `?` for one character, never crossing a dot.
    """

    def __init__(self, texts: Iterable[str], *, wildcards: bool) -> None:
        # Unanchored one-segment patterns (the usual `migrations`, `*_pb2`) are checked per
        # segment with one set and one regex; the rest as runs of segments.
        literals: set[str] = set()
        wild: list[str] = []
        self._runs: list[tuple[bool, tuple[re.Pattern[str] | str, ...]]] = []
        for text in texts:
            anchored = text.startswith("/")
            segments = text.lstrip("/").split(".")
            if not all(segments):
                continue  # the config loader reports malformed entries; they match nothing
            if not anchored and len(segments) == 1:
                if wildcards and _is_wild(segments[0]):
                    wild.append(segment_regex(segments[0]))
                else:
                    literals.add(segments[0])
                continue
            self._runs.append(
                (
                    anchored,
                    tuple(
                        re.compile(segment_regex(seg)) if wildcards and _is_wild(seg) else seg
                        for seg in segments
                    ),
                )
            )
        self._single_literals = frozenset(literals)
        self._single_wild = re.compile("|".join(f"(?:{w})" for w in wild)) if wild else None
        self._cache: dict[str, bool] = {}
        self._segment_cache: dict[str, bool] = {}

    def __bool__(self) -> bool:
        return bool(self._single_literals or self._single_wild or self._runs)

    def covers(self, name: str) -> bool:
        known = self._cache.get(name)
        if known is None:
            known = self._cache[name] = self._covers(name.split("."))
        return known

    def _covers(self, segments: list[str]) -> bool:
        if any(self._segment_hit(segment) for segment in segments):
            return True
        for anchored, pattern in self._runs:
            last_start = 0 if anchored else len(segments) - len(pattern)
            for start in range(last_start + 1):
                if len(segments) - start >= len(pattern) and all(
                    _segment_matches(p, segments[start + offset])
                    for offset, p in enumerate(pattern)
                ):
                    return True
        return False

    def _segment_hit(self, segment: str) -> bool:
        known = self._segment_cache.get(segment)
        if known is None:
            known = segment in self._single_literals or (
                self._single_wild is not None and self._single_wild.fullmatch(segment) is not None
            )
            self._segment_cache[segment] = known
        return known


def _is_wild(segment: str) -> bool:
    return "*" in segment or "?" in segment


def segment_regex(segment: str) -> str:
    """A regex that fullmatches what the glob `segment` matches, in time linear in the
    name times the pattern: `*a*a*a*b` as `.*a.*a.*a.*b` backtracked exponentially over a
    long file name. Each run between two `*` takes its first occurrence (an atomic group
    never gives it back), which is always right for runs of fixed length."""
    chunks = [
        "".join("." if ch == "?" else re.escape(ch) for ch in run) for run in segment.split("*")
    ]
    if len(chunks) == 1:
        return chunks[0]
    first, *middle, last = chunks
    return first + "".join(f"(?>.*?{chunk})" for chunk in middle) + ".*" + last


def _segment_matches(pattern: re.Pattern[str] | str, segment: str) -> bool:
    if isinstance(pattern, str):
        return pattern == segment
    return pattern.fullmatch(segment) is not None
