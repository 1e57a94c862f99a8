"""The version of inwards: one constant, read by packaging, `required-version` and reports.

A constant rather than a metadata lookup: importing importlib.metadata costs tens of
milliseconds at every start, and a one-file check has a budget of a few tens in all.
"""

from __future__ import annotations

VERSION = "0.1.0"


def inwards_version() -> str:
    return VERSION
