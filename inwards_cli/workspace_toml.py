"""The pyproject files a uv workspace is found through, read as TOML only: the first one
with a `[tool.uv.workspace]` table at or above a directory, found without parsing the
files that do not even hold the word (`workspace_root` asks whether a check runs in a
workspace, `workspace` reads its members)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.config_file import CONFIG_NAME, MAX_CONFIG_BYTES
from inwards_core.config.nesting import TomlTooDeepError, load_toml

__all__ = ["parsed", "table_at", "workspace_document", "workspace_root_above"]


def parsed(path: Path) -> dict[str, Any] | None:
    """The TOML document at `path`; None when it is absent, unreadable or not TOML (a
    broken file is the business of whatever reads it as a configuration)."""
    try:
        data = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES)
        return load_toml(data.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, TomlTooDeepError):
        return None


def table_at(document: dict[str, Any], *keys: str) -> Any:
    """`document[k1][k2]...`, or None where a level is missing or not a table."""
    here: Any = document
    for key in keys:
        if not isinstance(here, dict):
            return None
        here = here.get(key)
    return here


def workspace_document(path: Path) -> dict[str, Any] | None:
    """The document at `path` when it has a `[tool.uv.workspace]` table; most files have
    not even the word, and are not parsed."""
    try:
        data = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES)
    except OSError:
        return None
    if b"workspace" not in data:
        return None
    try:
        document = load_toml(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, TomlTooDeepError):
        return None
    return document if table_at(document, "tool", "uv", "workspace") is not None else None


def workspace_root_above(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The first `pyproject.toml` at or above `start` with a `[tool.uv.workspace]` table
    (uv stops at the first too), and its document."""
    here = start.absolute()
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        candidate = directory / CONFIG_NAME
        if not os.path.isfile(candidate):
            continue
        document = workspace_document(candidate)
        if document is not None:
            return candidate, document
    return None
