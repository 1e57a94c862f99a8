"""Module patterns: the best match is found without trying every way to match, and is the
one trying every way would pick."""

from __future__ import annotations

import fnmatch
import re
import time

import pytest

from inwards_core.config.patterns import PatternMatch, parse_module_pattern
from inwards_core.index.segment_patterns import segment_regex as _segment_regex

hypothesis = pytest.importorskip("hypothesis")
strategies = pytest.importorskip("hypothesis.strategies")


def every_way(pattern: tuple[str, ...], module: tuple[str, ...]) -> PatternMatch | None:
    """The reference: try every way the pattern can match, keep the best (exponential in
    the number of `**`; only for small inputs)."""
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


@pytest.mark.parametrize(
    ("pattern", "module", "expected"),
    [
        ("shop.domain", "shop.domain.order", PatternMatch(2, 2, 2)),
        ("shop.domain", "shop.domainx", None),
        ("shop.*.api", "shop.orders.api.v1", PatternMatch(3, 3, 2)),
        ("shop.**.api", "shop.a.b.api", PatternMatch(4, 4, 2)),
        ("shop.**.api", "shop.api", None),
        ("shop.**", "shop.a.b", PatternMatch(3, 1, 1)),
        ("shop.**.**", "shop.a", None),
        ("shop.**.x.**", "shop.x.x.x.y", PatternMatch(5, 4, 2)),
        ("shop.**.x.*", "shop.a.x.b.x.c", PatternMatch(6, 5, 2)),
    ],
)
def test_matches(pattern: str, module: str, expected: PatternMatch | None) -> None:
    assert parse_module_pattern(pattern).match(module) == expected


SEGMENTS = strategies.sampled_from(["a", "b", "*", "**"])


@hypothesis.given(
    strategies.lists(SEGMENTS, max_size=6),
    strategies.lists(strategies.sampled_from(["a", "b", "c"]), max_size=9),
)
@hypothesis.settings(max_examples=400, deadline=None)
def test_same_answer_as_trying_every_way(rest: list[str], parts: list[str]) -> None:
    pattern = parse_module_pattern(".".join(["a", *rest]))
    module = ("a", *parts)
    assert pattern.match(".".join(module)) == every_way(pattern.segments, module)


@pytest.mark.parametrize("wildcards", [10, 50])
def test_many_deep_wildcards_over_a_deep_package_are_quick(wildcards: int) -> None:
    """Backtracking took about a minute at ten `**` over a package 30 deep."""
    pattern = parse_module_pattern("shop." + ".".join(["**"] * wildcards) + ".zzz")
    deep = "shop." + ".".join(f"p{level}" for level in range(30))
    started = time.process_time()
    assert pattern.match(deep) is None
    assert pattern.match(deep + ".zzz") == (PatternMatch(32, 32, 2) if wildcards <= 30 else None)
    assert time.process_time() - started < 0.5


@pytest.mark.parametrize(
    ("glob", "name", "expected"),
    [
        ("*_pb2", "orders_pb2", True),
        ("*_pb2", "orders_pb2x", False),
        ("a?c", "abc", True),
        ("*a*a*b", "xaxab", True),
        ("*a*a*b", "xab", False),
        ("a**b", "ab", True),
    ],
)
def test_glob_segments(glob: str, name: str, expected: bool) -> None:
    assert (re.fullmatch(_segment_regex(glob), name) is not None) is expected


@hypothesis.given(
    strategies.text(alphabet="ab*?", max_size=7), strategies.text(alphabet="ab", max_size=8)
)
def test_glob_segments_match_as_fnmatch_does(glob: str, name: str) -> None:
    assert (re.fullmatch(_segment_regex(glob), name) is not None) is fnmatch.fnmatchcase(name, glob)


def test_a_glob_of_many_stars_over_a_long_name_is_quick() -> None:
    """`.*a.*a.*...b` backtracked exponentially: four stars over 200 characters took 6 s."""
    started = time.process_time()
    assert re.fullmatch(_segment_regex("*a" * 30 + "*b"), "a" * 250) is None
    assert time.process_time() - started < 0.5
