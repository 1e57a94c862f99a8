"""From file bytes to text, the way CPython reads a source file (PEP 263, BOM).

Only encodings that cannot hide code are accepted: UTF-8, ASCII, Latin-1 and the other
ISO-8859 parts, and the Windows cp125x pages. A declaration of anything else (the
`unicode_escape` family, `utf-7`, `rot13`, ...) can turn what looks like a comment into
an import, so such a file is not read at all.
"""

from __future__ import annotations

import codecs
import re

import attrs

from inwards_core.extraction.text import normalise_newlines
from inwards_core.model.facts import FileProblem, FileProblemKind
from inwards_core.model.findings import Span

_BOM = b"\xef\xbb\xbf"
# The declaration CPython looks for, on line 1 or on line 2 after a blank or comment line.
_DECLARATION = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_BLANK_OR_COMMENT = re.compile(rb"^[ \t\f]*(?:#.*)?$")
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_WINDOWS_PAGES = frozenset(f"cp125{digit}" for digit in range(9))


@attrs.frozen
class DecodedSource:
    """The file's text with every line break turned into `\\n`, and the codec used."""

    text: str
    encoding: str


def _first_two_lines(data: bytes) -> list[bytes]:
    lines: list[bytes] = []
    start = 0
    for match in _LINE_BREAK.finditer(data):
        lines.append(data[start : match.start()])
        start = match.end()
        if len(lines) == 2:
            return lines
    lines.append(data[start:])
    return lines[:2]


def declared_encoding(data: bytes) -> str | None:
    """The PEP 263 declaration as written (bytes after a BOM are passed in), or None."""
    lines = _first_two_lines(data)
    match = _DECLARATION.match(lines[0])
    if match is None and len(lines) > 1 and _BLANK_OR_COMMENT.match(lines[0]):
        match = _DECLARATION.match(lines[1])
    if match is None:
        return None
    return match.group(1).decode("ascii", "replace")


def _allowed(codec_name: str) -> bool:
    return (
        codec_name in ("utf-8", "utf-8-sig", "ascii")
        or codec_name.startswith("iso8859-")
        or codec_name in _WINDOWS_PAGES
    )


def _encoding_problem(message: str, encoding: str) -> FileProblem:
    return FileProblem(FileProblemKind.ENCODING, message, Span.start_of_file(), encoding=encoding)


def _undecodable(data: bytes, error: UnicodeDecodeError, codec_name: str) -> FileProblem:
    prefix = data[: error.start]
    breaks = list(_LINE_BREAK.finditer(prefix))
    line_start = breaks[-1].end() if breaks else 0
    # A `\r` right before the bad byte may still pair with it; Python counts it as a break.
    column = len(prefix[line_start:].decode(codec_name, "replace")) + 1
    line = len(breaks) + 1
    bad = data[error.start : error.start + 1].hex()
    message = (
        f"The file is not valid {codec_name}: byte 0x{bad} at line {line}, "
        f"column {column} can't be decoded."
    )
    return FileProblem(
        FileProblemKind.UNDECODABLE,
        message,
        Span(line, column, line, column + 1),
        encoding=codec_name,
    )


def decode_source(data: bytes) -> DecodedSource | FileProblem:
    """Decode a Python source file; a problem when its encoding can't or mustn't be used."""
    has_bom = data.startswith(_BOM)
    body = data[len(_BOM) :] if has_bom else data
    declared = declared_encoding(body)
    codec_name = "utf-8"
    if declared is not None:
        normalised = declared.lower().replace("_", "-")
        try:
            codec_name = codecs.lookup(declared).name
        except LookupError:
            return _encoding_problem(
                f'The file declares encoding "{normalised}", which Python does not know; '
                "it can't be read.",
                normalised,
            )
        if not _allowed(codec_name):
            return _encoding_problem(
                f'The file declares encoding "{codec_name}", which can hide imports from '
                "readers of the file; it is not checked. Use UTF-8.",
                codec_name,
            )
        if codec_name == "utf-8-sig":
            codec_name = "utf-8"
        if has_bom and codec_name != "utf-8":
            return _encoding_problem(
                "The file starts with a UTF-8 byte order mark but declares encoding "
                f'"{codec_name}"; Python refuses to read it.',
                codec_name,
            )
    try:
        text = body.decode(codec_name)
    except UnicodeDecodeError as error:
        return _undecodable(body, error, codec_name)
    return DecodedSource(normalise_newlines(text), codec_name)
