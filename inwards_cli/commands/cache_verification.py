"""The message of `check --verify-cache` when the cache is not what it claims to be."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NoReturn

from inwards_cli.commands.console import fail
from inwards_core.verification import CacheMismatch

MAX_MISMATCHES_SHOWN = 20


def fail_verification(
    mismatches: Sequence[CacheMismatch], display: Callable[[str], str]
) -> NoReturn:
    """Exit 2 naming every cached entry (a file's facts, a definition's table) that
    `--verify-cache` found different from what it was made from (at most
    `MAX_MISMATCHES_SHOWN`, then how many more)."""
    differ = (
        "entry differs from what it was"
        if len(mismatches) == 1
        else "entries differ from what they were"
    )
    lines = [f"cache error: {len(mismatches)} cached {differ} made from (--verify-cache):"]
    for mismatch in mismatches[:MAX_MISMATCHES_SHOWN]:
        lines.append(f"  {display(mismatch.entry)}: {mismatch.difference}")
    if len(mismatches) > MAX_MISMATCHES_SHOWN:
        lines.append(f"  ... and {len(mismatches) - MAX_MISMATCHES_SHOWN} more")
    lines.append(
        "The cache was damaged or written by another party (was it restored from an "
        "untrusted run?). Those entries now hold what was read afresh; nothing else "
        "was checked."
    )
    fail(*lines)
