"""The entries of the extraction pack: their names, their lines, and the pack's layout.

The pack (see `disk_cache`) is one JSON document, `{"entries": {...}, "format": 2}`, written
one `"<name>":<entry>` a line between a head and a tail, so that a run reads the entries as
bytes, decodes only those it asks for, and writes back unchanged the lines of the entries it
did not change. A name is the sha256 of the entry's key as JSON; an entry records its key
(`made_for`) and is a miss for any other.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from inwards_core.ports import CacheKey

__all__ = [
    "NAME_ONLY",
    "VALUE_AT",
    "entry_line",
    "entry_lines",
    "entry_name",
    "find_entry_line",
    "is_pack_layout",
    "key_fields",
    "made_for",
    "pack_bytes",
]

# The layout `pack_bytes` gives: the document's head, one `"<name>":<entry>` a line, its
# tail. Entry names are 64 hex digits; an entry is a JSON object.
_HEAD = b'{"entries":{\n'
_TAIL = b'\n},"format":2}\n'
_NAME = re.compile(rb'"([0-9a-f]{64})":\{')
VALUE_AT = 67  # len('"<64 hex>":')
NAME_ONLY = re.compile(r"[0-9a-f]{64}")


def key_fields(key: CacheKey) -> list[Any]:
    return [key.digest, key.module, key.is_package, key.extractor]


# Text json.dumps writes as it is: printable ASCII but the quote and the backslash.
_PLAIN = re.compile(r"[ !#-\[\]-~]*")


def entry_name(key: CacheKey) -> str:
    """The sha256 of the key's fields as json.dumps writes them; built directly when no
    field needs an escape (every key of a run is named: json.dumps was 5 ms of 2,105)."""
    if _PLAIN.fullmatch(key.digest + key.module + key.extractor):
        flag = "true" if key.is_package else "false"
        text = f'["{key.digest}", "{key.module}", {flag}, "{key.extractor}"]'
    else:
        text = json.dumps(key_fields(key))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entry_line(name: str, entry: Any) -> bytes:
    """An entry as its line of the pack: `"<name>":<entry>`."""
    encoded = json.dumps(entry, separators=(",", ":"), sort_keys=True).encode("ascii")
    return b'"%s":%s' % (name.encode("ascii"), encoded)


def made_for(entry: Any, key: CacheKey) -> bool:
    """Whether a pack entry records `key` as what it was made from (`is` for the flag:
    JSON's 1 is not true)."""
    if not isinstance(entry, dict):
        return False
    recorded = entry.get("key")
    return (
        isinstance(recorded, list)
        and len(recorded) == 4
        and recorded[0] == key.digest
        and recorded[1] == key.module
        and recorded[2] is key.is_package
        and recorded[3] == key.extractor
    )


def is_pack_layout(raw: bytes) -> bool:
    """Whether the bytes have the head and the tail `pack_bytes` writes."""
    return len(raw) >= len(_HEAD) + len(_TAIL) and raw.startswith(_HEAD) and raw.endswith(_TAIL)


def find_entry_line(raw: bytes, name: str) -> bytes | None:
    """The line of the entry `name` in a pack of our layout, found without splitting the
    others (a check of one file asks for one entry of thousands); None when it has none.
    Each line starts after a line break, and none holds one (JSON escapes it), so the
    name found there is an entry's; its line ends at the next `,` and line break, or at the
    tail. The entry is judged when decoded, as a split pack's is."""
    start = raw.find(b'\n"%s":{' % name.encode("ascii"))
    if start < 0:
        return None
    end = raw.find(b",\n", start + 1)
    return raw[start + 1 : end if end >= 0 else len(raw) - len(_TAIL)]


def entry_lines(raw: bytes) -> dict[str, bytes] | None:
    """The lines of a pack in the layout `pack_bytes` gives, by entry name; None for any
    other layout. Only the names are looked at here: an entry is judged when asked for."""
    if not (raw.startswith(_HEAD) and raw.endswith(_TAIL)):
        return None
    if len(raw) == len(_HEAD) + len(_TAIL):
        return {}
    lines = raw.split(b",\n")
    lines[0] = lines[0][len(_HEAD) :]
    lines[-1] = lines[-1][: -len(_TAIL)]
    entries: dict[str, bytes] = {}
    for line in lines:
        found = _NAME.match(line)
        if found is None or not line.endswith(b"}"):
            return None
        entries[found[1].decode("ascii")] = line
    if len(entries) != len(lines):
        return None  # a name twice: not what we write
    return entries


def pack_bytes(lines: Mapping[str, bytes]) -> bytes:
    """The pack holding `lines` (name -> its line), one a line in name order."""
    return _HEAD + b",\n".join(lines[name] for name in sorted(lines)) + _TAIL
