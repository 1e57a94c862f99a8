"""The version of inwards: one constant, read by packaging, `required-version` and reports.

A constant rather than a metadata lookup: importing importlib.metadata costs tens of
milliseconds at every start, and a one-file check has a budget of a few tens in all.
"""

from __future__ import annotations

VERSION = "0.1.0"
# The name inwards is installed by (`pip install inwards-lint`). "inwards" on the package
# index is another product (the TypeScript-era inwards 0.7): a requirement on it would
# install the wrong tool. The import packages and the `inwards` command keep their names.
DISTRIBUTION = "inwards-lint"


def inwards_version() -> str:
    return VERSION


def inwards_distribution() -> str:
    """The distribution that installs inwards, as a requirement names it."""
    return DISTRIBUTION
