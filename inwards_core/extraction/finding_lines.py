"""The lines of source the findings of a run point at, cut from bytes already read.

A file is decoded as the extraction decodes it (PEP 263, a BOM, every line break read as
Python reads it), once however many findings it holds; a line is kept only as the window a
frame shows (`inwards_core.model.source_lines`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from inwards_core.extraction.decoding import DecodedSource, decode_source
from inwards_core.model.findings import Finding
from inwards_core.model.source_lines import SourceLine, source_line


def finding_lines(
    findings: Iterable[Finding], read: Callable[[str], bytes | None]
) -> tuple[SourceLine, ...]:
    """The line under each finding's start, for the findings whose file `read` gives
    (None: not available) and decodes; in the findings' order, each (file, line, column)
    once."""
    wanted: dict[str, set[tuple[int, int]]] = {}
    for finding in findings:
        wanted.setdefault(finding.file, set()).add((finding.span.line, finding.span.column))
    lines: list[SourceLine] = []
    for file, places in wanted.items():
        data = read(file)
        decoded = decode_source(data) if data is not None else None
        if not isinstance(decoded, DecodedSource):
            continue
        text = decoded.text.split("\n")
        for line, column in sorted(places):
            if 1 <= line <= len(text):
                lines.append(source_line(file, line, column, text[line - 1]))
    return tuple(lines)
