"""The one list of output formats. Each names its `Reporter`, loaded on first use, and
what the command line may do with it; `inwards check --format`, its choices, its help and
the one dispatch (`write_report`) read this list. Adding a format is its module (a
`Reporter`), its schema, and one entry here.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from inwards_core.model.value_repr import value_repr
from inwards_core.reporting import Reporter, ReportInput


@attrs.frozen
class Format:
    """An output format: its name, its part of `--format`'s help, how to load its reporter
    (imported on first use: a text check never loads the machine formats) and what it is
    for."""

    __repr__ = value_repr

    name: str
    description: str
    load: Callable[[], Reporter]
    for_people: bool = False  # coloured at a terminal; a progress bar on a long run
    frames: bool = False  # the line of source under each finding
    every_finding: bool = False  # a consumer needs every finding: no limit on them
    explains: bool = False  # `--explain` appends its explanation
    counts: bool = False  # `--statistics` appends the findings per rule
    watchable: bool = False  # `--watch` can print what changed in it


def _text() -> Reporter:
    from inwards_core.reporting.text import write_text

    return write_text


def _concise() -> Reporter:
    from inwards_core.reporting.text import write_concise

    return write_concise


def _json() -> Reporter:
    from inwards_core.reporting.json import write_json

    return write_json


def _sarif() -> Reporter:
    from inwards_core.reporting.sarif import write_sarif  # sarif_om: some fifty modules

    return write_sarif


def _github() -> Reporter:
    from inwards_core.reporting.github import write_github

    return write_github


FORMATS = (
    Format(
        "text",
        "text (default)",
        _text,
        for_people=True,
        frames=True,
        explains=True,
        counts=True,
        watchable=True,
    ),
    Format(
        "concise",
        "concise",
        _concise,
        for_people=True,
        explains=True,
        counts=True,
        watchable=True,
    ),
    Format("json", "json", _json, explains=True),
    Format(
        "sarif",
        "sarif (SARIF 2.1.0 for code scanning; every finding, so not with --max-diagnostics)",
        _sarif,
        every_finding=True,
    ),
    Format(
        "github",
        "github (workflow commands that annotate a pull request; paths relative to "
        "GITHUB_WORKSPACE)",
        _github,
        watchable=True,
    ),
)
FORMAT_NAMES = tuple(output.name for output in FORMATS)
DEFAULT_FORMAT = FORMATS[0].name


def format_named(name: str) -> Format:
    """The format of this name (one of FORMAT_NAMES)."""
    return next(output for output in FORMATS if output.name == name)


def write_report(name: str, subject: ReportInput) -> str:
    """The report in the format of this name: the one dispatch of every format."""
    return format_named(name).load()(subject)


def listed(words: tuple[str, ...] | list[str], last: str) -> str:
    """`a, b or c` (`last`: "or", "and")."""
    return f"{', '.join(words[:-1])} {last} {words[-1]}" if len(words) > 1 else "".join(words)
