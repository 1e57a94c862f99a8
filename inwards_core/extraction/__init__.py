"""Per-file facts: static imports (skeleton, CPython's parser, libcst), dynamic imports,
suppression comments. `extract` is the entry point; it is pure and never raises."""

from __future__ import annotations

from inwards_core.extraction.pipeline import EXTRACTOR_ID, extract

__all__ = ["EXTRACTOR_ID", "extract"]
