"""Re-deriving what a cache holds, and saying where a cached entry departs from it.

`check --verify-cache` re-reads every file whose facts came from the extraction cache and
re-parses every rule definition whose table came from the rule manifest; an entry that
differs from what it claims to be made from is a `CacheMismatch`. These functions only
compare values: where the values come from is the caller's business.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from inwards_core.model.facts import (
    DynamicImportFact,
    FileProblem,
    FileProblemKind,
    ImportFact,
    ModuleFacts,
    SuppressionComment,
)
from inwards_core.model.value_repr import value_repr

__all__ = [
    "CacheMismatch",
    "CachedFactsDiffer",
    "facts_difference",
    "table_difference",
]

QUOTED_CHARACTERS = 80  # a message quotes at most this much of a statement or value

_Item = TypeVar("_Item")


@attrs.frozen
class CacheMismatch:
    """A cache entry that is not what its source gives: `entry` names the source (a file of
    the project, a rule definition), `difference` says where they first part."""

    __repr__ = value_repr

    entry: str
    difference: str

    def render(self) -> str:
        return f"{self.entry}: {self.difference}"


class CachedFactsDiffer(Exception):
    """Raised by a verifying check when cached facts differ from the files' own."""

    def __init__(self, mismatches: Sequence[CacheMismatch]) -> None:
        super().__init__(f"{len(mismatches)} cached entries differ from their files")
        self.mismatches = tuple(mismatches)


def _quoted(value: Any) -> str:
    """A value as JSON (quotes, escapes), cut short: cached text may be anything."""
    try:
        text = json.dumps(value, ensure_ascii=True, sort_keys=True, default=str)
    except (ValueError, RecursionError):
        text = type(value).__name__
    if len(text) > QUOTED_CHARACTERS:
        text = text[: QUOTED_CHARACTERS - 3] + "..."
    return text


def _import_text(fact: ImportFact) -> str:
    return f"line {fact.span.line} {_quoted(fact.statement)}"


def _dynamic_text(fact: DynamicImportFact) -> str:
    return f"line {fact.span.line} {_quoted(fact.statement or fact.loader)}"


def _suppression_text(comment: SuppressionComment) -> str:
    return f"line {comment.line} ignore[{_quoted(','.join(comment.codes))}]"


def _problem_text(problem: FileProblem | None) -> str:
    if problem is None:
        return "no problem"
    return f"{problem.kind.value} at line {problem.span.line} ({_quoted(problem.message)})"


def _sequence_difference(
    label: str,
    cached: Sequence[_Item],
    fresh: Sequence[_Item],
    shown: Callable[[_Item], str],
) -> str:
    counts = f"{label}: the cache holds {len(cached)}, the file {len(fresh)}"
    at = 0
    while at < len(cached) and at < len(fresh) and cached[at] == fresh[at]:
        at += 1
    if at < len(cached) and at < len(fresh):
        return f"{counts}; the cache has {shown(cached[at])} where the file has {shown(fresh[at])}"
    if at < len(fresh):
        return f"{counts}; the file has {shown(fresh[at])}, which the cache lacks"
    return f"{counts}; the cache has {shown(cached[at])}, which the file lacks"


def facts_difference(cached: ModuleFacts, fresh: ModuleFacts) -> str:
    """Where `cached` first departs from `fresh` (the file's facts read afresh), in one
    line; "" when they are equal."""
    if cached == fresh:
        return ""
    if fresh.problem is not None and fresh.problem.kind is FileProblemKind.LIMIT:
        return (
            "the file could not be read again within the limits, so its cached facts can't "
            "be verified"
        )
    if cached.imports != fresh.imports:
        return _sequence_difference("imports", cached.imports, fresh.imports, _import_text)
    if cached.dynamic_imports != fresh.dynamic_imports:
        return _sequence_difference(
            "dynamic imports", cached.dynamic_imports, fresh.dynamic_imports, _dynamic_text
        )
    if cached.suppressions != fresh.suppressions:
        return _sequence_difference(
            "suppression comments", cached.suppressions, fresh.suppressions, _suppression_text
        )
    if cached.problem != fresh.problem:
        return (
            f"the cache records {_problem_text(cached.problem)}, "
            f"the file gives {_problem_text(fresh.problem)}"
        )
    if cached.grammar != fresh.grammar:
        return (
            f"grammar: the cache has {_quoted(cached.grammar)}, the file {_quoted(fresh.grammar)}"
        )
    if cached.extends_path != fresh.extends_path or cached.registers != fresh.registers:
        return (
            f"__path__ and sys.modules: the cache has {_path_text(cached)}, "
            f"the file {_path_text(fresh)}"
        )
    if cached.import_hook_line != fresh.import_hook_line:
        return f"sys.meta_path: the cache has {_hook_text(cached)}, the file {_hook_text(fresh)}"
    return f"line count: the cache has {cached.line_count}, the file {fresh.line_count}"


def _path_text(facts: ModuleFacts) -> str:
    extends = "extends __path__" if facts.extends_path else "keeps __path__"
    registers = ", ".join(_quoted(name) for name in facts.registers) or "nothing"
    return f"{extends}, registers {registers}"


def _hook_text(facts: ModuleFacts) -> str:
    if facts.import_hook_line:
        return f"an import hook added on line {facts.import_hook_line}"
    return "no import hook"


def _same_scalar(cached: Any, fresh: Any) -> bool:
    # 1, 1.0 and true are different TOML values, and NaN is what the file says it is.
    if type(cached) is not type(fresh):
        return False
    if isinstance(cached, float) and math.isnan(cached) and math.isnan(fresh):
        return True
    return bool(cached == fresh)


def table_difference(cached: Any, fresh: Any) -> str:
    """Where a cached parsed table first departs from the table the definition's bytes
    parse to, as `key.path: ...`; "" when they are the same TOML value."""
    try:
        return _table_difference(cached, fresh, "")
    except RecursionError:  # only a forged table nests this deep: TOML parsing stops first
        return "the cached table is nested too deeply to compare"


def _table_difference(cached: Any, fresh: Any, where: str) -> str:
    place = where or "the table"
    if isinstance(cached, Mapping) and isinstance(fresh, Mapping):
        for key in sorted({*cached, *fresh}, key=str):
            inner = f"{where}.{key}" if where else str(key)
            if key not in cached:
                return f"{inner}: the definition sets {_quoted(fresh[key])}, the cache lacks it"
            if key not in fresh:
                return f"{inner}: the cache sets {_quoted(cached[key])}, the definition lacks it"
            found = _table_difference(cached[key], fresh[key], inner)
            if found:
                return found
        return ""
    if isinstance(cached, list) and isinstance(fresh, list):
        for index, (left, right) in enumerate(zip(cached, fresh, strict=False)):
            found = _table_difference(left, right, f"{where}[{index}]")
            if found:
                return found
        if len(cached) != len(fresh):
            return f"{place}: the cache has {len(cached)} items, the definition {len(fresh)}"
        return ""
    if _same_scalar(cached, fresh):
        return ""
    return f"{place}: the cache has {_quoted(cached)}, the definition {_quoted(fresh)}"
