"""Per-file facts: static imports (skeleton, CPython's parser, libcst), dynamic imports,
suppression comments. `extract` is the entry point; it is pure and never raises.

`EXTRACTOR_ID` lives here and `extract` is imported on first use: a run whose facts all
come from the cache never pays for compiling the readers' patterns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# Bump whenever extraction output could change: it is part of every cache key.
EXTRACTOR_ID = "imports/7"

if TYPE_CHECKING:
    from inwards_core.extraction.pipeline import extract


def __getattr__(name: str) -> Any:
    if name == "extract":
        from inwards_core.extraction.pipeline import extract

        return extract
    raise AttributeError(f"module 'inwards_core.extraction' has no attribute {name!r}")


__all__ = ["EXTRACTOR_ID", "extract"]
