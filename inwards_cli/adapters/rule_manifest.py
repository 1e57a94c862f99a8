"""The rule-roots manifest in the cache directory: each root's digest at the last check,
so `inwards status` can say which root changed since.

`<project>/.inwards/cache/rule-roots.json` is `{"schema": "inwards/rule-roots@1",
"digests": {"core": ..., "user": ..., "project": ...}}`. Like the extraction cache it never
fails a run: an unreadable or foreign manifest reads as "no earlier run", and a write that
fails is skipped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from inwards_cli.adapters.disk_cache import write_atomically
from inwards_core.model import RootKind

MANIFEST_NAME = "rule-roots.json"
MANIFEST_SCHEMA = "inwards/rule-roots@1"


def read_digests(cache_dir: Path) -> dict[str, str] | None:
    try:
        document = json.loads((cache_dir / MANIFEST_NAME).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("schema") != MANIFEST_SCHEMA:
        return None
    digests = document.get("digests")
    if not isinstance(digests, dict):
        return None
    return {k: v for k, v in digests.items() if isinstance(k, str) and isinstance(v, str)}


def write_digests(cache_dir: Path, digests: Mapping[RootKind, str]) -> None:
    """Record the digests (only into a cache directory that exists and is not a link)."""
    document = {
        "schema": MANIFEST_SCHEMA,
        "digests": {root.value: digests[root] for root in RootKind if root in digests},
    }
    payload = json.dumps(document, indent=2, sort_keys=True).encode("ascii") + b"\n"
    if read_digests(cache_dir) == document["digests"]:
        return  # unchanged: no write, so a read-only checkout stays untouched
    try:
        if not cache_dir.is_dir() or os.path.islink(cache_dir):
            return
        write_atomically(cache_dir / MANIFEST_NAME, payload)
    except OSError:
        return
