"""Project text made safe for a terminal or a CI log.

File names, module and layer names, messages and guidance come from the checked project,
its configuration and rule definitions, so they may hold characters that act instead of
showing: ESC starts a terminal command (clear the screen, recolour, retitle), CR and LF
start a new line that can pose as a finding of its own or, in a GitHub Actions log, as a
workflow command, and the bidirectional controls reorder what a reader sees (the "Trojan
Source" trick). `printable` shows each of them as a visible escape (`\\x1b`, `\\n`,
`\\u202e`) and leaves every other character as it is; `safe_line` also keeps a line from
reading as a CI runner's command. Machine formats (JSON, SARIF) are escaped by their
encoders and keep the text exact.
"""

from __future__ import annotations

import functools

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(code: int) -> str:
    if 0xDC80 <= code <= 0xDCFF:
        # A byte that is not UTF-8, kept by the surrogateescape error handler (file names
        # on POSIX): show the byte, which is what the file name holds.
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


_UNSAFE = (
    *range(0x20),  # C0 controls
    *range(0x7F, 0xA0),  # DEL and the C1 controls (CSI, NEL, ...)
    0x061C,  # ARABIC LETTER MARK
    0x200E,  # LEFT-TO-RIGHT MARK
    0x200F,  # RIGHT-TO-LEFT MARK
    0x2028,  # LINE SEPARATOR
    0x2029,  # PARAGRAPH SEPARATOR
    *range(0x202A, 0x202F),  # bidi embeddings and overrides (LRE .. RLO)
    *range(0x2066, 0x206A),  # bidi isolates (LRI, RLI, FSI, PDI)
    *range(0xD800, 0xE000),  # lone surrogates: unprintable, and an encoder would fail on them
)


@functools.cache
def _table() -> dict[int, str]:
    # Built on first need: most runs never meet a character to escape.
    return {code: _NAMED.get(chr(code)) or _escape(code) for code in _UNSAFE}


def printable(text: str) -> str:
    """`text` with every control, line or paragraph separator, bidi control and lone
    surrogate shown as an escape. Idempotent; a backslash already in `text` stays as it is,
    so the escapes are for reading, not for decoding."""
    if text.isprintable():  # the common case, and every character escaped here fails it
        return text
    return text.translate(_table())


# What CI runners read as a command at the start of an output line, after any white space:
# GitHub Actions `::error ...::`, `::stop-commands::`; Azure Pipelines `##vso[...]` and
# `##[group]`-style formatting. A plain `## ` (a Markdown heading of a rule page) is none.
_COMMAND_STARTS = ("::", "##vso[", "##[")


def safe_line(line: str) -> str:
    """One output line that may start with project text: made `printable`, and if it would
    start (after white space) like a CI runner's command, its first such character is shown
    as an escape too (`\\x3a:error::`), so no file or layer name can issue a command."""
    line = printable(line)
    stripped = line.lstrip()
    if not stripped.startswith(_COMMAND_STARTS):
        return line
    at = len(line) - len(stripped)
    return f"{line[:at]}\\x{ord(line[at]):02x}{line[at + 1 :]}"
