"""Extraction caches that live in memory only.

`NullExtractionCache` is what `--no-cache` wires in; `DictExtractionCache` serves tests,
editors and long-running servers that keep facts between runs without touching the disk.
"""

from __future__ import annotations

from collections.abc import Mapping

from inwards_core.model.facts import ModuleFacts
from inwards_core.ports import CacheKey, ExtractionCache

__all__ = ["DictExtractionCache", "NullExtractionCache"]


class NullExtractionCache(ExtractionCache):
    """Remembers nothing: every `get` is a miss."""

    @property
    def keeps_nothing(self) -> bool:
        return True  # no digest is worth computing for a key (see ExtractionCache)

    def get(self, key: CacheKey) -> ModuleFacts | None:
        return None

    def put(self, key: CacheKey, facts: ModuleFacts) -> None:
        return None

    def flush(self, *, prune: bool) -> None:
        return None


class DictExtractionCache(ExtractionCache):
    """Facts kept in a dict for as long as the object lives.

    `flush(prune=True)` keeps only the entries gotten or put since the previous flush,
    which is what the disk cache does with its pack.
    """

    def __init__(self, entries: Mapping[CacheKey, ModuleFacts] | None = None) -> None:
        self._entries: dict[CacheKey, ModuleFacts] = dict(entries or {})
        self._used: set[CacheKey] = set()

    @property
    def entries(self) -> Mapping[CacheKey, ModuleFacts]:
        """A read-only view of what the cache holds now."""
        return dict(self._entries)

    def get(self, key: CacheKey) -> ModuleFacts | None:
        facts = self._entries.get(key)
        if facts is not None:
            self._used.add(key)
        return facts

    def put(self, key: CacheKey, facts: ModuleFacts) -> None:
        self._entries[key] = facts
        self._used.add(key)

    def flush(self, *, prune: bool) -> None:
        if prune:
            self._entries = {
                key: facts for key, facts in self._entries.items() if key in self._used
            }
        self._used = set()
