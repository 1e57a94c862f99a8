"""The rule-roots manifest in the cache directory.

`<project>/.inwards/cache/rule-roots.json` holds each root's digest at the last check, so
`inwards status` can say which root changed since, and the parsed TOML table of every
definition by the sha256 of its bytes, so a run doesn't parse unchanged definitions again
(parsing TOML is most of what resolving rules costs). Like the extraction cache it never
fails a run: an unreadable or foreign manifest reads as empty, a write that fails is skipped,
and a table is only ever used for the exact bytes it was parsed from.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.adapters.atomic import write_atomically
from inwards_core.model import RootKind

MANIFEST_NAME = "rule-roots.json"
MANIFEST_SCHEMA = "inwards/rule-roots@2"


@attrs.define
class RuleRootsManifest:
    cache_dir: Path
    digests: dict[str, str] | None = None  # None: no earlier check recorded any
    tables: dict[str, Any] = attrs.Factory(dict)
    _stored: bytes = b""

    @classmethod
    def read(cls, cache_dir: Path) -> RuleRootsManifest:
        manifest = cls(cache_dir)
        try:
            raw = (cache_dir / MANIFEST_NAME).read_bytes()
            document = json.loads(raw)
        except (OSError, ValueError):
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
            manifest.tables = {k: v for k, v in tables.items() if isinstance(v, dict)}
        manifest._stored = raw
        return manifest

    def write(self, digests: Mapping[RootKind, str], used: set[str]) -> None:
        """Record the digests and the tables of the definitions `used` (sha256s), only into
        a cache directory that exists and is not a link, and only when something changed."""
        tables: dict[str, Any] = {}
        for sha256 in sorted(used):
            table = self.tables.get(sha256)
            if table is None:
                continue
            try:
                json.dumps(table)
            except (TypeError, ValueError):
                continue  # a TOML date or time has no JSON form; parse it each time
            tables[sha256] = table
        document = {
            "schema": MANIFEST_SCHEMA,
            "digests": {root.value: digests[root] for root in RootKind if root in digests},
            "tables": tables,
        }
        payload = json.dumps(document, sort_keys=True, separators=(",", ":")).encode() + b"\n"
        if payload == self._stored:
            return  # unchanged: a read-only checkout stays untouched
        try:
            if not self.cache_dir.is_dir() or os.path.islink(self.cache_dir):
                return
            write_atomically(self.cache_dir / MANIFEST_NAME, payload)
        except OSError:
            return
