"""The installed version of inwards (one place; `required-version` and reports use it)."""

from __future__ import annotations

import functools
from importlib import metadata


@functools.cache
def inwards_version() -> str:
    try:
        return metadata.version("inwards")
    except metadata.PackageNotFoundError:  # running from a source tree that isn't installed
        return "0.0.0"
