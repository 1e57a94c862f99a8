"""The rule-roots manifest in the cache directory.

`<project>/.inwards/cache/rule-roots.json` holds each root's digest at the last check, so
`inwards status` can say which root changed since, and the parsed TOML table of every
definition by the sha256 of its bytes, so a run doesn't parse unchanged definitions again
(parsing TOML is most of what resolving rules costs). Each table records the sha256 it was
parsed from and is used only for a definition with exactly those bytes; `verify` re-parses
and compares (`check --verify-cache`), and the rule-set fingerprint covers the tables used.

Like the extraction cache it never fails a run: an unreadable or foreign manifest, or one
that is not a regular file, reads as empty (without waiting on a FIFO), a write that fails is
skipped, and nothing is read or written through a symlinked `.inwards` or cache directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.adapters.atomic import write_atomically
from inwards_cli.adapters.disk_cache import symlinked_component
from inwards_cli.adapters.reading import read_regular_file
from inwards_core.model.findings import RootKind
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import RuleDocument
from inwards_core.verification import CacheMismatch, table_difference

MANIFEST_NAME = "rule-roots.json"
MANIFEST_SCHEMA = "inwards/rule-roots@3"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024

_NOT_A_TABLE = (
    "the definition does not parse to a table, yet the cache holds a parsed table for its bytes"
)


@attrs.define
class RuleRootsManifest:
    __repr__ = value_repr

    cache_dir: Path
    digests: dict[str, str] | None = None  # None: no earlier check recorded any
    # sha256 of a definition's bytes -> its parsed table; the resolver adds what it parses.
    tables: dict[str, Any] = attrs.Factory(dict)
    # The tables as read from the manifest, which `verify` checks against the definitions.
    stored: dict[str, Any] = attrs.Factory(dict)
    _stored_bytes: bytes = b""

    @classmethod
    def read(cls, cache_dir: Path) -> RuleRootsManifest:
        manifest = cls(cache_dir)
        if symlinked_component(cache_dir) is not None:
            return manifest
        try:
            raw = read_regular_file(
                cache_dir / MANIFEST_NAME, follow_symlinks=False, max_bytes=MAX_MANIFEST_BYTES
            )
            document = json.loads(raw)
        except (OSError, ValueError, RecursionError):
            return manifest
        if not isinstance(document, dict) or document.get("schema") != MANIFEST_SCHEMA:
            return manifest
        digests = document.get("digests")
        if isinstance(digests, dict):
            manifest.digests = {
                k: v for k, v in digests.items() if isinstance(k, str) and isinstance(v, str)
            }
        tables = document.get("tables")
        if isinstance(tables, dict):
            manifest.stored = {
                sha256: entry["table"]
                for sha256, entry in tables.items()
                if isinstance(entry, dict)
                and entry.get("sha256") == sha256
                and isinstance(entry.get("table"), dict)
            }
            manifest.tables = dict(manifest.stored)
        manifest._stored_bytes = raw
        return manifest

    def verify(
        self, fresh: Mapping[str, Any], documents: Sequence[RuleDocument]
    ) -> list[CacheMismatch]:
        """Each definition whose table the manifest holds, where that table differs from
        `fresh` (sha256 -> the table its bytes parse to, as the resolver just parsed them)."""
        mismatches: list[CacheMismatch] = []
        for document in documents:
            cached = self.stored.get(hashlib.sha256(document.data).hexdigest())
            if cached is None:
                continue
            table = fresh.get(hashlib.sha256(document.data).hexdigest())
            difference = _NOT_A_TABLE if table is None else table_difference(cached, table)
            if difference:
                mismatches.append(CacheMismatch(document.path, difference))
        return mismatches

    def write(self, digests: Mapping[RootKind, str] | None, used: set[str]) -> None:
        """Record the digests (None: keep those read) and the tables of the definitions
        `used` (sha256s), only into a cache directory that exists and is reached through no
        link, and only when something changed."""
        tables: dict[str, Any] = {}
        for sha256 in sorted(used):
            table = self.tables.get(sha256)
            if table is None:
                continue
            try:
                json.dumps(table)
            except (TypeError, ValueError, RecursionError):
                continue  # a TOML date or time has no JSON form; parse it each time
            tables[sha256] = {"sha256": sha256, "table": table}
        document = {
            "schema": MANIFEST_SCHEMA,
            "digests": (
                dict(self.digests or {})
                if digests is None
                else {root.value: digests[root] for root in RootKind if root in digests}
            ),
            "tables": tables,
        }
        payload = json.dumps(document, sort_keys=True, separators=(",", ":")).encode() + b"\n"
        if payload == self._stored_bytes:
            return  # unchanged: a read-only checkout stays untouched
        try:
            if symlinked_component(self.cache_dir) is not None:
                return
            if not stat.S_ISDIR(os.lstat(self.cache_dir).st_mode):
                return
            write_atomically(self.cache_dir / MANIFEST_NAME, payload)
        except OSError:
            return
