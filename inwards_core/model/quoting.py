"""What a message may quote from the checked code or the configuration: a bounded piece.

Findings and configuration errors quote import statements, module names, layer names and
keys. Any of those can be megabytes long in a hostile file, and a finding repeats what it
quotes in its message, its fix summary and its steps, once per finding: quoted whole, one
149 KB statement naming 20,000 modules gave a report of gigabytes. So everything quoted
goes through `quoted`, and a finding's texts are capped as a whole (`MESSAGE_LIMIT`) as a
backstop for what a kind quotes without it.
"""

from __future__ import annotations

QUOTE_LIMIT = 200
"""The most characters one quoted piece keeps."""

LIST_LIMIT = 600
"""The most characters a list of quoted pieces keeps (a chain of imports, the layers in
order)."""

MESSAGE_LIMIT = 2000
"""The most characters a message, fix summary or fix step keeps: room for a few quoted
pieces (a statement, two modules, a chain) around the words."""

ELLIPSIS = "…"


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` as it is when it has at most `limit` characters; otherwise its start and its
    end with `…` between them, `limit` characters in all. The same text always gives the
    same result, and both ends stay: a statement is recognised by its start, a module by
    its last parts."""
    if len(text) <= limit:
        return text
    if limit < 2:
        return ELLIPSIS[:limit]
    kept = limit - len(ELLIPSIS)
    head = kept - kept // 3
    tail = kept - head
    return text[:head] + ELLIPSIS + text[len(text) - tail :]


def capped_message(text: str) -> str:
    """A whole message, fix summary or step, cut to `MESSAGE_LIMIT`."""
    return quoted(text, MESSAGE_LIMIT)
